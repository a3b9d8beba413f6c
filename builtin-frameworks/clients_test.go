package frameworks

import (
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/rules"
)

// Clients that connect while a server starts (a dependent's retry loop, a
// TCP or HTTP readiness probe, procs' own) make servers log: postgres's
// "FATAL:  the database system is starting up", MariaDB's "Aborted
// connection … without authentication", access-log lines of the probes.
// None of them is a failure: every line of the captures recorded with such
// clients (testdata/captures/PRESET/clients-*) is checked against the
// error patterns of the server's preset; the replay of
// TestCaptureVerdicts checks the run is ready all the same.
func TestEarlyClientLinesAreNotErrors(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join(ownCaptures, "*", "clients-*"))
	require.NoError(t, err)
	require.NotEmpty(t, dirs, "no captures with clients during start-up")
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, dir := range dirs {
		c := loadCapture(t, dir)
		var lines []string
		for _, ev := range captureEvents(c, t0) {
			if ev.Kind == rules.EventLine {
				lines = append(lines, rules.StripText([]byte(ev.Line.Text)))
			}
		}
		require.NotEmpty(t, lines, dir)
		p, ok := Lookup(c.Server)
		require.True(t, ok, dir)
		for _, src := range p.ErrorPatterns {
			re := regexp.MustCompile(src)
			for _, line := range lines {
				assert.False(t, re.MatchString(line), "%s: preset %s's error pattern /%s/ matches a client's line %q", dir, p.Name, src, line)
			}
		}
	}
}
