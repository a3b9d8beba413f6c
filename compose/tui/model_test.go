package tui

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// stack is a small project: a service that logs on both streams, one
// that echoes what it reads, and a task.
const stack = `
procs:
  web:
    command: 'echo "web: listening"; echo "web: a warning" >&2; exec sleep 300'
    readyPatterns: ['listening']
  echo:
    command: 'echo "echo: ready"; while read line; do echo "got $line"; done'
    readyPatterns: ['echo: ready']
  setup:
    kind: task
    command: 'echo "setup: done"'
`

func TestModelShowsEveryProcessAndItsState(t *testing.T) {
	dir := t.TempDir()
	serveProcs(t, dir, stack)
	d := drive(t, Options{Dir: dir}, 120, 30)
	d.untilState("ready", "web", "echo")
	d.untilState("completed", "setup")
	s := d.screen()
	assert.Contains(t, s, "NAME")
	assert.Contains(t, s, "REASON")
	assert.Regexp(t, `2 ready, 1 completed|1 completed, 2 ready|ready.*completed`, strings.Split(s, "\n")[0])
	assert.Contains(t, d.row("web"), `matched "web: listening"`)
}

func TestModelLogPaneMarksStderr(t *testing.T) {
	dir := t.TempDir()
	serveProcs(t, dir, stack)
	d := drive(t, Options{Dir: dir}, 120, 30)
	d.selectProc("web")
	d.untilShows("web · log", "  web: listening", "! web: a warning")
}

func TestRestartKeyShowsTheWaitsResult(t *testing.T) {
	dir := t.TempDir()
	serveProcs(t, dir, stack)
	d := drive(t, Options{Dir: dir}, 120, 30)
	d.untilState("ready", "web")
	d.selectProc("web")
	d.key("r")
	assert.Contains(t, d.screen(), "restarting web…")
	d.untilShows("web ready in ")
	assert.Contains(t, d.screen(), "(run 2)")
	d.until("run 2 in the list", func() bool { return strings.Fields(d.row("web"))[3] == "2" })
}

func TestStopAndStartKeys(t *testing.T) {
	dir := t.TempDir()
	serveProcs(t, dir, stack)
	d := drive(t, Options{Dir: dir}, 120, 30)
	d.untilState("ready", "web")
	d.selectProc("web")
	d.key("s")
	d.untilShows("web stopped")
	d.untilState("stopped", "web")
	d.key("S")
	d.untilShows("web ready in ")
	d.untilState("ready", "web")
}

func TestRestartAllKey(t *testing.T) {
	dir := t.TempDir()
	serveProcs(t, dir, stack)
	d := drive(t, Options{Dir: dir}, 160, 30)
	d.untilState("ready", "web", "echo")
	d.key("R")
	d.untilShows("web ready in ", "echo ready in ")
}

func TestRestartShowsAFailureWithItsLastLines(t *testing.T) {
	dir := t.TempDir()
	serveProcs(t, dir, `
procs:
  flaky:
    command: 'if [ -e again ]; then echo "boom: cannot bind" >&2; exit 3; fi; touch again; echo up; exec sleep 300'
    readyPatterns: ['^up$']
    restart: { policy: "no" }
`)
	d := drive(t, Options{Dir: dir}, 120, 30)
	d.untilState("ready", "flaky")
	d.key("r")
	d.untilShows("flaky failed (run 2)", "  | boom: cannot bind")
}

func TestSendLineKey(t *testing.T) {
	dir := t.TempDir()
	serveProcs(t, dir, stack)
	d := drive(t, Options{Dir: dir}, 120, 30)
	d.untilState("ready", "echo")
	d.selectProc("echo")
	d.key("i")
	assert.Contains(t, d.screen(), "send to echo> ")
	d.typeText("hi there")
	d.key("enter")
	d.untilShows("sent to echo: hi there", "got hi there")
}

func TestSearchKeyHighlightsMatches(t *testing.T) {
	dir := t.TempDir()
	serveProcs(t, dir, stack)
	d := drive(t, Options{Dir: dir}, 120, 30)
	d.selectProc("web")
	d.untilShows("! web: a warning")
	d.key("/")
	d.typeText("WARN")
	d.key("enter")
	assert.Contains(t, d.screen(), "/WARN: 1 match (n/N)")
	assert.Contains(t, d.m.render(), d.m.styles.current.Render("warn"), "the match is highlighted")
	d.key("esc")
	assert.NotContains(t, d.screen(), "matches")
}

func TestDownKeyAsksFirst(t *testing.T) {
	dir := t.TempDir()
	serveProcs(t, dir, stack)
	d := drive(t, Options{Dir: dir}, 120, 30)
	d.untilState("ready", "web")
	d.key("x")
	assert.Contains(t, d.screen(), "Stop every process and procs? y/n")
	d.key("n")
	assert.Contains(t, d.screen(), "down cancelled")
	d.key("x", "y")
	d.until("procs ended and the dashboard quit", func() bool { return d.quit })
}

func TestQuitLeavesProcsRunning(t *testing.T) {
	dir := t.TempDir()
	serveProcs(t, dir, stack)
	d := drive(t, Options{Dir: dir}, 120, 30)
	d.until("connected", func() bool { return d.m.connected })
	_, cmd := d.m.Update(keyMsg("q"))
	require.NotNil(t, cmd)
	assert.IsType(t, quitMsg(), cmd(), "q quits at once when procs was running before")
}

func TestQuitOwnedAsksWhetherToStop(t *testing.T) {
	dir := t.TempDir()
	serveProcs(t, dir, stack)
	d := drive(t, Options{Dir: dir, Owned: true}, 120, 30)
	d.until("connected", func() bool { return d.m.connected })
	d.key("q")
	assert.Contains(t, d.screen(), "Stop procs too?")
	d.key("esc")
	assert.NotContains(t, d.screen(), "Stop procs too?")
	d.key("ctrl+c")
	assert.Contains(t, d.screen(), "Stop procs too?")
	_, cmd := d.m.Update(keyMsg("n"))
	require.NotNil(t, cmd)
	assert.IsType(t, quitMsg(), cmd(), "n quits and leaves procs running")

	d.key("q", "y")
	d.until("procs ended and the dashboard quit", func() bool { return d.quit })
}

func TestReconnectsWhenProcsRestarts(t *testing.T) {
	dir := t.TempDir()
	stop := serveProcs(t, dir, stack)
	d := drive(t, Options{Dir: dir}, 120, 30)
	d.untilState("ready", "web")
	stop()
	d.untilShows("not connected")
	serveProcs(t, dir, `
procs:
  other:
    command: 'echo "other: up"; exec sleep 300'
    readyPatterns: ['up']
`)
	d.untilState("ready", "other")
	assert.NotContains(t, d.screen(), "not connected")
}
