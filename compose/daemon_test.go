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
// first answer to a wait, but for the moment nginx itself listens.
func TestDaemonizingServersAreFailedAndStopped(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, program, hint string
		command             func(port int) string
	}{
		{"redis", "redis-server", "--daemonize no", func(port int) string {
			return fmt.Sprintf("[redis-server, --port, '%d', --bind, 127.0.0.1, --daemonize, 'yes', --save, '', --dir, %s]", port, dir)
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
			assert.Equal(t, rules.ReasonDaemonized, ev.Reason, "%s: %s", tt.name, ev.Message)
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
			if res.Success {
				// nginx binds its port before it forks its daemon and
				// exits: a look in those few milliseconds finds the
				// command itself listening, which is true then, and the
				// failure follows. A port seen after the exit never makes
				// it ready (TestPortSeenBeforeAnExitTakenAfterItIsNotReady).
				assert.Equal(t, "nginx", tt.name, "only a command that binds before it daemonizes may be ready first: %s", res.Message)
				assert.Contains(t, res.Message, "listening on port "+strconv.Itoa(port))
			} else {
				assert.Equal(t, ev.Message, res.Message, "the first answer is the failure")
			}
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
