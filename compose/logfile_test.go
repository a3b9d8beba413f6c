package compose

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/internal/testenv"
	"github.com/procsdev/procs/rules"
)

// TestLogFileHoldsTheBytesWritten: a 64 MiB line and a line redrawn with a
// bare carriage return reach the log file byte for byte; splitting and
// redraw handling are for display and detection only.
func TestLogFileHoldsTheBytesWritten(t *testing.T) {
	te := startEngine(t, `
procs:
  raw:
    kind: task
    command: [python3, -c, "import sys\nsys.stdout.buffer.write(b'x' * (64 << 20) + b'\\n' + b'cr\\rCR over\\n' + b'no newline at the end')"]
`, Options{NoWatchdog: true, LogLimit: 1 << 30})
	te.limit = 3 * time.Minute // 64 MiB through a pipe under the race detector, on a shared machine
	te.waitState("raw", rules.StateCompleted)

	data, err := os.ReadFile(filepath.Join(te.dir, ".procs", "logs", "raw.log"))
	require.NoError(t, err)
	want := append(bytes.Repeat([]byte("x"), 64<<20), "\ncr\rCR over\nno newline at the end\n"...)
	require.Equal(t, len(want), len(data), "log size")
	assert.True(t, bytes.Equal(want, data), "the log differs from what the process wrote")
}

// TestLogFilesArePrivate: the state folder and the log folder are 0700 and
// logs 0600, also where an older procs left them readable by others.
func TestLogFilesArePrivate(t *testing.T) {
	state := filepath.Join(t.TempDir(), ".procs")
	logs := filepath.Join(state, "logs")
	require.NoError(t, os.MkdirAll(logs, 0o755))
	require.NoError(t, os.Chmod(state, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(logs, "old.log"), []byte("before\n"), 0o644))
	te := startEngine(t, `
procs:
  secret:
    kind: task
    command: [echo, "token=hunter2"]
  old:
    kind: task
    command: [echo, "dsn=postgres://u:p@h/db"]
`, Options{NoWatchdog: true, LogDir: logs})
	te.waitOutcome()
	for path, want := range map[string]os.FileMode{
		state:                             0o700,
		logs:                              0o700,
		filepath.Join(logs, "secret.log"): 0o600,
		filepath.Join(logs, "old.log"):    0o600,
	} {
		info, err := os.Stat(path)
		require.NoError(t, err)
		assert.Equal(t, want, info.Mode().Perm(), path)
	}
}

// TestSilentProcessLeavesAnEmptyLog: a run opens its log when it starts,
// not at its first output, so `procs logs` finds the log of a process that
// printed nothing; a process that never started has none.
func TestSilentProcessLeavesAnEmptyLog(t *testing.T) {
	logs := t.TempDir()
	te := startEngine(t, `
procs:
  quiet:
    kind: task
    command: [sh, -c, "exit 0"]
  never:
    command: [sh, -c, "echo hello"]
    disabled: true
`, Options{NoWatchdog: true, LogDir: logs})
	te.waitState("quiet", rules.StateCompleted)
	info, err := os.Stat(filepath.Join(logs, "quiet.log"))
	require.NoError(t, err, "the log of a process that printed nothing")
	assert.Zero(t, info.Size())
	assert.Equal(t, os.FileMode(logFilePerm), info.Mode().Perm())
	_, err = os.Stat(filepath.Join(logs, "never.log"))
	assert.ErrorIs(t, err, os.ErrNotExist, "a process that never started has no log")
}

// TestARunClosesItsLogWhenItEnds: the run that opened its log closes it
// as it ends, while procs goes on (a shutdown used to end on two hundred
// closes, one after another); the next run of the process opens it again.
func TestARunClosesItsLogWhenItEnds(t *testing.T) {
	logs := t.TempDir()
	te := startEngine(t, `
procs:
  once:
    kind: task
    command: [sh, -c, "echo ran"]
  server:
    command: [sh, -c, "echo up; exec sleep 60"]
    readyPatterns: [up]
    dependsOn: {once: completed}
`, Options{NoWatchdog: true, LogDir: logs, StayUp: true})
	te.waitRunState("once", 1, rules.StateCompleted)
	te.waitState("server", rules.StateReady)
	open := testenv.OpenFiles(t)
	assert.Contains(t, open, filepath.Join(logs, "server.log"), "the log of a run that goes on")
	assert.NotContains(t, open, filepath.Join(logs, "once.log"), "the log of a run that ended")

	_, err := te.Restart("once")
	require.NoError(t, err)
	te.waitRunState("once", 2, rules.StateCompleted)
	assert.NotContains(t, testenv.OpenFiles(t), filepath.Join(logs, "once.log"))
	data, err := os.ReadFile(filepath.Join(logs, "once.log"))
	require.NoError(t, err)
	assert.Equal(t, 2, strings.Count(string(data), "ran\n"), "both runs are in the log:\n%s", data)
}

