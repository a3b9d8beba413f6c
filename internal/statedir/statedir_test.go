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
}

// TestEnsureRepairsTheGitignore rewrites a .gitignore that is not procs':
// an empty one left by a full disk, one cut short, or one edited, any of
// which lets git list the logs and the secrets they hold.
func TestEnsureRepairsTheGitignore(t *testing.T) {
	for name, content := range map[string]string{
		"empty":     "",
		"cut short": gitignore[:20],
		"edited":    "mine\n",
		"longer":    gitignore + "!logs\n",
	} {
		t.Run(name, func(t *testing.T) {
			project := t.TempDir()
			dir := filepath.Join(project, Name)
			require.NoError(t, os.Mkdir(dir, Perm))
			require.NoError(t, os.WriteFile(filepath.Join(dir, ".gitignore"), []byte(content), 0o600))
			_, err := Ensure(project)
			require.NoError(t, err)
			data, err := os.ReadFile(filepath.Join(dir, ".gitignore"))
			require.NoError(t, err)
			assert.Equal(t, gitignore, string(data))
			assert.Equal(t, []string{".gitignore"}, entries(t, dir), "no temporary file is left")
		})
	}
}

// entries lists the names in dir.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	list, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range list {
		names = append(names, e.Name())
	}
	return names
}
