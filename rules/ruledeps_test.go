package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A rule's reads of deps are known at compile time: the names, and the
// words they are compared with, for the config to check.
func TestRuleDepsAreKnown(t *testing.T) {
	for src, want := range map[string]RuleDeps{
		`port.open`:                       {},
		`deps.db == "ready" && port.open`: {Uses: true, Names: []string{"db"}, States: []string{"ready"}},
		`"redy" != deps["db"]`:            {Uses: true, Names: []string{"db"}, States: []string{"redy"}},
		`deps.db in ["ready", "busy"] || deps.q == "completed"`: {Uses: true, Names: []string{"db", "q"}, States: []string{"ready", "busy", "completed"}},
		`len(deps) > 0`: {Uses: true},
	} {
		r, err := CompileRule(src)
		require.NoError(t, err, src)
		got := r.Deps()
		assert.Equal(t, want.Uses, got.Uses, src)
		assert.ElementsMatch(t, want.Names, got.Names, src)
		assert.ElementsMatch(t, want.States, got.States, src)
	}
}

// A rule that reads port.open needs a port: to read (config checks it);
// portOpen(N), ports and the words "port.open" in a string do not.
func TestRuleReadsPortOpen(t *testing.T) {
	for src, want := range map[string]bool{
		`port.open`: true,
		`log.matches("x") && (port.open || run > 1)`: true,
		`port["open"]`:              true,
		`portOpen(8080)`:            false,
		`8080 in ports`:             false,
		`log.contains("port.open")`: false,
	} {
		rule, err := CompileRule(src)
		require.NoError(t, err, src)
		assert.Equal(t, want, rule.ReadsPortOpen(), src)
	}
}
