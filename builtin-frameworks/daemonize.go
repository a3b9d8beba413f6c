package frameworks

import "time"

// DaemonGrace is how long a run of a program that may put itself in the
// background stays starting past the moment it would be ready. nginx opens
// its port, then forks its daemon, and the command procs started exits 0
// a moment later: ready at the open port, its dependents would start on a
// daemon procs then stops (it cannot watch one). The exit comes within a
// few milliseconds of the port; the grace leaves room for a loaded machine.
const DaemonGrace = 100 * time.Millisecond

// MayDaemonize reports whether command may put the preset's program in the
// background: the preset says it does by default (DaemonizesUnless), and
// command says none of the ways to keep it in the foreground. A config
// file may say it too (nginx's "daemon off;"), which the command does not
// show: such a run waits DaemonGrace for nothing, which is the price of
// never calling a daemonizing run ready.
func (p *Preset) MayDaemonize(command string) bool {
	if len(p.DaemonizesUnless) == 0 {
		return false
	}
	foreground, err := compileAll(p.DaemonizesUnless)
	if err != nil {
		return true // checkPatterns, run by the tests on every preset, reports it
	}
	for _, re := range foreground {
		if re.MatchString(command) {
			return false
		}
	}
	return true
}
