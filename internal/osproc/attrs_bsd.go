//go:build darwin || freebsd

package osproc

import "syscall"

// GroupAttrs starts a child in a process group of its own. These systems
// have no parent-death signal: the watchdog stops the group if procs dies.
func GroupAttrs() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// SessionAttrs starts a child in a session of its own, on the terminal
// given as its stdin (a PTY).
func SessionAttrs() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true, Setctty: true}
}

// BecomeSubreaper fails: macOS re-parents orphans to launchd, and procs
// does not use FreeBSD's reaper (procctl PROC_REAP_ACQUIRE) yet.
func BecomeSubreaper() error { return errUnsupported("a child subreaper") }
