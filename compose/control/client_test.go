package control

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/internal/testenv"
	"github.com/procsdev/procs/rules"
)

const neverReady = `
procs:
  a:
    command: sleep 300
    readyPatterns: ['never printed']
  b:
    command: sleep 300
    readyPatterns: ['never printed']
  c:
    command: sleep 300
    readyPatterns: ['never printed']
`

// TestWaitAllTimeoutRaceNeverHangs ends the caller's context just as the
// server's waits time out, 200 times: each WaitAll must return.
func TestWaitAllTimeoutRaceNeverHangs(t *testing.T) {
	h := startHarness(t, neverReady)
	const timeout = 20 * time.Millisecond
	for i := range 200 {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		returned := make(chan error, 1)
		go func() {
			returned <- h.client.WaitAll(ctx, timeout, func(int, rules.Result) bool { return true })
		}()
		select {
		case <-returned:
		case <-time.After(testDeadline):
			t.Fatalf("run %d: WaitAll still waiting %v after its deadline", i, testDeadline)
		}
		cancel()
	}
}

// cause is the error a caller cancels its context with (a signal, say).
var errCallerGone = errors.New("caller interrupted")

func TestWaitAllEndsWithTheCallersCause(t *testing.T) {
	h := startHarness(t, neverReady)
	ctx, cancel := context.WithCancelCause(context.Background())
	returned := make(chan error, 1)
	go func() {
		returned <- h.client.WaitAll(ctx, time.Hour, func(int, rules.Result) bool { return true })
	}()
	cancel(errCallerGone)
	select {
	case err := <-returned:
		require.ErrorIs(t, err, errCallerGone)
	case <-time.After(testDeadline):
		t.Fatal("WaitAll ignored its context")
	}
}

// silentProcs is a real socket in a project folder that answers the first
// `answered` requests and then, like a SIGSTOPped procs, none.
type silentProcs struct {
	dir      string
	answered atomic.Int64
	silent   chan struct{}
}

func startSilentProcs(t *testing.T, answered int64) *silentProcs {
	t.Helper()
	return startSilentProcsAs(t, answered, 4242)
}

// startSilentProcsAs is startSilentProcs with pid in the pid file.
func startSilentProcsAs(t *testing.T, answered int64, pid int) *silentProcs {
	t.Helper()
	short(t)
	sp := &silentProcs{dir: t.TempDir(), silent: make(chan struct{})}
	require.NoError(t, os.MkdirAll(filepath.Join(sp.dir, stateDir), 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(sp.dir, stateDir, pidFileName), []byte(strconv.Itoa(pid)+"\n"), 0o600))
	ln, err := net.Listen("unix", filepath.Join(sp.dir, stateDir, socketName))
	require.NoError(t, err)
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if sp.answered.Add(1) > answered {
			select {
			case <-sp.silent:
			case <-r.Context().Done():
			}
			return
		}
		writeJSON(w, http.StatusOK, Info{PID: pid})
	})}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { close(sp.silent); _ = srv.Close() })
	return sp
}

// short makes the liveness checks quick for a test.
func short(t *testing.T) {
	answer, interval := answerTimeout, pingInterval
	answerTimeout, pingInterval = 300*time.Millisecond, 200*time.Millisecond
	t.Cleanup(func() { answerTimeout, pingInterval = answer, interval })
}

func TestDialSaysAStoppedProcsIsNotAnswering(t *testing.T) {
	sp := startSilentProcs(t, 0)
	_, err := DialContext(testCtx(t), sp.dir)
	var silent *NotAnsweringError
	require.ErrorAs(t, err, &silent)
	assert.Equal(t, 4242, silent.PID)
	assert.Contains(t, err.Error(), "procs (pid 4242) is not answering (stopped?)")
}

// TestARunningProcsThatDoesNotAnswerIsNotCalledStopped: a procs that runs
// (here the test itself) but does not answer, out of descriptors say, is
// not told to be resumed with kill -CONT.
func TestARunningProcsThatDoesNotAnswerIsNotCalledStopped(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("the state of a process is read from /proc")
	}
	pid := os.Getpid()
	sp := startSilentProcsAs(t, 0, pid)
	_, err := DialContext(testCtx(t), sp.dir)
	var silent *NotAnsweringError
	require.ErrorAs(t, err, &silent)
	assert.NotContains(t, err.Error(), "stopped?")
	assert.Contains(t, err.Error(), fmt.Sprintf("procs (pid %d) runs but is not answering", pid))
	assert.Contains(t, err.Error(), "file descriptors")
}

func TestEveryRequestSaysWhenProcsStopsAnswering(t *testing.T) {
	requests := map[string]func(c *Client, ctx context.Context) error{
		"status": func(c *Client, ctx context.Context) error { _, err := c.List(ctx); return err },
		"wait": func(c *Client, ctx context.Context) error {
			_, err := c.Wait(ctx, "web", WaitOptions{Timeout: time.Hour})
			return err
		},
		"logs -f": func(c *Client, ctx context.Context) error {
			return c.Logs(ctx, LogsOptions{Follow: true}, func(LogLine) error { return nil })
		},
		"down": func(c *Client, ctx context.Context) error { return c.DownAndWait(ctx) },
	}
	for name, request := range requests {
		t.Run(name, func(t *testing.T) {
			sp := startSilentProcs(t, 1) // the ping of Dial
			c, err := DialContext(testCtx(t), sp.dir)
			require.NoError(t, err)
			defer c.Close()
			err = request(c, testCtx(t))
			require.ErrorIs(t, err, ErrNotAnswering)
			assert.Contains(t, err.Error(), "pid 4242")
		})
	}
}

func TestAnotherUsersProcsIsPermissionDenied(t *testing.T) {
	testenv.Need(t, "root (to give the runtime files to another user)", os.Getuid() == 0)
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, stateDir), 0o755))
	ln, err := net.Listen("unix", filepath.Join(dir, stateDir, socketName))
	require.NoError(t, err)
	// Another user's procs: its listener closes the connections of others.
	other := 65534
	pl := &peerListener{Listener: ln, uid: other}
	go func() { _ = http.Serve(pl, http.NotFoundHandler()) }()
	defer pl.Close()
	for _, path := range []string{filepath.Join(dir, stateDir), filepath.Join(dir, stateDir, socketName)} {
		require.NoError(t, os.Chown(path, other, other))
	}
	_, err = DialContext(testCtx(t), dir)
	require.ErrorIs(t, err, ErrPermission)
	assert.NotErrorIs(t, err, ErrNotRunning)
	assert.Contains(t, err.Error(), "uid "+strconv.Itoa(other))
}
