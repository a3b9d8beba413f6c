package examples_test

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// stopLimit bounds how long the processes of an example may take to be gone
// once `procs down` has returned. Generous, for a shared machine.
const stopLimit = 30 * time.Second

// requireNothingLeft checks that no process belongs to the project in dir
// (its working folder is in it, or its environment names it, as
// XDG_RUNTIME_DIR does for everything procs starts there) and that nothing
// listens on ports.
func requireNothingLeft(t *testing.T, dir string, ports []int) {
	t.Helper()
	var left []string
	assert.Eventually(t, func() bool {
		left = processesOf(dir)
		return len(left) == 0
	}, stopLimit, 50*time.Millisecond, "processes of the example outlived procs down")
	if len(left) > 0 {
		t.Logf("left behind:\n  %s", strings.Join(left, "\n  "))
	}
	for _, port := range ports {
		assert.Eventually(t, func() bool { return portFree(port) }, stopLimit, 50*time.Millisecond,
			"port %d is still listened on: %s", port, holderOf(port))
	}
}

// processesOf lists, as "pid command", the processes whose working folder
// is in dir or whose environment mentions dir. Processes we may not inspect
// (another user's, when not root) are not seen.
func processesOf(dir string) []string {
	entries, _ := os.ReadDir("/proc")
	self := os.Getpid()
	var found []string
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self || zombie(pid) {
			continue
		}
		proc := filepath.Join("/proc", e.Name())
		cwd, _ := os.Readlink(filepath.Join(proc, "cwd"))
		environ, _ := os.ReadFile(filepath.Join(proc, "environ"))
		if cwd == dir || strings.HasPrefix(cwd, dir+"/") || bytes.Contains(environ, []byte(dir)) {
			found = append(found, fmt.Sprintf("%d %s", pid, commandLine(pid)))
		}
	}
	return found
}

// zombie reports whether pid has exited and waits only to be reaped.
func zombie(pid int) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	// The command name, in parentheses, may hold spaces: fields follow the last ')'.
	fields := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
	return len(fields) == 0 || fields[0] == "Z"
}

// commandLine reads the command line of pid from /proc.
func commandLine(pid int) string {
	data, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	return strings.TrimSpace(string(bytes.ReplaceAll(data, []byte{0}, []byte{' '})))
}

// parentOf reads the parent pid of pid from /proc.
func parentOf(pid int) int {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	fields := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
	if len(fields) < 2 {
		return 0
	}
	ppid, _ := strconv.Atoi(fields[1])
	return ppid
}

// descendsFrom reports whether pid is ancestor or one of its descendants.
func descendsFrom(pid, ancestor int) bool {
	for ; pid > 1; pid = parentOf(pid) {
		if pid == ancestor {
			return true
		}
	}
	return false
}

// portFree reports whether nothing listens on the TCP port on loopback.
func portFree(port int) bool {
	ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
	if err != nil {
		return false
	}
	ln.Close()
	return true
}

// holderOf names what listens on port, for failure messages: the processes
// that hold a socket listening on it.
func holderOf(port int) string {
	inodes := listeningInodes(port)
	if len(inodes) == 0 {
		return "no listener found in /proc/net/tcp{,6}"
	}
	var holders []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		fds, _ := os.ReadDir(filepath.Join("/proc", e.Name(), "fd"))
		for _, fd := range fds {
			link, _ := os.Readlink(filepath.Join("/proc", e.Name(), "fd", fd.Name()))
			if inodes[link] {
				holders = append(holders, fmt.Sprintf("pid %d (%s)", pid, commandLine(pid)))
				break
			}
		}
	}
	return strings.Join(holders, ", ")
}

// listeningInodes returns the socket links ("socket:[INODE]") of the
// listening TCP sockets on port.
func listeningInodes(port int) map[string]bool {
	const listen = "0A"
	want := fmt.Sprintf(":%04X", port)
	inodes := map[string]bool{}
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		data, _ := os.ReadFile(table)
		for _, line := range strings.Split(string(data), "\n")[1:] {
			f := strings.Fields(line)
			if len(f) > 9 && strings.HasSuffix(f[1], want) && f[3] == listen {
				inodes["socket:["+f[9]+"]"] = true
			}
		}
	}
	return inodes
}

// TestProcessesOf checks the check itself: a process working in a folder,
// or with the folder in its environment, is seen until it ends.
func TestProcessesOf(t *testing.T) {
	for _, how := range []string{"cwd", "environ"} {
		t.Run(how, func(t *testing.T) {
			dir := t.TempDir()
			cmd := exec.Command("sleep", "600")
			if how == "cwd" {
				cmd.Dir = dir
			} else {
				cmd.Env = append(os.Environ(), "PROJECT="+dir)
			}
			require.NoError(t, cmd.Start())
			seen := processesOf(dir)
			require.NoError(t, cmd.Process.Kill())
			_ = cmd.Wait()
			assert.Equal(t, []string{fmt.Sprintf("%d sleep 600", cmd.Process.Pid)}, seen)
			assert.Empty(t, processesOf(dir), "gone once it ended")
		})
	}
}
