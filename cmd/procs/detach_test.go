package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// A background procs that ended before it listened passes a config error
// (exit 2) on to procs up -d, which exits as the foreground procs up would;
// any other end is a failure (1). No config error reaches it today that
// the foreground check does not find first, so this is its test.
func TestBackgroundExitCodeKeepsAConfigError(t *testing.T) {
	for code, want := range map[int]int{exitUsage: exitUsage, exitFailure: exitFailure, 137: exitFailure, 0: exitFailure} {
		exited := make(chan int, 1)
		exited <- code
		assert.Equal(t, want, backgroundExitCode(exited), "background exit %d", code)
	}
}
