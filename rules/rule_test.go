package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCompileRuleErrors(t *testing.T) {
	tests := []struct {
		src          string
		line, column int
		msg          string
	}{
		{`port.open &&`, 1, 12, "unexpected token"},
		{`elapsed`, 1, 1, "expected bool"},
		{`log.matches("listening (")`, 1, 13, "missing closing )"},
		{"port.open &&\n  log.matches(\"a[\")", 2, 15, "missing closing ]"},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			_, err := CompileRule(tt.src)
			var ruleErr *RuleError
			require.ErrorAs(t, err, &ruleErr)
			assert.Equal(t, tt.line, ruleErr.Line, "line")
			assert.Equal(t, tt.column, ruleErr.Column, "column")
			assert.Contains(t, ruleErr.Error(), tt.msg)
		})
	}
}

func TestCompileRuleCollectsLogCalls(t *testing.T) {
	r, err := CompileRule(`log.matches("a.b") && log.contains("x") && log.matches("a.b")`)
	require.NoError(t, err)
	assert.Equal(t, []string{"a.b"}, r.matches)
	assert.Equal(t, []string{"x"}, r.contains)
	assert.False(t, r.dynamic)

	r, err = CompileRule(`log.matches(line)`)
	require.NoError(t, err)
	assert.True(t, r.dynamic)
}

// A regex known only at evaluation time is answered from the run's recent
// lines, then tracked.
func TestRuleDynamicMatches(t *testing.T) {
	d := NewDetector(&Spec{Rule: mustRule(t, `log.lines >= 2 && log.matches(deps.want)`)}, 1, t0)
	drive(d, []step{{1, Event{Kind: EventDeps, Deps: map[string]State{"want": "x+y"}}},
		lineAt(2, "db up"), lineAt(3, "cache up")}, 0)
	assert.Equal(t, StateStarting, d.Verdict().State)
	v, _ := d.Handle(Event{Kind: EventDeps, Time: t0.Add(4), Deps: map[string]State{"want": "db u+p"}})
	assert.Equal(t, StateReady, v.State)
}

func TestCompilePatterns(t *testing.T) {
	p, err := CompilePatterns([]string{"ok", "listening on .*:8080"})
	require.NoError(t, err)
	require.Len(t, p, 2)
	assert.Equal(t, "ok", p[0].Source)
	assert.True(t, p[1].Re.MatchString("listening on 0.0.0.0:8080"))

	_, err = CompilePatterns([]string{"ok", "bad("})
	assert.ErrorContains(t, err, `compile pattern "bad("`)
}
