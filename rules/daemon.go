package rules

import (
	"fmt"
	"strings"
)

// Daemon is what a run left running when its main process exited 0: a
// program that put itself in the background (nginx without `daemon off`,
// `redis-server --daemonize yes`, `pg_ctl start`).
type Daemon struct {
	// PID and Command are those of the topmost process left behind.
	PID     int
	Command string
	// Ports are the TCP ports what it left behind listens on.
	Ports []int
}

// daemonVerdict fails a service whose main process exited 0 and left d
// running, with a hint naming the way to keep it in the foreground.
func daemonVerdict(d *Daemon) Verdict {
	msg := fmt.Sprintf("exited with code 0 and left pid %d (%s) running", d.PID, d.Command)
	if len(d.Ports) > 0 {
		msg += " on port " + joinInts(d.Ports)
	}
	msg += ": it put itself in the background, where procs cannot watch it, so procs stopped it; " + daemonHint(d.Command)
	return Verdict{State: StateFailed, Reason: ReasonDaemonized, Message: msg}
}

// daemonHints name, per program, how to keep it in the foreground.
var daemonHints = []struct{ program, hint string }{
	{"nginx", `add "daemon off;" to nginx.conf or run nginx -g 'daemon off;'`},
	{"redis", "run redis-server with --daemonize no"},
	{"postgres", "run postgres -D DATADIR itself instead of pg_ctl start"},
	{"memcached", "run memcached without -d"},
	{"mysqld", "run mysqld (or mariadbd) itself, not mysqld_safe or a service script"},
	{"mariadbd", "run mariadbd itself, not mysqld_safe or a service script"},
	{"php-fpm", "run php-fpm with -F (--nodaemonize)"},
	{"httpd", "run httpd with -DFOREGROUND"},
	{"apache2", "run apache2 with -DFOREGROUND"},
}

// daemonHint says how to run the program of command in the foreground.
func daemonHint(command string) string {
	lower := strings.ToLower(command)
	for _, h := range daemonHints {
		if strings.Contains(lower, h.program) {
			return h.hint
		}
	}
	return "run it in the foreground (its --help usually names a foreground or no-daemon option)"
}
