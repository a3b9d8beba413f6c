//go:build !linux

package contain

// ShedBinaryPages is Linux's: elsewhere a process keeps what it touched.
func ShedBinaryPages() {}
