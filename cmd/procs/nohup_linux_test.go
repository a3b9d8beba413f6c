package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ignoresHangup says whether a SigIgn line of /proc/PID/status has SIGHUP
// in its mask.
func ignoresHangup(t *testing.T, line string) bool {
	t.Helper()
	mask, err := strconv.ParseUint(strings.TrimSpace(line[strings.Index(line, "SigIgn:")+len("SigIgn:"):]), 16, 64)
	require.NoError(t, err, line)
	return mask&(1<<(syscall.SIGHUP-1)) != 0
}

// procStatusLine returns the line of /proc/pid/status that starts with key.
func procStatusLine(t *testing.T, pid int, key string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	require.NoError(t, err)
	for line := range strings.Lines(string(data)) {
		if strings.HasPrefix(line, key) {
			return line
		}
	}
	t.Fatalf("no %s in the status of %d", key, pid)
	return ""
}

// `nohup procs up &` survives its terminal closing: a hangup that procs
// was started ignoring stays ignored, by procs and by what it starts (as
// under nohup itself), where asking for it would have made procs shut
// down on the terminal's SIGHUP.
func TestUpUnderNohupIgnoresTheHangup(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "procs.yaml"), []byte(`
procs:
  a:
    command: grep SigIgn /proc/self/status; sleep 300
    readyPatterns: [SigIgn]
`), 0o644))
	cmd := exec.Command("sh", "-c", "trap '' HUP; exec procs up")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "XDG_RUNTIME_DIR="+dir, "NO_COLOR=1")
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Signal(syscall.SIGTERM); _ = cmd.Wait() })
	var childLine string
	for lines := bufio.NewScanner(out); lines.Scan(); {
		if strings.Contains(lines.Text(), "SigIgn:") {
			childLine = lines.Text()
			break
		}
	}
	require.NotEmpty(t, childLine, "the process never printed its ignored signals")
	assert.True(t, ignoresHangup(t, childLine), "the process started by procs ignores SIGHUP: %s", childLine)
	assert.True(t, ignoresHangup(t, procStatusLine(t, cmd.Process.Pid, "SigIgn:")), "procs ignores SIGHUP")

	require.NoError(t, cmd.Process.Signal(syscall.SIGHUP))
	status, err := procsCommand(dir, "status").CombinedOutput()
	require.NoError(t, err, "%s", status)
	assert.Contains(t, string(status), "ready")
}
