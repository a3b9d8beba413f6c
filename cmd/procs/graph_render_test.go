package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose/config"
)

func graphTestConfig() *config.Config {
	return &config.Config{Procs: map[string]*config.Proc{
		"api": {DependsOn: config.Dependencies{
			{Name: "db", Condition: config.ConditionReady},
			{Name: "migrate", Condition: config.ConditionCompleted},
		}},
		"db":      {},
		"migrate": {DependsOn: config.Dependencies{{Name: "db", Condition: config.ConditionReady}}},
		"worker":  {},
	}}
}

// TestGraphRender renders the dependency graph, every edge from the
// process depended on to its dependent, in start order.
func TestGraphRender(t *testing.T) {
	tests := []struct {
		format string
		want   string
	}{
		{format: "text", want: "db\n" +
			"  → migrate (ready)\n" +
			"  → api (ready)\n" +
			"migrate\n" +
			"  → api (completed)\n" +
			"api\n" +
			"worker\n"},
		{format: "mermaid", want: "flowchart LR\n" +
			"  api\n" +
			"  db\n" +
			"  migrate\n" +
			"  worker\n" +
			"  db -->|ready| migrate\n" +
			"  db -->|ready| api\n" +
			"  migrate -->|completed| api\n"},
		{format: "dot", want: "digraph procs {\n" +
			"  rankdir=LR;\n" +
			"  \"api\";\n" +
			"  \"db\";\n" +
			"  \"migrate\";\n" +
			"  \"worker\";\n" +
			"  \"db\" -> \"migrate\" [label=\"ready\"];\n" +
			"  \"db\" -> \"api\" [label=\"ready\"];\n" +
			"  \"migrate\" -> \"api\" [label=\"completed\"];\n" +
			"}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.format, func(t *testing.T) {
			got, err := renderGraph(graphTestConfig(), tt.format)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestGraphRenderUnknownFormat names the formats there are.
func TestGraphRenderUnknownFormat(t *testing.T) {
	_, err := renderGraph(graphTestConfig(), "svg")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "text, mermaid or dot")
}

// TestGraphJSON gives the processes in start order and every dependency.
func TestGraphJSON(t *testing.T) {
	graph, err := newDependencyGraph(graphTestConfig())
	require.NoError(t, err)
	assert.Equal(t, []string{"db", "migrate", "api", "worker"}, graph.Processes)
	assert.Equal(t, []graphEdge{
		{From: "db", To: "migrate", Condition: config.ConditionReady},
		{From: "db", To: "api", Condition: config.ConditionReady},
		{From: "migrate", To: "api", Condition: config.ConditionCompleted},
	}, graph.Edges)
}
