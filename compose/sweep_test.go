//go:build linux

package compose

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose/contain"
	"github.com/procsdev/procs/rules"
)

// TestStopsAtOnceTakeEachRunsEscapees stops several processes at once,
// without cgroups (the marker path), while procs goes on running: the
// sweeps they share still kill what each run left behind.
func TestStopsAtOnceTakeEachRunsEscapees(t *testing.T) {
	t.Setenv(contain.NoCgroupsVar, "off")
	var yaml strings.Builder
	yaml.WriteString("procs:\n")
	names := []string{"a", "b", "c", "d", "e", "f"}
	for _, name := range names {
		fmt.Fprintf(&yaml, "  %s:\n    command: \"(setsid sleep 300 &) ; echo ready; exec sleep 300\"\n    readyPatterns: [ready]\n", name)
	}
	yaml.WriteString("  keep:\n    command: \"echo ready; exec sleep 300\"\n    readyPatterns: [ready]\n")
	te := startEngine(t, yaml.String(), Options{NoWatchdog: true})
	te.waitFor("all ready", func(ev Event) bool { return ev.Type == EventInfo && ev.Reason == rules.ReasonAllReady })
	var escaped []int
	for _, name := range names {
		var marked []int
		require.Eventually(t, func() bool {
			marked = contain.FindMarked(te.instance + ":" + name + ":")
			return len(marked) >= 2
		}, waitLimit, 20*time.Millisecond, "%s and its escaped sleep", name)
		escaped = append(escaped, marked...)
	}
	for _, name := range names {
		_, err := te.Stop(name)
		require.NoError(t, err)
	}
	stopped := map[string]bool{}
	te.waitFor("every stop", func(ev Event) bool {
		if ev.Type == EventState && ev.To == rules.StateStopped {
			stopped[ev.Proc] = true
		}
		return len(stopped) == len(names)
	})
	assert.Eventually(t, func() bool { return allGone(escaped) }, waitLimit, 20*time.Millisecond,
		"left behind by the stops: %v", alive(escaped))
}
