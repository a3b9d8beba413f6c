package compose

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose/contain"
)

// TestNoOrphansWhenTheBinaryWasDeleted SIGKILLs a procs whose binary was
// deleted while it ran, as go run deletes its own when procs exits: the
// watchdog still becomes procs (the file it holds open) and stops the
// processes the parent-death signal does not reach.
func TestNoOrphansWhenTheBinaryWasDeleted(t *testing.T) {
	dir := t.TempDir()
	binary := filepath.Join(dir, "procs.test")
	copyExecutable(t, os.Args[0], binary)
	file := filepath.Join(dir, "procs.yaml")
	require.NoError(t, os.WriteFile(file, []byte(`
procs:
  tree:
    command: "sleep 300 & sleep 300 & setsid sh -c 'sleep 300' & echo ready; wait"
    readyPatterns: [ready]
`), 0o644))
	cmd := startEngineHelperFrom(t, binary, file)
	var marked []int
	require.Eventually(t, func() bool {
		marked = contain.FindMarked(fmt.Sprintf("%d-", cmd.Process.Pid))
		return len(marked) >= 4
	}, waitLimit, 20*time.Millisecond, "sh, sleeps and the escaped session: %v", marked)

	require.NoError(t, os.Remove(binary))
	require.NoError(t, cmd.Process.Kill())
	_ = cmd.Wait()
	assert.Eventually(t, func() bool { return allGone(marked) }, waitLimit, 50*time.Millisecond,
		"processes left behind by a procs whose binary was deleted: %v", alive(marked))
}

// copyExecutable copies the executable from to the new file to.
func copyExecutable(t *testing.T, from, to string) {
	t.Helper()
	src, err := os.Open(from)
	require.NoError(t, err)
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	require.NoError(t, err)
	_, err = io.Copy(dst, src)
	require.NoError(t, errors.Join(err, dst.Close()))
}
