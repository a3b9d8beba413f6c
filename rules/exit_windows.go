package rules

import "syscall"

// unixSignalNames is empty: Windows has none of the Unix-only signals.
var unixSignalNames = map[syscall.Signal]string{}
