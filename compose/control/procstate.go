package control

import "github.com/procsdev/procs/internal/osproc"

// processRuns reports whether the process pid is known to run rather than
// be stopped (Ctrl-Z, SIGSTOP): false when it is stopped, gone, or its
// state cannot be read (osproc.Awake).
func processRuns(pid int) bool { return pid > 0 && osproc.Awake(pid) }
