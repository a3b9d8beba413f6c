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
// the daemon gone, and the next start is not refused.
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
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			needProgram(t, tt.program)
			port := freePort(t)
			te := startEngine(t, "procs:\n  srv:\n    command: "+tt.command(port)+"\n", Options{NoWatchdog: true})
			res := te.waitResult("srv")
			assert.False(t, res.Success)
			assert.Equal(t, rules.StateFailed, res.State)
			assert.Contains(t, res.Message, "exited with code 0 and left pid")
			ev := te.waitState("srv", rules.StateFailed)
			assert.Equal(t, rules.ReasonDaemonized, ev.Reason)
			assert.Contains(t, res.Message, tt.hint)
			if strings.Contains(res.Message, "on port") { // if it listened by the time of the exit
				assert.Contains(t, res.Message, "on port "+strconv.Itoa(port))
			}
			require.Eventually(t, func() bool { return !rules.PortInUse(port) }, waitLimit, 20*time.Millisecond,
				"the daemon's port is free")
		})
	}
}
