//go:build linux

package control

import (
	"bufio"
	"errors"
	"net"
	"net/http"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// exhaustFDs lowers this process' descriptor limit and fills it with
// /dev/null until open fails with EMFILE; the returned function frees them
// and restores the limit.
func exhaustFDs(t *testing.T) (free func()) {
	t.Helper()
	var saved syscall.Rlimit
	require.NoError(t, syscall.Getrlimit(syscall.RLIMIT_NOFILE, &saved))
	entries, err := os.ReadDir("/proc/self/fd")
	require.NoError(t, err)
	lowered := saved
	lowered.Cur = uint64(len(entries) + 32)
	require.NoError(t, syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lowered))
	var fillers []*os.File
	freed := false
	free = func() {
		if freed {
			return
		}
		freed = true
		for _, f := range fillers {
			f.Close()
		}
		_ = syscall.Setrlimit(syscall.RLIMIT_NOFILE, &saved)
	}
	t.Cleanup(free)
	for {
		f, err := os.Open(os.DevNull)
		if err != nil {
			require.True(t, errors.Is(err, syscall.EMFILE), "%v", err)
			break
		}
		fillers = append(fillers, f)
	}
	// One for the client's end of the connection.
	fillers[len(fillers)-1].Close()
	fillers = fillers[:len(fillers)-1]
	return free
}

// TestServerAcceptsAgainAfterRunningOutOfDescriptors: while procs has no
// descriptor left its accept fails (EMFILE); once some are freed, the
// connection that waited is served: the API does not stop for good.
func TestServerAcceptsAgainAfterRunningOutOfDescriptors(t *testing.T) {
	h := startHarness(t, oneService)
	h.waitReady(t, "web")

	free := exhaustFDs(t)
	conn, err := net.Dial("unix", h.client.Socket())
	if err != nil {
		free()
		require.NoError(t, err)
	}
	defer conn.Close()
	_, err = conn.Write([]byte("GET /v1/info HTTP/1.1\r\nHost: procs\r\n\r\n"))
	// The accept loop meets EMFILE and backs off; give it the time to.
	time.Sleep(200 * time.Millisecond)
	free()
	require.NoError(t, err)

	require.NoError(t, conn.SetReadDeadline(time.Now().Add(testDeadline)))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err, "procs stopped accepting after EMFILE")
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)

	list, err := h.client.List(testCtx(t))
	require.NoError(t, err)
	require.Len(t, list, 1)
}
