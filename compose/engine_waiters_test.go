package compose

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose/lifecycle"
	"github.com/procsdev/procs/rules"
)

// A wait given up (timeout, Ctrl-C of the client) in the same turn of the
// loop in which a reload removes its process must answer, not take the
// engine down: the process is gone when the given-up wait asks for its
// result.
func TestGivenUpWaitOfARemovedProcessAnswers(t *testing.T) {
	te := startEngine(t, `
procs:
  a: {command: "sleep 60", readyPatterns: [never]}
  b: {command: "sleep 60", dependsOn: [a]}
`, Options{})
	te.waitState("a", rules.StateStarting)
	next := te.reload(`
procs:
  a: {command: "sleep 60", readyPatterns: [never]}
`)
	order, err := next.StartOrder()
	require.NoError(t, err)

	ctx, giveUp := context.WithCancel(context.Background())
	type answer struct {
		res rules.Result
		err error
	}
	answered := make(chan answer, 1)
	go func() {
		res, err := te.Wait(ctx, "b", []rules.State{rules.StateReady}, 1)
		answered <- answer{res, err}
	}()
	require.Eventually(t, func() bool { return te.waitersOf("b") == 1 }, waitLimit, time.Millisecond)

	// Hold the loop: give the wait up, take its request for a result off
	// the queue, remove b, and only then let that request run.
	require.NoError(t, te.do(func() {
		giveUp()
		request := <-te.requests
		_, err := te.apply(next, order, lifecycle.Up{}, readDefinitions(next, true))
		assert.NoError(t, err)
		request()
	}))

	select {
	case a := <-answered:
		assert.False(t, a.res.Success)
		assert.Contains(t, a.res.Message+errText(a.err), "removed")
	case <-time.After(waitLimit):
		t.Fatal("the wait did not answer")
	}
	list, err := te.Status()
	require.NoError(t, err, "the engine must outlive the wait")
	require.Len(t, list, 1)
}

// waitersOf counts the waits on name, on the engine loop.
func (te *testEngine) waitersOf(name string) int {
	n := 0
	_ = te.do(func() { n = te.life.Waiting(name) })
	return n
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
