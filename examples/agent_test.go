package examples_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os/exec"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose"
	"github.com/procsdev/procs/internal/testenv"
	"github.com/procsdev/procs/rules"
)

// TestAgent runs examples/agent: the stand-in agent CLI in a PTY reaches
// ready because autoRespond answers its trust dialog; input sent with
// `procs send` makes it work, `procs wait --for ready` returns at its next
// prompt, and a restart answers the dialog again.
func TestAgent(t *testing.T) {
	testenv.LookPath(t, "python3")
	p := newProject(t, "agent")

	assert.Contains(t, p.up(), "agent ready")
	trusted := regexp.MustCompile(`^autoRespond: ".*Do you trust the files in this folder\?.*" matched`)
	p.requireEvent("agent", 1, trusted)
	st := p.status()["agent"]
	assert.Equal(t, "claude-code", st.Preset)
	assert.True(t, st.PTY, "it runs in a pseudo-terminal")

	assert.Contains(t, p.mustProcs("send", "agent", "write the tests", "--enter"), "sent to agent")
	var res rules.Result
	require.NoError(t, json.Unmarshal([]byte(p.mustProcs("wait", "agent", "--for", "ready", "--json")), &res))
	assert.True(t, res.Success)
	assert.Equal(t, rules.StateReady, res.State)
	assert.Contains(t, p.mustProcs("screen", "agent"), "● done: write the tests", "it answered before it was ready again")

	assert.Contains(t, p.mustProcs("restart", "agent"), "agent ready (run 2")
	p.requireEvent("agent", 2, trusted)
	p.down()
}

// requireEvent waits, through `procs events`, for an event of run of name
// whose message matches re; events already sent are replayed first.
func (p *project) requireEvent(name string, run int, re *regexp.Regexp) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), commandLimit)
	defer cancel()
	cmd := exec.CommandContext(ctx, procsBin, "events", name, "--after", "0")
	cmd.Dir, cmd.Env = p.dir, p.env
	out, err := cmd.StdoutPipe()
	require.NoError(p.t, err)
	require.NoError(p.t, cmd.Start())
	defer func() { cancel(); _ = cmd.Wait() }()
	var seen []string
	lines := bufio.NewScanner(out)
	for lines.Scan() {
		var ev compose.Event
		require.NoError(p.t, json.Unmarshal(lines.Bytes(), &ev), lines.Text())
		if ev.Run == run && re.MatchString(ev.Message) {
			return
		}
		seen = append(seen, ev.Message)
	}
	p.t.Fatalf("no event of %s run %d matching /%s/; seen: %q", name, run, re, seen)
}
