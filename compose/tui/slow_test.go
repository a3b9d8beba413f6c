package tui

import (
	"net"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hungProcs listens on the project's socket, accepts, and never answers.
func hungProcs(t *testing.T, dir string) {
	t.Helper()
	socket := filepath.Join(dir, "hung.sock")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, ".procs"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".procs", "socket"), []byte(socket), 0o644))
	ln, err := net.Listen("unix", socket)
	require.NoError(t, err)
	accepted := make(chan net.Conn, 64)
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				close(accepted)
				return
			}
			accepted <- conn
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		for conn := range accepted {
			conn.Close()
		}
	})
}

func TestHungProcsNeverBlocksTheDashboard(t *testing.T) {
	dir := t.TempDir()
	hungProcs(t, dir)
	d := drive(t, Options{Dir: dir}, 100, 30)
	d.key("j", "?", "x", "r", "/")
	d.typeText("abc")
	d.key("esc", "q")
	assert.Contains(t, d.screen(), "connecting…")
	d.untilShows("not connected (procs", "answer", "retrying…")
}
