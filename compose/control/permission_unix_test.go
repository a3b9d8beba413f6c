//go:build unix

package control

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/internal/testenv"
)

// TestAnUnreadableStateFolderIsNotAnotherUsersProcs: when this user may
// not look into .procs, whether a procs runs there cannot be told: the
// error says that, names the folder's owner, and never says that a procs
// of another user runs.
func TestAnUnreadableStateFolderIsNotAnotherUsersProcs(t *testing.T) {
	if dir := os.Getenv("PROCS_TEST_AS_OTHER"); dir != "" {
		unreadableAsOther(t, dir)
		return
	}
	testenv.Need(t, "root (to run as another user)", os.Getuid() == 0)
	dir, err := os.MkdirTemp("", "procs-unreadable-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	require.NoError(t, os.Chmod(dir, 0o755))
	require.NoError(t, os.Mkdir(filepath.Join(dir, stateDir), 0o700))
	self, err := os.ReadFile(os.Args[0])
	require.NoError(t, err)
	// The test binary's own folder may be closed to nobody.
	bin := filepath.Join(dir, "control.test")
	require.NoError(t, os.WriteFile(bin, self, 0o755))
	cmd := exec.Command(bin, "-test.run=^TestAnUnreadableStateFolderIsNotAnotherUsersProcs$", "-test.count=1")
	cmd.Env = append(os.Environ(), "PROCS_TEST_AS_OTHER="+dir)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.Contains(t, string(out), "PASS")
}

// unreadableAsOther is the test's half that runs as nobody, in dir.
func unreadableAsOther(t *testing.T, dir string) {
	_, err := DialContext(testCtx(t), dir)
	require.ErrorIs(t, err, ErrPermission)
	var perm *PermissionError
	require.ErrorAs(t, err, &perm)
	assert.True(t, perm.Unreadable)
	assert.Equal(t, filepath.Join(dir, stateDir), perm.Path)
	assert.Equal(t, filepath.Join(dir, stateDir)+"/ is not readable by this user (it belongs to root): procs cannot tell whether a procs runs in this folder; run procs commands as root, or fix the folder's permissions", err.Error())
}
