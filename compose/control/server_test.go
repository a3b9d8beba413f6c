package control

import (
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose"
	"github.com/procsdev/procs/rules"
)

const twoServices = `
procs:
  web:
    command: echo starting; echo ready; while read line; do echo "got $line"; done; sleep 300
    readyPatterns: [ready]
  api:
    command: echo ready; sleep 300
    readyPatterns: [ready]
    dependsOn:
      web: { condition: ready, restart: true }
`

func TestListAndGet(t *testing.T) {
	h := startHarness(t, twoServices)
	h.waitReady(t, "web", "api")
	list, err := h.client.List(testCtx(t))
	require.NoError(t, err)
	require.Len(t, list, 2)
	assert.Equal(t, "web", list[0].Name)
	assert.Equal(t, rules.StateReady, list[0].State)
	st, err := h.client.Get(testCtx(t), "api")
	require.NoError(t, err)
	assert.Equal(t, 1, st.Run)
	assert.NotZero(t, st.PID)
}

func TestRestartWaitsForTheNewRunAndRestartsDependents(t *testing.T) {
	h := startHarness(t, twoServices)
	h.waitReady(t, "web", "api")
	res, err := h.client.Restart(testCtx(t), "web", ActionOptions{})
	require.NoError(t, err)
	require.True(t, res.Success, res.Message)
	assert.Equal(t, 2, res.Run)
	assert.Equal(t, rules.StateReady, res.State)
	// api declares restart: true on web, so it follows with run 2.
	dep, err := h.client.Wait(testCtx(t), "api", WaitOptions{Run: 2, Timeout: testDeadline})
	require.NoError(t, err)
	assert.True(t, dep.Success, dep.Message)
	assert.Equal(t, 2, dep.Run)
}

func TestRestartReportsAFailingNewRun(t *testing.T) {
	h := startHarness(t, `
procs:
  flaky:
    command: if [ -e marker ]; then echo boom; exit 1; fi; touch marker; echo ready; sleep 300
    readyPatterns: [ready]
    errorPatterns: [boom]
`)
	h.waitReady(t, "flaky")
	res, err := h.client.Restart(testCtx(t), "flaky", ActionOptions{})
	require.NoError(t, err)
	assert.False(t, res.Success, "the first run's readiness must not count for the second")
	assert.Equal(t, 2, res.Run)
	assert.Equal(t, rules.StateFailed, res.State)
	assert.Contains(t, res.Message, "boom")
	assert.Equal(t, []string{"boom"}, res.Logs, "the last lines are the new run's only")
}

func TestRestartNoWait(t *testing.T) {
	h := startHarness(t, twoServices)
	h.waitReady(t, "web")
	res, err := h.client.Restart(testCtx(t), "web", ActionOptions{NoWait: true})
	require.NoError(t, err)
	assert.Equal(t, 2, res.Run)
	assert.Contains(t, res.Message, "restart requested")
	res, err = h.client.Wait(testCtx(t), "web", WaitOptions{Run: 2})
	require.NoError(t, err)
	assert.True(t, res.Success, res.Message)
}

func TestStopAndStart(t *testing.T) {
	h := startHarness(t, twoServices)
	h.waitReady(t, "web", "api")
	res, err := h.client.Stop(testCtx(t), "api", ActionOptions{})
	require.NoError(t, err)
	require.True(t, res.Success, res.Message)
	assert.Equal(t, rules.StateStopped, res.State)
	res, err = h.client.Start(testCtx(t), "api", ActionOptions{})
	require.NoError(t, err)
	require.True(t, res.Success, res.Message)
	assert.Equal(t, 2, res.Run)
	st, err := h.client.Get(testCtx(t), "web")
	require.NoError(t, err)
	assert.Equal(t, 1, st.Run, "stopping and starting api must not touch web")
}

func TestInputReachesTheProcess(t *testing.T) {
	h := startHarness(t, twoServices)
	h.waitReady(t, "web")
	require.NoError(t, h.client.Input(testCtx(t), "web", "hello", true))
	h.expectLine(t, "web", "got hello")
}

// expectLine follows the logs of name until a line equals want.
func (h *harness) expectLine(t *testing.T, name, want string) {
	t.Helper()
	tail := -1
	errFound := errors.New("found")
	err := h.client.Logs(testCtx(t), LogsOptions{Procs: []string{name}, Tail: &tail, Follow: true}, func(l LogLine) error {
		if l.Line == want {
			return errFound
		}
		return nil
	})
	require.ErrorIs(t, err, errFound, "no line %q from %s", want, name)
}

