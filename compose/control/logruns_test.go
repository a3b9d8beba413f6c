package control

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose/wire"
	"github.com/procsdev/procs/rules"
)

// TestLogHistoryGivesLinesTheirRun: a line belongs to the last run that
// started before it; a run that goes back to starting (a rebuild) is not
// a new run, and a line older than every start kept has no run.
func TestLogHistoryGivesLinesTheirRun(t *testing.T) {
	t0 := time.Now()
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	h := newLogHistory([]wire.Event{
		{Type: wire.EventState, Proc: "web", Run: 1, To: rules.StateStarting, Time: at(10)},
		{Type: wire.EventState, Proc: "api", Run: 3, To: rules.StateStarting, Time: at(15)},
		{Type: wire.EventState, Proc: "web", Run: 1, To: rules.StateReady, Time: at(20)},
		{Type: wire.EventState, Proc: "web", Run: 1, To: rules.StateStarting, Time: at(30)},
		{Type: wire.EventInfo, Proc: "web", Run: 1, Reason: rules.ReasonLogResumed, Message: "2 lines lost (x)", Time: at(35)},
		{Type: wire.EventState, Proc: "web", Run: 2, To: rules.StateStarting, Time: at(40)},
	})
	assert.Equal(t, 0, h.runAt("web", at(5)), "before every start kept")
	assert.Equal(t, 1, h.runAt("web", at(10)))
	assert.Equal(t, 1, h.runAt("web", at(39)))
	assert.Equal(t, 2, h.runAt("web", at(41)))
	assert.Equal(t, 3, h.runAt("api", at(41)))
	assert.Equal(t, 0, h.runAt("db", at(41)))
	assert.Len(t, h.starts["web"], 2, "run 1 starting again is not a new run")

	notes := h.notesSince("web", at(30))
	require.Len(t, notes, 1)
	assert.Equal(t, LogLine{Proc: "web", Run: 1, Time: at(35), Stream: procsStream, Line: "2 lines lost (x)"}, notes[0])
	assert.Empty(t, h.notesSince("web", at(36)), "a tail that begins after it")
}

// TestLogsCarryRunsAndLossNotes: lines from the ring carry their run, and
// the note of a log file that lost lines comes among them, in time order,
// as stream "procs".
func TestLogsCarryRunsAndLossNotes(t *testing.T) {
	h := startHarness(t, `
procs:
  web:
    command: [sh, -c, "echo up; exec sleep 300"]
    readyPatterns: ["^up$"]
`)
	h.waitReady(t, "web")
	h.engine.Bus().Publish(wire.Event{Type: wire.EventInfo, Proc: "web", Run: 1, Reason: rules.ReasonLogResumed,
		Message: "3 lines lost (write web.log: no space left on device): 30 bytes of output could not be written; its log is written again"})
	var got []LogLine
	all := -1
	require.NoError(t, h.client.Logs(testCtx(t), LogsOptions{Procs: []string{"web"}, Tail: &all}, func(l LogLine) error {
		got = append(got, l)
		return nil
	}))
	require.Len(t, got, 2)
	assert.Equal(t, "up", got[0].Line)
	assert.Equal(t, 1, got[0].Run)
	assert.Equal(t, procsStream, got[1].Stream)
	assert.Equal(t, "web", got[1].Proc)
	assert.Contains(t, got[1].Line, "3 lines lost (write web.log: no space left on device)")
}
