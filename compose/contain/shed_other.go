//go:build !linux

package contain

// shedBinaryPages is Linux's: elsewhere the watchdog keeps what it touched.
func shedBinaryPages() {}
