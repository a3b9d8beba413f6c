//go:build unix

package config

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A procs.yaml (or .env) that is a named pipe is refused at once, not read
// until something writes to it.
func TestAFIFOConfigIsRefusedAtOnce(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "procs.yaml")
	require.NoError(t, syscall.Mkfifo(file, 0o644))
	done := make(chan error, 1)
	go func() {
		_, err := readConfigFile(file)
		done <- err
	}()
	select {
	case err := <-done:
		assert.ErrorContains(t, err, "is a named pipe (FIFO), not a file")
	case <-time.After(10 * time.Second):
		t.Fatal("reading a FIFO procs.yaml blocks")
	}
	_, err := readEnvFileBytes(file)
	assert.ErrorContains(t, err, "is a named pipe (FIFO), not a file")
}
