package usage

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCPUPercent(t *testing.T) {
	at := time.Unix(1000, 0)
	tests := []struct {
		name      string
		prev, cur Sample
		want      float64
	}{
		{"one core busy", Sample{At: at, CPU: time.Second}, Sample{At: at.Add(2 * time.Second), CPU: 3 * time.Second}, 100},
		{"idle", Sample{At: at, CPU: time.Second}, Sample{At: at.Add(time.Second), CPU: time.Second}, 0},
		{"a quarter", Sample{At: at}, Sample{At: at.Add(time.Second), CPU: 250 * time.Millisecond}, 25},
		{"two cores", Sample{At: at}, Sample{At: at.Add(500 * time.Millisecond), CPU: time.Second}, 200},
		{"a process ended: never negative", Sample{At: at, CPU: 5 * time.Second}, Sample{At: at.Add(time.Second), CPU: time.Second}, 0},
		{"no interval", Sample{At: at}, Sample{At: at, CPU: time.Second}, 0},
		{"samples out of order", Sample{At: at.Add(time.Second)}, Sample{At: at, CPU: time.Second}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.InDelta(t, tt.want, CPUPercent(tt.prev, tt.cur), 1e-9)
		})
	}
}

// TestReadCgroupFiles reads a cgroup folder as the kernel fills it: CPU
// from cpu.stat and memory from memory.current and memory.peak.
func TestReadCgroupFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600))
	}
	write("cpu.stat", "usage_usec 2500000\nuser_usec 2000000\nsystem_usec 500000\n")
	write("memory.current", "209715200\n")
	write("memory.peak", "314572800\n")
	s, err := Read(Target{PID: os.Getpid(), Cgroup: dir})
	require.NoError(t, err)
	assert.Equal(t, 2500*time.Millisecond, s.CPU)
	assert.Equal(t, uint64(200<<20), s.Memory)
	assert.Equal(t, uint64(300<<20), s.Peak)
}

// TestReadCgroupWithoutMemory: a cgroup v2 with no memory controller (a
// system that mounts v1 for it) has cpu.stat and cgroup.procs: the memory
// is that of the processes it lists.
func TestReadCgroupWithoutMemory(t *testing.T) {
	cmd := exec.Command("sleep", "30")
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "cpu.stat"), []byte("usage_usec 1000\n"), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "cgroup.procs"), []byte(strconv.Itoa(cmd.Process.Pid)+"\n"), 0o600))
	s, err := Read(Target{PID: cmd.Process.Pid, Cgroup: dir})
	require.NoError(t, err)
	assert.Equal(t, time.Millisecond, s.CPU)
	assert.Positive(t, s.Memory, "the resident memory of sleep")
}

// TestReadTreeOfAProcess: without a cgroup the tree under the root is
// added up, and a tree that is gone is an error.
func TestReadTreeOfAProcess(t *testing.T) {
	cmd := exec.Command("sh", "-c", "sleep 30 & wait")
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	s, err := Read(Target{PID: cmd.Process.Pid})
	require.NoError(t, err)
	assert.Positive(t, s.Memory)
	assert.GreaterOrEqual(t, s.Peak, s.Memory)
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	_, err = Read(Target{PID: cmd.Process.Pid})
	assert.Error(t, err)
}
