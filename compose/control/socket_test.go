package control

import (
	"context"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose"
	"github.com/procsdev/procs/compose/config"
)

const oneService = `
procs:
  web:
    command: echo ready; sleep 300
    readyPatterns: [ready]
`

func TestSocketIsPrivateAndPIDRecorded(t *testing.T) {
	h := startHarness(t, oneService)
	assert.Equal(t, filepath.Join(h.dir, ".procs", "procs.sock"), h.server.Path())
	info, err := os.Stat(h.server.Path())
	require.NoError(t, err)
	assert.Equal(t, os.ModeSocket|0o600, info.Mode()&(os.ModeSocket|os.ModePerm))
	pid, err := os.ReadFile(filepath.Join(h.dir, ".procs", "procs.pid"))
	require.NoError(t, err)
	assert.Equal(t, strconv.Itoa(os.Getpid()), strings.TrimSpace(string(pid)))
	got, err := h.client.Info(testCtx(t))
	require.NoError(t, err)
	assert.Equal(t, os.Getpid(), got.PID)
}

func TestSecondServeRefuses(t *testing.T) {
	h := startHarness(t, oneService)
	_, err := Serve(context.Background(), h.engine, h.dir)
	require.ErrorIs(t, err, ErrAlreadyRunning)
	var running *AlreadyRunningError
	require.ErrorAs(t, err, &running)
	assert.Equal(t, os.Getpid(), running.PID)
	assert.Contains(t, err.Error(), "procs is already running in this folder (pid ")
	assert.Contains(t, err.Error(), "use `procs status`, or `procs down` first")
	// The first server is untouched.
	_, err = h.client.List(testCtx(t))
	require.NoError(t, err)
}

func TestCloseRemovesFilesAndClientsSeeNotRunning(t *testing.T) {
	dir := t.TempDir()
	e := newIdleEngine(t, dir)
	s, err := Serve(context.Background(), e, dir)
	require.NoError(t, err)
	require.NoError(t, s.Close())
	assert.NoFileExists(t, filepath.Join(dir, ".procs", "procs.sock"))
	assert.NoFileExists(t, filepath.Join(dir, ".procs", "procs.pid"))
	_, err = Dial(dir)
	require.ErrorIs(t, err, ErrNotRunning)
	// The folder is free again.
	s, err = Serve(context.Background(), e, dir)
	require.NoError(t, err)
	require.NoError(t, s.Close())
}

func TestStaleSocketIsReplaced(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, ".procs"), 0o755))
	path := filepath.Join(dir, ".procs", "procs.sock")
	// A socket file nobody listens on, as a crashed procs leaves it.
	ln, err := net.Listen("unix", path)
	require.NoError(t, err)
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	require.NoError(t, ln.Close())
	require.FileExists(t, path)
	_, err = Dial(dir)
	require.ErrorIs(t, err, ErrNotRunning)

	e := newIdleEngine(t, dir)
	s, err := Serve(context.Background(), e, dir)
	require.NoError(t, err)
	defer s.Close()
	c, err := Dial(dir)
	require.NoError(t, err)
	defer c.Close()
	_, err = c.Info(testCtx(t))
	require.NoError(t, err)
}

func TestLongProjectPathFallsBackToShortSocket(t *testing.T) {
	runtimeDir := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", runtimeDir)
	dir := filepath.Join(t.TempDir(), strings.Repeat("a-very-long-folder-name/", 6))
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.Greater(t, len(filepath.Join(dir, ".procs", "procs.sock")), maxSocketPath)

	h := startHarnessIn(t, dir, oneService)
	path := h.server.Path()
	assert.LessOrEqual(t, len(path), maxSocketPath)
	assert.Equal(t, runtimeDir, filepath.Dir(path))
	record, err := os.ReadFile(filepath.Join(dir, ".procs", "socket"))
	require.NoError(t, err)
	assert.Equal(t, path, strings.TrimSpace(string(record)))
	info, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm())
	h.waitReady(t, "web")

	// Without XDG_RUNTIME_DIR the fallback is a private folder under /tmp.
	t.Setenv("XDG_RUNTIME_DIR", "")
	other, err := fallbackSocketPath(dir)
	require.NoError(t, err)
	assert.LessOrEqual(t, len(other), maxSocketPath)
	assert.Contains(t, other, "procs-"+strconv.Itoa(os.Getuid()))
}

func TestPeersOfAnotherUserAreRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.sock")
	ln, err := net.Listen("unix", path)
	require.NoError(t, err)
	pl := &peerListener{Listener: ln, uid: os.Getuid() + 1}
	defer pl.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		if conn, err := pl.Accept(); err == nil {
			accepted <- conn
		}
	}()
	conn, err := net.Dial("unix", path)
	require.NoError(t, err)
	defer conn.Close()
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(testDeadline)))
	_, err = conn.Read(make([]byte, 1))
	assert.ErrorIs(t, err, io.EOF, "the server must close a stranger's connection")
	select {
	case <-accepted:
		t.Fatal("a peer of another user was accepted")
	default:
	}

	uid, err := peerUID(conn)
	require.NoError(t, err)
	assert.Equal(t, os.Getuid(), uid)
}

func TestDialWithNothingRunning(t *testing.T) {
	_, err := Dial(t.TempDir())
	require.ErrorIs(t, err, ErrNotRunning)
}

// newIdleEngine is an engine that is never run, enough to serve info.
func newIdleEngine(t *testing.T, dir string) *compose.Engine {
	t.Helper()
	file := filepath.Join(dir, "procs.yaml")
	cfg, err := config.Parse(file, []byte(oneService), os.Environ())
	require.NoError(t, err)
	cfg.Dir = dir
	e, err := compose.New(cfg, compose.Options{NoWatchdog: true, LogDir: t.TempDir()})
	require.NoError(t, err)
	return e
}
