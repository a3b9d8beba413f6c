//go:build unix

package main

import (
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/internal/testenv"
)

// otherUID is the user the permission tests run procs as: nobody.
const otherUID = 65534

// runAsOther runs this test binary as procs (TestMain runs it so when it
// is named procs), as otherUID in dir, and returns its stderr and exit code.
func runAsOther(t *testing.T, dir string, args ...string) (stderr string, code int) {
	t.Helper()
	cmd := exec.Command(filepath.Join(dir, "bin", "procs"), args...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + dir}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: otherUID, Gid: otherUID}}
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	err := cmd.Run()
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		require.NoError(t, err)
	}
	return errOut.String(), cmd.ProcessState.ExitCode()
}

// folderOfRoot is a project folder otherUID may enter, with procs (this
// test binary) in bin/, and a .procs of root with mode.
func folderOfRoot(t *testing.T, mode os.FileMode) string {
	t.Helper()
	testenv.Need(t, "root (to run procs as another user)", os.Getuid() == 0)
	dir, err := os.MkdirTemp("", "procs-perm-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	require.NoError(t, os.Chmod(dir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "procs.yaml"), []byte("procs:\n  web:\n    command: sleep 300\n"), 0o644))
	require.NoError(t, os.Mkdir(filepath.Join(dir, ".procs"), mode))
	require.NoError(t, os.Chmod(filepath.Join(dir, ".procs"), mode))
	require.NoError(t, os.Mkdir(filepath.Join(dir, "bin"), 0o755))
	self, err := os.Executable()
	require.NoError(t, err)
	copyExecutable(t, self, filepath.Join(dir, "bin", "procs"))
	return dir
}

func copyExecutable(t *testing.T, from, to string) {
	t.Helper()
	src, err := os.Open(from)
	require.NoError(t, err)
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY, 0o755)
	require.NoError(t, err)
	_, err = io.Copy(dst, src)
	require.NoError(t, err)
	require.NoError(t, dst.Close())
}

// TestUnreadableStateFolderSaysSo: as another user, in a folder whose
// .procs is root's and closed to others, procs cannot tell whether a
// procs runs: status and logs say that, not that a procs of another user
// runs (exit 1).
func TestUnreadableStateFolderSaysSo(t *testing.T) {
	dir := folderOfRoot(t, 0o700)
	for _, args := range [][]string{{"status"}, {"logs"}, {"logs", "web"}} {
		stderr, code := runAsOther(t, dir, args...)
		assert.Equal(t, exitFailure, code, "%v: %s", args, stderr)
		assert.Equal(t, "procs: .procs/ is not readable by this user (it belongs to root): procs cannot tell whether a procs runs in this folder; run procs commands as root, or fix the folder's permissions\n", stderr, args)
	}
}

// TestAnotherUsersSocketIsPermissionDenied: a socket of another user in a
// .procs this user can read is a procs of that user.
func TestAnotherUsersSocketIsPermissionDenied(t *testing.T) {
	dir := folderOfRoot(t, 0o755)
	ln, err := net.Listen("unix", filepath.Join(dir, ".procs", "procs.sock"))
	require.NoError(t, err)
	defer ln.Close()
	require.NoError(t, os.Chmod(filepath.Join(dir, ".procs", "procs.sock"), 0o700))
	stderr, code := runAsOther(t, dir, "status")
	assert.Equal(t, exitFailure, code, stderr)
	assert.Contains(t, stderr, "procs: permission denied: the procs of this folder (.procs/procs.sock) belongs to another user (uid 0); run procs commands as that user")
}
