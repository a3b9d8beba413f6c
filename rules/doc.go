// Package rules decides when a process is ready and when it has failed. Its
// core is pure: lines and events go in, verdicts come out, so it is
// testable without running a process. Small watchers at its edge turn the
// OS into events: the port watcher (/proc), probes (HTTP, TCP, exec).
//
// Data flows one way: a Splitter turns child output into Lines; the engine
// wraps lines, the exit, port changes, probe results, dependency changes
// and timers into Events and feeds them to the run's Detector, which
// returns a Verdict. A Detector is created per run, so nothing an earlier
// run printed can satisfy a later one.
//
// # Priorities
//
// The exit decides over everything; then, per line (ANSI-stripped), an
// error pattern (failed; such a line never counts as a ready line), a
// not-ready pattern (starting, reason "not-ready", until a later ready
// line), a ready pattern; otherwise the run is still starting.
//
// # Readiness
//
//	ready = (no readyPatterns, or a ready line seen)
//	    AND (no `ready` rule, or the rule is true)
//
// When neither patterns nor a rule are given, a configured port decides:
// ready once this process tree listens on it. With no port either, a
// service is ready once it has run for Settle (the stability delay, or
// DefaultSettle, 1s, without one), not counting the time a version
// manager's shim takes to choose the program (EventExec); a task just runs
// until its exit. A ready line without a rule also waits for the
// configured port, or with ReadyLinePort for the port it names.
//
// The condition must then hold for StabilityDelay with no error line;
// an error line during the delay fails the run. An error line begins a
// failure, collected until the exit or FailureQuiet without output; the
// run then fails on the line that best explains it (CauseRank). Once ready, the run stays
// ready until an error line (failed), a not-ready line (starting) or the
// exit; a port closing or a rule turning false later does not undo it
// (healthchecks watch a ready process, not the detector).
//
// The rule is evaluated only when an event arrives, never on a clock, so a
// rule such as `elapsed > duration("2s")` becomes true at the first event
// after 2s; use stabilityDelay to wait for time alone.
//
// ReadyTimeout fails the run (reason "timeout") with a message saying what
// was and was not seen, unless the condition already holds and only the
// stability delay remains. The detector never kills anything: the engine
// decides.
//
// # Exits
//
// A stop procs requested is "stopped" however it ended; SIGKILL or 137 is
// "memory-limit" when the kernel killed at the run's memory limit
// (Exit.MemoryLimit), else "killed"; a task exiting 0 is "completed"; a service exiting 0 is failed
// with reason "exited" (a service is meant to keep running, and one that
// exits 0 while starting never became ready), or "daemonized" when it left
// a daemon running (Exit.Daemon); anything else is a "crash" with its code
// and the line of its last output that best says why. A run already failed by an error line or a timeout keeps
// that reason and deciding line at its exit, with the exit added to the
// message: the error line says more than "exit code 1".
//
// It imports no procs package but two internal helpers (lazyregexp, osproc): not the engine, the
// config or the control plane, so its verdicts are tested on lines and events alone.
package rules
