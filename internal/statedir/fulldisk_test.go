package statedir

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/internal/testenv"
)

// fillDisk writes to dir until its file system has no space left, and
// returns the file that took it.
func fillDisk(t *testing.T, dir string) string {
	t.Helper()
	filler := filepath.Join(dir, "filler")
	f, err := os.Create(filler)
	require.NoError(t, err)
	defer f.Close()
	block := make([]byte, 64<<10)
	for {
		if _, err := f.Write(block); err != nil {
			require.ErrorIs(t, err, syscall.ENOSPC)
			return filler
		}
	}
}

// TestEnsureOnAFullDisk is issue 28 item 5: a first start on a full disk
// left an empty .gitignore, never rewritten, and git then listed the logs.
// Ensure now fails saying why, leaves no file, and writes it whole once
// there is space again.
func TestEnsureOnAFullDisk(t *testing.T) {
	project := t.TempDir()
	testenv.MountSmallFS(t, project)
	dir := filepath.Join(project, Name)
	require.NoError(t, os.Mkdir(dir, Perm))
	filler := fillDisk(t, project)

	_, err := Ensure(project)
	require.ErrorIs(t, err, syscall.ENOSPC)
	assert.Contains(t, err.Error(), ".procs/.gitignore")
	assert.Empty(t, entries(t, dir), "neither an empty .gitignore nor a temporary file is left")

	require.NoError(t, os.Remove(filler))
	_, err = Ensure(project)
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "logs"), Perm))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "logs", "web.log"), []byte("token=secret\n"), 0o600))
	testenv.LookPath(t, "git")
	require.NoError(t, exec.Command("git", "-C", project, "init", "-q").Run())
	out, err := exec.Command("git", "-C", project, "status", "--porcelain", "--untracked-files=all").Output()
	require.NoError(t, err)
	assert.Empty(t, strings.TrimSpace(string(out)), "git sees nothing of .procs")
}
