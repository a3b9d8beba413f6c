package config

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// graph builds a config from name → dependency names.
func graph(deps map[string][]string) *Config {
	cfg := &Config{Procs: map[string]*Proc{}}
	for name, names := range deps {
		p := &Proc{Name: name}
		for _, dep := range names {
			p.DependsOn = append(p.DependsOn, Dependency{Name: dep, Condition: ConditionReady})
		}
		cfg.Procs[name] = p
	}
	return cfg
}

func TestStartOrderDiamond(t *testing.T) {
	cfg := graph(map[string][]string{
		"web": {"api", "auth"}, "api": {"db"}, "auth": {"db"}, "db": nil, "docs": nil,
	})
	order, err := cfg.StartOrder()
	require.NoError(t, err)
	assert.Equal(t, []string{"db", "api", "auth", "docs", "web"}, order, "dependencies first, ties by name")
	assert.Equal(t, []string{"api", "auth"}, cfg.Dependents("db"))
	assert.Empty(t, cfg.Dependents("web"))
	graph := cfg.DependentsGraph()
	for _, name := range cfg.Names() {
		assert.Equal(t, cfg.Dependents(name), graph[name], "the graph holds Dependents(%s)", name)
	}
}

func TestStartOrderCycle(t *testing.T) {
	cfg := graph(map[string][]string{"c": {"a"}, "a": {"b"}, "b": {"c"}, "d": nil})
	_, err := cfg.StartOrder()
	require.Error(t, err)
	assert.Equal(t, "dependency cycle: a → b → c → a", err.Error())
}

func TestWithDependencies(t *testing.T) {
	cfg := graph(map[string][]string{
		"web": {"api"}, "api": {"db", "cache"}, "db": nil, "cache": nil, "worker": {"db"},
	})
	names, err := cfg.WithDependencies("web")
	require.NoError(t, err)
	assert.Equal(t, []string{"cache", "db", "api", "web"}, names)

	names, err = cfg.WithDependencies("worker", "db")
	require.NoError(t, err)
	assert.Equal(t, []string{"db", "worker"}, names)

	_, err = cfg.WithDependencies("wbe")
	assert.ErrorIs(t, err, ErrUnknownProcess)
}

func TestCyclesReportedOnce(t *testing.T) {
	cfg := graph(map[string][]string{"a": {"b"}, "b": {"a", "c"}, "c": {"b"}, "s": {"s"}})
	assert.Equal(t, [][]string{{"a", "b", "a"}, {"b", "c", "b"}}, cfg.cycles(), "self-dependencies are reported separately")
}