func TestLogsTail(t *testing.T) {
	h := startHarness(t, `
procs:
  counter:
    command: for i in 1 2 3 4 5; do echo line$i; done; echo ready; sleep 300
    readyPatterns: [ready]
`)
	h.waitReady(t, "counter")
	tail := 2
	var got []string
	require.NoError(t, h.client.Logs(testCtx(t), LogsOptions{Procs: []string{"counter"}, Tail: &tail}, func(l LogLine) error {
		got = append(got, l.Line)
		assert.Equal(t, "counter", l.Proc)
		assert.Equal(t, "stdout", l.Stream)
		return nil
	}))
	assert.Equal(t, []string{"line5", "ready"}, got)

	status, body := h.raw(t, http.MethodGet, "/v1/procs/counter/logs?tail=1&format=text", "", nil)
	assert.Equal(t, http.StatusOK, status)
	assert.Equal(t, "ready", body)
	status, body = h.raw(t, http.MethodGet, "/v1/procs/counter/logs?since=1h&tail=all", "", nil)
	assert.Equal(t, http.StatusOK, status)
	assert.Equal(t, 6, strings.Count(body, "\n")+1)
}

func TestLogsFollowSeesNewLinesOnce(t *testing.T) {
	h := startHarness(t, twoServices)
	h.waitReady(t, "web")
	tail := -1
	var got []string
	errDone := errors.New("done")
	err := h.client.Logs(testCtx(t), LogsOptions{Procs: []string{"web"}, Tail: &tail, Follow: true}, func(l LogLine) error {
		got = append(got, l.Line)
		if l.Line == "ready" {
			return h.client.Input(testCtx(t), "web", "one", true)
		}
		if l.Line == "got one" {
			return errDone
		}
		return nil
	})
	require.ErrorIs(t, err, errDone)
	assert.Equal(t, []string{"starting", "ready", "got one"}, got)
}

func TestBadRequests(t *testing.T) {
	h := startHarness(t, twoServices)
	h.waitReady(t, "web")
	big := `{"text":"` + strings.Repeat("x", maxBodyBytes+1) + `"}`
	cases := []struct {
		name, method, path, body string
		status                   int
		contains                 string
	}{
		{"unknown get", "GET", "/v1/procs/nope", "", 404, "unknown process"},
		{"unknown restart", "POST", "/v1/procs/nope/restart", "", 404, "unknown process"},
		{"unknown stop", "POST", "/v1/procs/nope/stop?wait=false", "", 404, "unknown process"},
		{"unknown logs", "GET", "/v1/procs/nope/logs", "", 404, "unknown process"},
		{"unknown input", "POST", "/v1/procs/nope/input", `{"text":"x"}`, 404, "unknown process"},
		{"unknown in filter", "GET", "/v1/events?proc=web,nope", "", 404, "unknown process"},
		{"bad json", "POST", "/v1/procs/web/input", `{"text":`, 400, "bad JSON"},
		{"wrong field type", "POST", "/v1/procs/web/input", `{"text":1}`, 400, "bad JSON"},
		{"unknown field", "POST", "/v1/procs/web/input", `{"txt":"x"}`, 400, "bad JSON"},
		{"oversized body", "POST", "/v1/procs/web/input", big, 413, "larger than"},
		{"bad timeout", "POST", "/v1/procs/web/restart?timeout=soon", "", 400, "duration"},
		{"bad wait", "POST", "/v1/procs/web/restart?wait=maybe", "", 400, "true or false"},
		{"bad state", "GET", "/v1/procs/web/wait?for=sleepy", "", 400, `unknown state \"sleepy\": one of pending, blocked, starting, ready,`},
		{"service never completes", "GET", "/v1/procs/web/wait?for=completed", "", 400, "web is a service, and a service never completes"},
		{"bad tail", "GET", "/v1/procs/web/logs?tail=many", "", 400, "tail"},
		{"bad since", "GET", "/v1/procs/web/logs?since=yesterday", "", 400, "since"},
		{"bad event id", "GET", "/v1/events?after=x", "", 400, "sequence"},
		{"no endpoint", "GET", "/v2/nothing", "", 404, "no endpoint"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			status, body := h.raw(t, tc.method, tc.path, "application/json", strings.NewReader(tc.body))
			assert.Equal(t, tc.status, status, body)
			assert.True(t, strings.HasPrefix(body, `{"error":`), "not a JSON error: %.200s", body)
			assert.Contains(t, body, tc.contains)
		})
	}
	// Nothing above disturbed web.
	st, err := h.client.Get(testCtx(t), "web")
	require.NoError(t, err)
	assert.Equal(t, 1, st.Run)
	assert.Equal(t, rules.StateReady, st.State)
}

func TestClientErrorsMapToSentinels(t *testing.T) {
	h := startHarness(t, twoServices)
	_, err := h.client.Restart(testCtx(t), "nope", ActionOptions{})
	require.ErrorIs(t, err, compose.ErrUnknownProcess)
	var apiErr *APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusNotFound, apiErr.Status)
	assert.Contains(t, fmt.Sprint(err), `"nope"`)
	// The known names travel as a list, for a client to show or complete.
	assert.ElementsMatch(t, []string{"api", "web"}, apiErr.Known)
	assert.Contains(t, fmt.Sprint(err), "(known: ", "not Go's [a b]")
	assert.NotContains(t, fmt.Sprint(err), "[")
}

