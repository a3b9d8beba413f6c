package statedir

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/internal/testenv"
)

func TestEnsureMakesAPrivateIgnoredFolder(t *testing.T) {
	project := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(project, Name), 0o755))
	dir, err := Ensure(project)
	require.NoError(t, err)
	info, err := os.Stat(dir)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), info.Mode().Perm(), "an older open folder is made private")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "procs.log"), []byte("x"), 0o600))

	testenv.LookPath(t, "git")
	require.NoError(t, exec.Command("git", "-C", project, "init", "-q").Run())
	out, err := exec.Command("git", "-C", project, "status", "--porcelain", "--untracked-files=all").Output()
	require.NoError(t, err)
	assert.Empty(t, string(out), "git sees nothing of .procs")

	// A .gitignore the user changed is left alone.
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("mine\n"), 0o600))
	_, err = Ensure(project)
	require.NoError(t, err)
	data, _ := os.ReadFile(filepath.Join(dir, ".gitignore"))
	assert.Equal(t, "mine\n", string(data))
}
