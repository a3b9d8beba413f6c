package mcp

import (
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStoppedProcsIsNotAnswering: a procs that accepts connections but
// answers nothing (SIGSTOPped) gives tools a failure naming it, not a hang.
func TestStoppedProcsIsNotAnswering(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, ".procs"), 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".procs", "procs.pid"), []byte("4242\n"), 0o600))
	ln, err := net.Listen("unix", filepath.Join(dir, ".procs", "procs.sock"))
	require.NoError(t, err)
	silent := make(chan struct{})
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-silent:
		case <-r.Context().Done():
		}
	})}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { close(silent); _ = srv.Close() })

	c := connect(t, Options{Dir: dir, Version: "test"})
	_, msg := fail(t, c, "list_processes", nil)
	assert.Contains(t, msg, "procs (pid 4242) is not answering (stopped?)")
}