// openedLogFile returns the open log of name in dir, as a run has it.
func openedLogFile(dir, name string) (*logFile, error) {
	if err := privateDir(dir); err != nil {
		return nil, err
	}
	l := newLogFile(dir, name, defaultLogLimit, 1)
	return l, l.open()
}

// TestLogSurvivesAFullDisk puts the logs on a 1 MiB filesystem that is full:
// the write error is reported (event and status), the process goes on, the
// lost bytes are counted, and the log is written again once space is freed.
func TestLogSurvivesAFullDisk(t *testing.T) {
	logs := t.TempDir()
	mountSmallFS(t, logs)
	filler := filepath.Join(logs, "filler")
	fillDisk(t, filler)

	te := startEngine(t, `
procs:
  ticker:
    command: [sh, -c, "i=0; while true; do i=$((i+1)); echo tick-$i; sleep 0.05; done"]
    readyPatterns: [tick-1]
`, Options{NoWatchdog: true, LogDir: logs})
	failed := te.waitFor("log failure event", func(ev Event) bool {
		return ev.Type == EventInfo && ev.Proc == "ticker" && ev.Reason == rules.ReasonLogFailed
	})
	assert.Contains(t, failed.Message, "no space left on device")
	st, err := te.StatusOf("ticker")
	require.NoError(t, err)
	assert.True(t, st.State == rules.StateReady || st.State == rules.StateStarting, "the process goes on: %s", st.State)
	require.NotNil(t, st.Log)
	assert.Contains(t, st.Log.Error, "no space left on device")

	require.NoError(t, os.Remove(filler))
	resumed := te.waitFor("log resumed event", func(ev Event) bool {
		return ev.Type == EventInfo && ev.Proc == "ticker" && ev.Reason == rules.ReasonLogResumed
	})
	assert.Contains(t, resumed.Message, "bytes of output could not be written")
	st, err = te.StatusOf("ticker")
	require.NoError(t, err)
	require.NotNil(t, st.Log)
	assert.Empty(t, st.Log.Error)
	assert.Positive(t, st.Log.Lost)
	assert.Eventually(t, func() bool {
		data, _ := os.ReadFile(filepath.Join(logs, "ticker.log"))
		return strings.Contains(string(data), "tick-")
	}, waitLimit, 20*time.Millisecond, "lines logged after the disk was freed")
}

// fillDisk writes to path until the filesystem is full.
func fillDisk(t *testing.T, path string) {
	t.Helper()
	f, err := os.Create(path)
	require.NoError(t, err)
	defer f.Close()
	block := make([]byte, 4096)
	for {
		if _, err := f.Write(block); err != nil {
			require.True(t, errors.Is(err, syscall.ENOSPC), "filling the disk: %v", err)
			return
		}
	}
}

// A log that is a symbolic link (planted in .procs/logs) is not followed:
// the file it points at is neither appended to nor made private, and the
// log's health says why it is not written.
func TestLogFileRefusesASymbolicLink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "bashrc")
	require.NoError(t, os.WriteFile(target, []byte("export A=1\n"), 0o644))
	logs := filepath.Join(dir, "logs")
	require.NoError(t, os.MkdirAll(logs, 0o700))
	require.NoError(t, os.Symlink(target, filepath.Join(logs, "web.log")))

	l := newLogFile(logs, "web", 0, 0)
	l.openForRun(1)
	l.Write([]byte("token=hunter2\n"))
	require.NoError(t, l.Close())

	data, err := os.ReadFile(target)
	require.NoError(t, err)
	assert.Equal(t, "export A=1\n", string(data))
	info, err := os.Stat(target)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o644), info.Mode().Perm())
	assert.Contains(t, l.health().Error, "is a symbolic link")
}
