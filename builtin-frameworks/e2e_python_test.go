package frameworks_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/procsdev/procs/internal/testenv"
)

// TestE2EPythonHTTPServer: under a pipe Python block-buffers its output, so
// without PYTHONUNBUFFERED the "Serving HTTP" line would only come out at
// exit (captures/python-http-server/start-buffered). The preset's env must
// reach the process: procs.yaml sets nothing, and the line still decides.
func TestE2EPythonHTTPServer(t *testing.T) {
	t.Parallel()
	python := testenv.LookPath(t, "python3")
	server := func(port int) string {
		return fmt.Sprintf("procs:\n  files: {command: %s -m http.server %d --bind 127.0.0.1}\n", python, port)
	}

	t.Run("start", func(t *testing.T) {
		t.Parallel()
		port := freePort(t)
		r := startProcs(t, t.TempDir(), server(port))
		res, st := r.requireReadyBy("files", "python-http-server")
		assert.Regexp(t, fmt.Sprintf(`^Serving HTTP on 127\.0\.0\.1 port %d `, port), st.Line, "the deciding line, unbuffered")
		assertPorts(t, res.Ports, port)
		r.stop()
		requirePortFree(t, port)
	})

	t.Run("port-in-use", func(t *testing.T) {
		t.Parallel()
		port := occupy(t)
		r := startProcs(t, t.TempDir(), server(port))
		ev := r.requireFailedNeverReady("files", "python-http-server")
		assert.Contains(t, ev.Message, "Address already in use")
	})
}
