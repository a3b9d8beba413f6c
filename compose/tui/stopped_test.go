package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose/control"
	"github.com/procsdev/procs/compose/wire"
	"github.com/procsdev/procs/rules"
)

// runningList is a procs of two running processes with pids, ports and
// usage, as the list gives them.
func runningList(started time.Time) []wire.ProcStatus {
	cpu := 12.5
	usage := wire.Usage{CPUPercent: &cpu, MemoryBytes: 40 << 20}
	return []wire.ProcStatus{
		{Name: "web", State: rules.StateReady, Run: 1, PID: 4242, Ports: []int{3000}, StartedAt: &started, Usage: usage},
		{Name: "worker", State: rules.StateReady, Run: 1, PID: 4343, Ports: []int{}, StartedAt: &started, Usage: usage},
	}
}

// cells are the cells of name's row from STATE to UPTIME.
func cells(t *testing.T, m *Model, name string) []string {
	t.Helper()
	f := strings.Fields(strings.TrimPrefix(lineOf(plain(m), name), ">"))
	require.GreaterOrEqual(t, len(f), 8, "the row of %s", name)
	return f[1:8]
}

func stoppedEvent(name string, run int, at time.Time) eventMsg {
	return eventMsg{Type: wire.EventState, Proc: name, Run: run, From: rules.StateStopping, To: rules.StateStopped,
		Reason: rules.ReasonStopped, Message: "stopped on request (killed by SIGTERM)", Time: at}
}

func TestStoppedProcessShowsNoPid(t *testing.T) {
	m := New(Options{})
	started := time.Now().Add(-time.Minute)
	m.Update(connectedMsg{info: control.Info{PID: 42, StartedAt: started}, procs: runningList(started)})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	require.Equal(t, []string{"ready", "1", "4242", "12.5%", "40M", "3000", "1m00s"}, cells(t, m, "web"))

	// The events of a stop come before any list says the pid is gone, and
	// none may come after them (procs down).
	m.Update(stoppedEvent("web", 1, time.Now()))
	assert.Equal(t, []string{"stopped", "1", "-", "-", "-", "-", "-"}, cells(t, m, "web"))
	// Waiting to be restarted, a process runs nothing either.
	m.Update(eventMsg{Type: wire.EventState, Proc: "worker", Run: 1, From: rules.StateFailed, To: rules.StateBackoff,
		Reason: rules.ReasonRestart, Message: "restarting in 1s", Time: time.Now()})
	assert.Equal(t, []string{"backoff", "1", "-", "-", "-", "-", "-"}, cells(t, m, "worker"))
}

func TestListReadBeforeAStopDoesNotBringThePidBack(t *testing.T) {
	m := New(Options{})
	started := time.Now().Add(-time.Minute)
	m.Update(connectedMsg{info: control.Info{PID: 42, StartedAt: started}, procs: runningList(started)})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	// A read of the list is in flight when worker stops: procs answered it
	// before it stopped, and the answer comes after the event.
	m.listing = true
	m.Update(stoppedEvent("worker", 1, time.Now()))
	m.Update(listMsg{procs: runningList(started)})
	assert.Equal(t, []string{"stopped", "1", "-", "-", "-", "-", "-"}, cells(t, m, "worker"))
	assert.Equal(t, "4242", cells(t, m, "web")[2], "a process the events left alone keeps what the list says")
}

func TestEndedProcsLeavesNoPid(t *testing.T) {
	for _, err := range []error{errProcsEnded, control.ErrNotRunning} {
		m := New(Options{})
		started := time.Now().Add(-time.Minute)
		m.Update(connectedMsg{info: control.Info{PID: 42, StartedAt: started}, procs: runningList(started)})
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
		// procs down: procs ended before the event of worker's end reached
		// the dashboard; procs stops every process before it ends.
		m.Update(stoppedEvent("web", 1, time.Now()))
		m.Update(eventMsg{Type: wire.EventState, Proc: "worker", Run: 1, From: rules.StateReady, To: rules.StateStopping,
			Reason: rules.ReasonStopped, Message: "stopping", Time: time.Now()})
		m.Update(disconnectedMsg{err: err})
		assert.Equal(t, []string{"stopping", "1", "-", "-", "-", "-", "-"}, cells(t, m, "worker"), "%v", err)
	}
}
