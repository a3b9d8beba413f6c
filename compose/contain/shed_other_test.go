//go:build !linux

package contain

// runShedProbeIfRequested is Linux's (shed_linux_test.go).
func runShedProbeIfRequested() {}
