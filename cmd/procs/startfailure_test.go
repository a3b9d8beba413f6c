package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/internal/testenv"
)

// TestStartFailureSaysWhy is issue 28 item 5's "procs exited at start:"
// with nothing after it: a background procs on a full disk cannot write
// its reason, so the parent says what took it.
func TestStartFailureSaysWhy(t *testing.T) {
	t.Run("its last lines", func(t *testing.T) {
		log := openLog(t, t.TempDir(), "procs.yaml:3:5: procs.web.comand: unknown key\n")
		assert.EqualError(t, startFailure(log, log.Name()), "procs exited at start:\n  | procs.yaml:3:5: procs.web.comand: unknown key")
	})
	t.Run("nothing written", func(t *testing.T) {
		log := openLog(t, t.TempDir(), "")
		assert.ErrorContains(t, startFailure(log, log.Name()), "without a word: run procs up in the foreground")
	})
	t.Run("a full disk", func(t *testing.T) {
		dir := t.TempDir()
		testenv.MountSmallFS(t, dir)
		log := openLog(t, dir, "")
		filler, err := os.Create(filepath.Join(dir, "filler"))
		require.NoError(t, err)
		defer filler.Close()
		for err == nil {
			_, err = filler.Write(make([]byte, 64<<10))
		}
		err = startFailure(log, log.Name())
		assert.ErrorIs(t, err, syscall.ENOSPC)
		assert.ErrorContains(t, err, "procs exited at start, and what it said was lost: write "+log.Name())
	})
}

// openLog creates a start-up log in dir holding text, open for writing
// at its end as the background procs leaves it.
func openLog(t *testing.T, dir, text string) *os.File {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(dir, "up-1.log"), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	require.NoError(t, err)
	t.Cleanup(func() { f.Close() })
	_, err = f.WriteString(text)
	require.NoError(t, err)
	return f
}
