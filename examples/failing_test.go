package examples_test

import (
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/internal/testenv"
	"github.com/procsdev/procs/rules"
)

// The ports of examples/failing (its procs.yaml): the one squatter holds,
// and those of the processes that start.
var failingPorts = []int{19100, 19101, 19102, 19103, 19104}

// holderPID finds the pid procs names as the holder of a port.
var holderPID = regexp.MustCompile(`port 19100 is in use by pid (\d+) \(`)

// TestFailing runs examples/failing: `procs up -d --wait` exits 1, and
// `procs status --json` explains each failure: the pid and command of the
// port's holder, the command not found, the error line, what was seen when
// readiness timed out, and the failed dependency of each blocked process.
func TestFailing(t *testing.T) {
	testenv.LookPath(t, "python3")
	p := newProject(t, "failing", failingPorts...)

	stdout, stderr, code := p.procs("up", "-d", "--wait")
	require.Equal(t, 1, code, "up --wait exits 1 when a process fails:\n%s%s", stdout, stderr)
	assert.Regexp(t, `\w+ (failed|blocked) \(run \d`, stdout+stderr, "it names the first process that failed or is blocked")

	// The failures come in any order; wait for every one of them.
	p.mustProcs("wait", "web", "search", "worker", "cache", "migrate", "--for", "failed", "--timeout", "2m")
	p.mustProcs("wait", "api", "frontend", "--for", "blocked", "--timeout", "2m")

	status := p.status()
	tests := []struct {
		name    string
		reason  rules.Reason
		state   rules.State
		message []string // each must be in the message
	}{
		{"web", "port-in-use", rules.StateFailed, []string{"port 19100 is in use by pid ", "-m http.server 19100 --bind 127.0.0.1)"}},
		{"search", "start", rules.StateFailed, []string{`"search-server-not-installed"`, "not found"}},
		{"worker", "error", rules.StateFailed, []string{`error line "ERROR: settings.toml: missing key 'queue_url'"`, "matched /^ERROR: /"}},
		{"cache", "timeout", rules.StateFailed, []string{"port 19102 open, no line matched /Ready to accept connections/ after 10s"}},
		{"migrate", "", rules.StateFailed, []string{`exit code 3; last error line "migrate: ERROR: relation \"customers\" does not exist"`}},
		{"api", "dependency", rules.StateBlocked, []string{"migrate failed: exit code 3"}},
		{"frontend", "dependency", rules.StateBlocked, []string{"api is blocked (migrate failed: exit code 3"}},
		{"squatter", "ready", rules.StateReady, nil},
	}
	for _, tt := range tests {
		st, ok := status[tt.name]
		if !assert.True(t, ok, "no status for %s", tt.name) {
			continue
		}
		assert.Equal(t, tt.state, st.State, "%s: %+v", tt.name, st)
		if tt.reason != "" {
			assert.Equal(t, tt.reason, st.Reason, "%s: %+v", tt.name, st)
		}
		for _, part := range tt.message {
			assert.Contains(t, st.Message, part, tt.name)
		}
	}

	// The holder procs names is squatter's process, not a guess.
	m := holderPID.FindStringSubmatch(status["web"].Message)
	require.NotNil(t, m, status["web"].Message)
	holder, _ := strconv.Atoi(m[1])
	assert.True(t, descendsFrom(holder, status["squatter"].PID),
		"pid %d named as the holder is squatter's (pid %d) or its child's", holder, status["squatter"].PID)
	p.down()
}
