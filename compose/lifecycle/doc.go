// Package lifecycle decides the lifecycle of the processes procs runs:
// which state each is in, when it starts, when it stops, whether its
// restart policy brings it back, and when a wait for it is over.
//
// A Machine is a pure reducer, as rules.Detector is for readiness: the
// engine feeds it inputs — reports of runs (started, a verdict, ports,
// exited), requests (start, stop, restart, apply a config, down, wait),
// timers fired (backoff) — and takes back the effects to carry out (start
// a run, stop one, arm or cancel a timer, publish a transition, answer a
// waiter, forget a removed process). It does no I/O, starts no goroutine
// and reads the time only through the clock it is given, so its tests
// run in microseconds and a fuzz test can drive it through any order of
// inputs.
//
// The legal transitions are one table (transitions.go), which
// ARCHITECTURE.md §3 shows; what procs means to do with a process next
// (run it, restart it, give up on it) is one struct written in one file
// (intent.go).
//
// lifecycle imports rules and compose/config only.
package lifecycle
