package rules

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// A service that exits 0 leaving a daemon is failed with
// the fix named, not "a service is expected to keep running".
func TestDaemonizedExit(t *testing.T) {
	tests := []struct{ command, hint string }{
		{"nginx: master process nginx -c nginx.conf", `"daemon off;"`},
		{"/usr/bin/redis-server 127.0.0.1:6390", "--daemonize no"},
		{"/usr/lib/postgresql/15/bin/postgres -D pgdata", "instead of pg_ctl start"},
		{"mydaemon --bg", "run it in the foreground"},
	}
	for _, tt := range tests {
		d := NewDetector(&Spec{}, 1, t0)
		drive(d, []step{exitAt(time.Millisecond, Exit{Daemon: &Daemon{PID: 42, Command: tt.command, Ports: []int{6390}}})}, 0)
		v := d.Verdict()
		assert.Equal(t, StateFailed, v.State)
		assert.Equal(t, ReasonDaemonized, v.Reason)
		assert.Contains(t, v.Message, "left pid 42 ("+tt.command+") running on port 6390")
		assert.Contains(t, v.Message, tt.hint)
	}
	d := NewDetector(&Spec{Task: true}, 1, t0)
	drive(d, []step{exitAt(time.Millisecond, Exit{Daemon: &Daemon{PID: 42}})}, 0)
	assert.Equal(t, StateCompleted, d.Verdict().State, "a task may start a daemon")
}
