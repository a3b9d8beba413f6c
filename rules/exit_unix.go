//go:build unix

package rules

import "syscall"

// unixSignalNames names the signals only Unix systems have.
var unixSignalNames = map[syscall.Signal]string{
	syscall.SIGUSR1: "SIGUSR1", syscall.SIGUSR2: "SIGUSR2",
}
