package tui

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/internal/fakeagent"
)

// agentStack runs the fake agent CLI in a PTY, with onIdle actions far
// enough away that none fires during a test.
func agentStack() string {
	return fmt.Sprintf(`
procs:
  agent:
    command: python3 %q --no-first-run --work 0.2
    framework: claude-code
    onIdle:
      after: 1h
      send: [continue]
`, fakeagent.Script())
}

func TestPTYProcessShowsItsLiveScreen(t *testing.T) {
	dir := t.TempDir()
	serveProcs(t, dir, agentStack())
	d := drive(t, Options{Dir: dir}, 120, 40)
	d.untilState("ready", "agent")
	d.untilShows("agent · screen (a attaches)", "? for shortcuts")
	d.key("i")
	d.typeText("hello agent")
	d.key("enter")
	d.untilShows("sent to agent: hello agent", "done: hello agent")
}

func TestPauseKeyTogglesOnIdle(t *testing.T) {
	dir := t.TempDir()
	serveProcs(t, dir, agentStack())
	d := drive(t, Options{Dir: dir}, 120, 40)
	d.untilState("ready", "agent")
	d.until("the list says agent has onIdle actions", func() bool { return d.m.procs[0].Idle != nil })
	d.key("p")
	d.untilShows("onIdle of agent paused")
	d.until("the list says paused", func() bool { return d.m.procs[0].Idle.Paused })
	d.key("p")
	d.untilShows("onIdle of agent resumed")
	d.until("the list says resumed", func() bool { return !d.m.procs[0].Idle.Paused })
}

func TestAttachKeyRunsTheAttachCommand(t *testing.T) {
	dir := t.TempDir()
	serveProcs(t, dir, agentStack())
	var attached []string
	d := drive(t, Options{Dir: dir, Attach: func(name string) *execCmd {
		attached = append(attached, name)
		return echoCmd(name)
	}}, 120, 40)
	d.untilState("ready", "agent")
	_, cmd := d.m.Update(keyMsg("a"))
	require.NotNil(t, cmd, "a on a running PTY process hands the terminal over")
	assert.Equal(t, []string{"agent"}, attached)
	d.apply(attachDoneMsg{name: "agent"})
	assert.Contains(t, d.screen(), "detached from agent")
}
