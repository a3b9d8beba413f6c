//go:build unix

package compose

import "syscall"

// unixSignalsByName are the shutdown signals only Unix systems have.
var unixSignalsByName = map[string]syscall.Signal{
	"SIGUSR1": syscall.SIGUSR1, "SIGUSR2": syscall.SIGUSR2, "SIGWINCH": syscall.SIGWINCH,
}
