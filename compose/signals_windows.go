package compose

import "syscall"

// unixSignalsByName is empty: on Windows a stop is Ctrl-Break, then the
// job's end (osproc.SignalGroup), whatever signal is named.
var unixSignalsByName = map[string]syscall.Signal{}
