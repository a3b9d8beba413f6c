//go:build !linux

package osproc

// ReserveFDs does nothing here: the kernels procs runs on elsewhere grow a
// descriptor table without waiting for the other threads (see the Linux
// version).
func ReserveFDs(int) {}
