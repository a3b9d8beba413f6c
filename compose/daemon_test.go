package compose

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/rules"
)

// End to end with the real servers: a command that puts
// itself in the background exits 0 while the daemon holds the port. procs
// fails it with the fix named and stops the daemon: the port is free and
// the daemon gone, and the next start is not refused. The failure is the
// first answer to a wait.
func TestDaemonizingServersAreFailedAndStopped(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, program, hint string
		command             func(port int) string
	}{
		{"redis", "redis-server", "--daemonize no", func(port int) string {
			// A log file: a daemon that dies at once (its port taken
			// meanwhile) says why there, which a failure below shows.
			return fmt.Sprintf("[redis-server, --port, '%d', --bind, 127.0.0.1, --daemonize, 'yes', --save, '', --dir, %s, --logfile, %s]",
				port, dir, filepath.Join(dir, fmt.Sprintf("redis-%d.log", port)))
		}},
		{"nginx", "nginx", `"daemon off;"`, func(port int) string {
			conf := filepath.Join(dir, "nginx.conf")
			text := fmt.Sprintf("pid %[1]s/nginx.pid;\nerror_log %[1]s/error.log;\nevents {}\nhttp {\n access_log off;\n"+
				" client_body_temp_path %[1]s; proxy_temp_path %[1]s; fastcgi_temp_path %[1]s; uwsgi_temp_path %[1]s; scgi_temp_path %[1]s;\n"+
				" server { listen 127.0.0.1:%[2]d; }\n}\n", dir, port)
			require.NoError(t, os.WriteFile(conf, []byte(text), 0o644))
			return fmt.Sprintf("[nginx, -p, %s, -c, %s]", dir, conf)
		}},
	}
	t.Run("both at once", func(t *testing.T) {
		// Each run's daemon is its own: neither keeps the marker procs
		// puts in its environment (nginx clears its environment, redis
		// writes its title over it), and both start after either run.
		for _, tt := range tests {
			needProgram(t, tt.program)
		}
		yaml := "procs:\n"
		for _, tt := range tests {
			yaml += fmt.Sprintf("  %s:\n    command: %s\n", tt.name, tt.command(freePort(t)))
		}
		te := startEngine(t, yaml, Options{NoWatchdog: true})
		failed := map[string]Event{}
		for len(failed) < len(tests) {
			ev := te.waitFor("both failed", func(ev Event) bool { return ev.Type == EventState && ev.To == rules.StateFailed })
			failed[ev.Proc] = ev
		}
		for _, tt := range tests {
			ev := failed[tt.name]
			assert.Equal(t, rules.ReasonDaemonized, ev.Reason, "%s: %s\nthe daemons' logs:\n%s", tt.name, ev.Message, daemonLogs(t, dir))
			assert.Contains(t, ev.Message, tt.hint, tt.name)
			for _, other := range tests {
				if other.name != tt.name {
					assert.NotContains(t, ev.Message, other.hint, "%s is told the fix of %s", tt.name, other.name)
				}
			}
		}
	})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			needProgram(t, tt.program)
			port := freePort(t)
			te := startEngine(t, "procs:\n  srv:\n    command: "+tt.command(port)+"\n", Options{NoWatchdog: true})
			res := te.waitResult("srv")
			ev := te.waitState("srv", rules.StateFailed)
			// nginx binds its port before it forks its daemon and exits:
			// it is not ready on that port
			// (TestAServerThatMayDaemonizeIsNotReadyBeforeItsExit).
			assert.False(t, res.Success, "ready on the port of a command that then exited 0: %s", res.Message)
			assert.Equal(t, ev.Message, res.Message, "the first answer is the failure")
			assert.Equal(t, rules.ReasonDaemonized, ev.Reason)
			assert.Contains(t, ev.Message, "exited with code 0 and left pid")
			assert.Contains(t, ev.Message, tt.hint)
			if strings.Contains(ev.Message, "on port") { // if it listened by the time of the exit
				assert.Contains(t, ev.Message, "on port "+strconv.Itoa(port))
			}
			require.Eventually(t, func() bool { return !rules.PortInUse(port) }, waitLimit, 20*time.Millisecond,
				"the daemon's port is free")
		})
	}
}

// daemonLogs is what the daemons of TestDaemonizingServersAreFailedAndStopped
// logged in dir.
func daemonLogs(t *testing.T, dir string) string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.log"))
	require.NoError(t, err)
	var b strings.Builder
	for _, f := range files {
		data, _ := os.ReadFile(f)
		fmt.Fprintf(&b, "%s:\n%s\n", filepath.Base(f), data)
	}
	return b.String()
}

// nginx, by default, opens its port and then puts itself in the background:
// the command procs started exits 0 a moment after the port opened. That
// moment is no ready: a dependent started on it would lose its dependency
// as procs stops the daemon. A program that may put itself in the
// background (its preset says so, and its command does not keep it in the
// foreground) is ready only once it has stayed up a little past its port.
// A stand-in makes the moment long enough to be seen every time.
func TestAServerThatMayDaemonizeIsNotReadyBeforeItsExit(t *testing.T) {
	needProgram(t, "python3")
	dir := t.TempDir()
	script := filepath.Join(dir, "daemonize.py")
	require.NoError(t, os.WriteFile(script, []byte(`import os, socket, sys, time
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1])))
s.listen()
time.sleep(0.03)
if os.fork() == 0:
    os.setsid()
    time.sleep(1000)
os._exit(0)
`), 0o644))
	port := freePort(t)
	te := startEngine(t, fmt.Sprintf(`
procs:
  web: {command: python3 %s %d, framework: nginx, port: %d}
  client: {command: sleep 1000, dependsOn: [web]}
`, script, port, port), Options{NoWatchdog: true, StayUp: true})
	var readied []string
	ev := te.waitFor("web failed", func(ev Event) bool {
		if ev.Type == EventState && ev.To == rules.StateReady {
			readied = append(readied, ev.Proc+": "+ev.Message)
		}
		return ev.Type == EventState && ev.Proc == "web" && ev.To == rules.StateFailed
	})
	assert.Equal(t, rules.ReasonDaemonized, ev.Reason, ev.Message)
	assert.Empty(t, readied, "ready on a port whose command then exited 0")
	st, err := te.StatusOf("client")
	require.NoError(t, err)
	assert.Equal(t, rules.StateBlocked, st.State, "client never started on a daemon procs stops")
}