// TestLogsSayWhereTheOlderLinesAre: procs keeps the last lines of each
// process in memory (1000 by default); asked for more, the logs say how
// many older lines there are, and in which file, rather than passing what
// memory holds for all.
func TestLogsSayWhereTheOlderLinesAre(t *testing.T) {
	h := startHarness(t, `
procs:
  counter:
    command: seq 1 1499; echo ready; sleep 300
    readyPatterns: [ready]
`)
	h.waitReady(t, "counter")
	for _, tail := range []int{-1, 1200} {
		var got []LogLine
		require.NoError(t, h.client.Logs(testCtx(t), LogsOptions{Procs: []string{"counter"}, Tail: &tail}, func(l LogLine) error {
			got = append(got, l)
			return nil
		}))
		require.Equal(t, 1001, len(got), "tail %d: the note, then the 1000 lines kept", tail)
		assert.Equal(t, procsStream, got[0].Stream)
		assert.Equal(t, "500 older lines are not kept in memory: see "+h.engine.LogPath("counter"), got[0].Line,
			"a log folder outside the project is named in full")
		assert.Equal(t, "501", got[1].Line)
		assert.Equal(t, "ready", got[1000].Line)
	}
	tail := 10
	var got []string
	require.NoError(t, h.client.Logs(testCtx(t), LogsOptions{Procs: []string{"counter"}, Tail: &tail}, func(l LogLine) error {
		got = append(got, l.Line)
		return nil
	}))
	assert.Len(t, got, 10, "no note when memory holds what was asked for")
}

// Keys are sent by name and written as the process reads them: Enter on
// a pipe is a newline (a terminal's \r never ends a line there), and a
// key that only a terminal gives a meaning (Ctrl-C, Ctrl-D, Esc) is
// refused for a process without one, saying what to do instead: written
// as bytes, it was "sent" and did nothing.
func TestKeysToAPipe(t *testing.T) {
	h := startHarness(t, twoServices)
	h.waitReady(t, "web")
	require.NoError(t, h.client.Send(testCtx(t), "web", InputRequest{Text: "hello", Keys: []string{"enter"}}))
	h.expectLine(t, "web", "got hello")

	err := h.client.Send(testCtx(t), "web", InputRequest{Keys: []string{"ctrl-c"}})
	var apiErr *APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusBadRequest, apiErr.Status)
	assert.Equal(t, "ctrl-c means something only to a program in a terminal, and web reads a pipe: `procs stop web` or `procs restart web` ends it; set pty: true to run it in a terminal", apiErr.Message)
	err = h.client.Send(testCtx(t), "web", InputRequest{Keys: []string{"nope"}})
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusBadRequest, apiErr.Status)
	assert.Contains(t, apiErr.Message, `unknown key "nope"`)
}

// procs start of a process that runs, unhealthy, answers at once with
// what is wrong, and names a dependency that is not there: waiting for it
// to be ready only timed out after a minute, saying nothing of why.
func TestStartOfAnUnhealthyProcessAnswersAtOnce(t *testing.T) {
	h := startHarness(t, `
procs:
  db:
    command: echo ready; sleep 300
    readyPatterns: [ready]
  api:
    command: echo ready; while [ ! -e db-gone ]; do sleep 0.05; done; echo "ERROR lost db"; sleep 300
    readyPatterns: [ready]
    errorPatterns: [ERROR]
    dependsOn: [db]
`)
	h.waitReady(t, "db", "api")
	_, err := h.client.Stop(testCtx(t), "db", ActionOptions{})
	require.NoError(t, err)
	st, err := h.client.Get(testCtx(t), "api")
	require.NoError(t, err)
	require.Equal(t, rules.StateReady, st.State, "procs stop db stops db alone")
	require.NoError(t, os.WriteFile(filepath.Join(h.dir, "db-gone"), nil, 0o644))
	_, err = h.client.Wait(testCtx(t), "api", WaitOptions{For: []rules.State{rules.StateUnhealthy}})
	require.NoError(t, err)

	res, err := h.client.Start(testCtx(t), "api", ActionOptions{Timeout: time.Minute})
	require.NoError(t, err)
	assert.False(t, res.Success)
	assert.Equal(t, rules.StateUnhealthy, res.State)
	assert.Contains(t, res.Message, `already running, unhealthy: error line "ERROR lost db"`)
	assert.Contains(t, res.Message, "its dependency db is stopped")
	assert.Less(t, res.DurationMs, int64(10_000), "answered at once, not at the timeout")
}
