//go:build unix

package osproc

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeTool writes an executable script at path that prints says.
func writeTool(t *testing.T, path, says string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte("#!/bin/sh\necho "+says+"\n"), 0o755))
}

// toolbox lays out, under a temporary root, the same program in several
// folders, each copy saying which it is, and the working directory a
// process would run in (work, with a copy of its own); it returns root
// and work.
func toolbox(t *testing.T) (root, work string) {
	root = t.TempDir()
	work = filepath.Join(root, "work")
	writeTool(t, filepath.Join(root, "bin1", "mytool"), "bin1")
	writeTool(t, filepath.Join(root, "bin2", "mytool"), "bin2")
	writeTool(t, filepath.Join(work, "mytool"), "cwd")
	writeTool(t, filepath.Join(work, "rel", "mytool"), "rel")
	writeTool(t, filepath.Join(work, "tools", "run"), "tools")
	require.NoError(t, os.MkdirAll(filepath.Join(root, "dironly", "mytool"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(root, "noexec"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "noexec", "mytool"), []byte("#!/bin/sh\necho noexec\n"), 0o644))
	return root, work
}

// runIn runs program in dir with env, returning what it printed and
// whether it ran.
func runIn(program string, args []string, env []string, dir string) (string, bool) {
	cmd := exec.Command(program, args...)
	cmd.Env, cmd.Dir = env, dir
	out, err := cmd.Output()
	return strings.TrimSpace(string(out)), err == nil
}

// LookPath finds a program where the process's own shell would: sh is
// asked the same question in every case, and the two must run the same
// copy (or both find none).
func TestLookPathFindsWhatShFinds(t *testing.T) {
	root, work := toolbox(t)
	in := func(dir string) string { return filepath.Join(root, dir) }
	tests := []struct {
		name string
		path string // the process's PATH
		prog string
		want string // what the program found says; "" for none found
	}{
		{"first folder wins", in("bin1") + ":" + in("bin2"), "mytool", "bin1"},
		{"in order", in("bin2") + ":" + in("bin1"), "mytool", "bin2"},
		{"a folder of that name is skipped", in("dironly") + ":" + in("bin2"), "mytool", "bin2"},
		{"a file that is not executable is skipped", in("noexec") + ":" + in("bin1"), "mytool", "bin1"},
		{"a leading empty element is the working directory", ":" + in("bin1"), "mytool", "cwd"},
		{"a trailing empty element is the working directory", "/nowhere:", "mytool", "cwd"},
		{"an empty element between is the working directory", "/nowhere::" + in("bin1"), "mytool", "cwd"},
		{"an empty PATH is the working directory", "", "mytool", "cwd"},
		{"a relative element is in the working directory", "rel:" + in("bin1"), "mytool", "rel"},
		{"not found", "/nowhere:" + in("dironly"), "mytool", ""},
		{"a name with a slash is in the working directory", "/nowhere", "tools/run", "tools"},
		{"a name with ./ is in the working directory", "/nowhere", "./tools/run", "tools"},
		{"a name with a slash is not looked for in PATH", in("bin1"), "./mytool", "cwd"},
		{"a name with a slash that is not there", in("bin1"), "./tools/mytool", ""},
		{"an absolute name", "/nowhere", filepath.Join(root, "bin2", "mytool"), "bin2"},
	}
	shell, err := exec.LookPath("sh")
	require.NoError(t, err)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := []string{"PATH=" + tt.path}
			said, ran := runIn(shell, []string{"-c", "exec " + tt.prog}, env, work)
			require.Equal(t, tt.want, said, "sh itself, the behaviour to match (ran: %v)", ran)

			found, err := LookPath(tt.prog, env, work)
			if tt.want == "" {
				require.Error(t, err, "found %q", found)
				assert.True(t, errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist), "%v", err)
				return
			}
			require.NoError(t, err)
			said, ran = runIn(found, nil, env, work)
			assert.True(t, ran, "run %q in %s", found, work)
			assert.Equal(t, tt.want, said, "found %q", found)
		})
	}
}

// The error says which PATH was searched, the process's or, when its
// environment has none, procs' own.
func TestLookPathSaysWhichPATHItSearched(t *testing.T) {
	_, err := LookPath("mytool", []string{"HOME=/nowhere", "PATH=/a/bin:/usr/bin"}, t.TempDir())
	require.Error(t, err)
	assert.Equal(t, `"mytool" not found in the process's PATH (/a/bin:/usr/bin)`, err.Error())
	assert.True(t, errors.Is(err, exec.ErrNotFound))

	t.Setenv("PATH", "/procs/bin")
	_, err = LookPath("mytool", []string{"HOME=/nowhere"}, t.TempDir())
	require.Error(t, err)
	assert.Equal(t, `"mytool" not found in procs' PATH (/procs/bin): the process's environment has no PATH`, err.Error())

	// A path is no search: the error is the file's.
	_, err = LookPath("./mytool", nil, "/nowhere")
	require.Error(t, err)
	assert.ErrorIs(t, err, fs.ErrNotExist)
	assert.Equal(t, "exec /nowhere/mytool: no such file or directory", err.Error())
}

// With no PATH in the process's environment (or no environment of its
// own: procs'), procs' PATH is searched, as os/exec does.
func TestLookPathFallsBackToProcsPATH(t *testing.T) {
	root, work := toolbox(t)
	t.Setenv("PATH", filepath.Join(root, "bin2"))
	for _, env := range [][]string{nil, {"HOME=/nowhere"}} {
		found, err := LookPath("mytool", env, work)
		require.NoError(t, err)
		assert.Equal(t, filepath.Join(root, "bin2", "mytool"), found)
	}
}

// The last PATH of an environment is the one the child gets (os/exec
// drops the earlier ones), so it is the one searched.
func TestLookPathTakesTheLastPATH(t *testing.T) {
	root, work := toolbox(t)
	env := []string{"PATH=" + filepath.Join(root, "bin1"), "PATH=" + filepath.Join(root, "bin2")}
	found, err := LookPath("mytool", env, work)
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(root, "bin2", "mytool"), found)
}

// A program not found names the one of its PATH a typo away, if any:
// only programs (not a folder, not a file that does not run), and in a
// relative folder of the PATH as seen from the process's folder.
func TestLookPathNamesTheProgramATypoAway(t *testing.T) {
	root, work := toolbox(t)
	writeTool(t, filepath.Join(root, "bin1", "python3"), "python")
	env := []string{"PATH=" + filepath.Join(root, "bin1") + ":rel:" + filepath.Join(root, "dironly") + ":" + filepath.Join(root, "noexec")}
	_, err := LookPath("pyhton3", env, work)
	require.Error(t, err)
	assert.Contains(t, err.Error(), ` (did you mean "python3"?)`)
	assert.Equal(t, "python3", SimilarProgram("pyhton3", env, work))
	assert.Equal(t, "mytool", SimilarProgram("mytol", env, work), "two copies of it, both programs")
	assert.Equal(t, "", SimilarProgram("nodejs", env, work), "nothing close")
	assert.Equal(t, "", SimilarProgram("py", env, work), "a short name needs a close match")
	assert.Equal(t, "", SimilarProgram("pyton", env, work), "two typos away")
	onlyBroken := []string{"PATH=" + filepath.Join(root, "dironly") + ":" + filepath.Join(root, "noexec")}
	assert.Equal(t, "", SimilarProgram("mytol", onlyBroken, work), "a folder and a file that does not run are no programs")
	assert.Equal(t, "mytool", SimilarProgram("mytoo", []string{"PATH=rel"}, work), "a relative folder, in the process's folder")
}
