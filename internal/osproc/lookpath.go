package osproc

import (
	"cmp"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/procsdev/procs/internal/typo"
)

// NotInPathError says that a program was looked for in a PATH and is in
// none of its folders. It matches exec.ErrNotFound.
type NotInPathError struct {
	// Name is the program looked for, as the command gives it.
	Name string
	// Path is the PATH searched.
	Path string
	// ProcsPath says that Path is procs' own: the child's environment has
	// no PATH.
	ProcsPath bool
	// similar is the program of Path a typo away from Name, if any
	// (SimilarProgram), looked for once the error is said: reading every
	// folder of a PATH is for a message, not for a lookup whose error is
	// only asked (a preset's probe program that is not installed).
	similar func() string
}

func (e *NotInPathError) Error() string {
	msg := fmt.Sprintf("%q not found in the process's PATH (%s)", e.Name, e.Path)
	if e.ProcsPath {
		msg = fmt.Sprintf("%q not found in procs' PATH (%s): the process's environment has no PATH", e.Name, e.Path)
	}
	if e.similar != nil {
		if similar := e.similar(); similar != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", similar)
		}
	}
	return msg
}

// Unwrap makes the error match exec.ErrNotFound, as os/exec's does.
func (e *NotInPathError) Unwrap() error { return exec.ErrNotFound }

// Shell is where sh is, found in procs' PATH once; "" when it is not
// there. A shell string is procs' to run, with procs' sh, which then
// searches the child's PATH for what the string runs: the child's PATH
// need not hold sh (PATH: .venv/bin alone).
var Shell = sync.OnceValue(func() string {
	path, err := exec.LookPath("sh")
	if err != nil {
		return ""
	}
	return path
})

// ProgramFor is the program a child started in dir with environment env
// runs for argv0: procs' sh (Shell) for sh, looked up once, not on each of
// two hundred starts or each probe; anything else, and sh where procs has
// none, found as LookPath finds it.
func ProgramFor(argv0 string, env []string, dir string) (string, error) {
	if argv0 == "sh" && Shell() != "" {
		return Shell(), nil
	}
	return LookPath(argv0, env, dir)
}

// LookPath finds the program a child started in dir with environment env
// runs for name, where the child's own shell would find it, which os/exec
// does not (it searches procs' PATH). A name with a separator is a path,
// relative to dir; any other name is looked for in each folder of the
// PATH of env in turn, a relative folder being in dir (and, on Unix, an
// empty element being dir itself, as for sh). An env without PATH is
// searched in procs' PATH, as os/exec would; nil is procs' environment.
//
// The path returned is for exec.Command with Dir set to dir: relative
// where what it found is (the child resolves it after its chdir), and
// never a bare name, which exec.Command would look up in procs' PATH again.
// A name not found in PATH is a *NotInPathError; a path that is no program
// is an *fs.PathError.
func LookPath(name string, env []string, dir string) (string, error) {
	if strings.ContainsAny(name, nameSeparators) {
		file := inDir(dir, name)
		ext, err := programExt(file, env)
		if err != nil {
			return "", &fs.PathError{Op: "exec", Path: file, Err: err}
		}
		return name + ext, nil
	}
	path, procsPath := pathOf(env)
	for _, folder := range pathFolders(path) {
		candidate := filepath.Join(folder, name)
		if filepath.Base(candidate) == candidate {
			// An empty element or ".": a bare name is no path to exec.Command.
			candidate = "." + string(filepath.Separator) + candidate
		}
		if ext, err := programExt(inDir(dir, candidate), env); err == nil {
			return candidate + ext, nil
		}
	}
	similar := sync.OnceValue(func() string { return SimilarProgram(name, env, dir) })
	return "", &NotInPathError{Name: name, Path: path, ProcsPath: procsPath, similar: similar}
}

// pathOf is the PATH a child with environment env gets: the last PATH of
// env (os/exec passes on the last of a variable set twice), or procs' own
// when env has none (procsPath), or is nil (procs' environment).
func pathOf(env []string) (path string, procsPath bool) {
	if env == nil {
		return os.Getenv("PATH"), false
	}
	for i := len(env) - 1; i >= 0; i-- {
		if key, value, ok := strings.Cut(env[i], "="); ok && sameEnvKey(key, "PATH") {
			return value, false
		}
	}
	return os.Getenv("PATH"), true
}

// pathFolders splits path into the folders to search, in order; "" stands
// for the working directory.
func pathFolders(path string) []string {
	folders := filepath.SplitList(path)
	if path == "" {
		// filepath.SplitList("") is no element at all; sh's empty PATH is
		// one empty element.
		folders = []string{""}
	}
	if !emptyElementIsDir {
		folders = slices.DeleteFunc(folders, func(f string) bool { return f == "" })
	}
	return folders
}

// underlying is the system's error inside an *fs.PathError: the path is
// the caller's to say.
func underlying(err error) error {
	if pathErr, ok := err.(*fs.PathError); ok {
		return pathErr.Err
	}
	return err
}

// inDir is file as seen from dir, where a relative file is.
func inDir(dir, file string) string {
	if dir == "" || filepath.IsAbs(file) {
		return file
	}
	return filepath.Join(dir, file)
}

// SimilarProgram is the program, in the PATH a child started in dir with
// environment env searches, whose name is a typo away from name
// ("pyhton3": "python3"), or "" when none is that close. It reads every
// folder of that PATH: it is for the message of a program not found,
// never for a start.
func SimilarProgram(name string, env []string, dir string) string {
	// One typo (a swap of neighbours is one): /usr/bin holds thousands
	// of names, and two edits of a short one reach many.
	const limit = 1
	if len([]rune(name)) < 3 {
		return ""
	}
	path, _ := pathOf(env)
	best, bestDist := "", limit+1
	for _, folder := range pathFolders(path) {
		folder = inDir(dir, folder)
		entries, err := os.ReadDir(cmp.Or(folder, "."))
		if err != nil {
			continue
		}
		for _, entry := range entries {
			candidate := entry.Name()
			if abs(len(candidate)-len(name)) > limit {
				continue // too far apart, and keeps /usr/bin cheap
			}
			d := typo.Distance(name, candidate)
			if d == 0 || d > bestDist || d == bestDist && candidate >= best {
				continue
			}
			if _, err := programExt(filepath.Join(folder, candidate), env); err == nil {
				best, bestDist = candidate, d
			}
		}
	}
	return best
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
