// Package statedir creates .procs, the folder where procs keeps its state
// beside procs.yaml (socket record, pid lock, logs, tokens): private to its
// user, and ignored by git without anyone editing .gitignore.
package statedir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Name is the state folder's name, inside the project folder.
const Name = ".procs"

// Perm is the state folder's mode: it holds logs, which carry secrets.
const Perm = 0o700

// gitignore makes git ignore everything in the folder, itself included.
const gitignore = "# Written by procs: its state and logs are not part of the project.\n*\n"

// Ensure creates projectDir/.procs (mode 0700, made private if an older
// procs left it open) with a .gitignore, and returns its path.
func Ensure(projectDir string) (string, error) {
	dir := filepath.Join(projectDir, Name)
	if err := os.MkdirAll(dir, Perm); err != nil {
		return "", fmt.Errorf("create %s: %w", Name, err)
	}
	if err := os.Chmod(dir, Perm); err != nil {
		return "", fmt.Errorf("make %s private: %w", Name, err)
	}
	ignore := filepath.Join(dir, ".gitignore")
	if _, err := os.Stat(ignore); errors.Is(err, fs.ErrNotExist) {
		// Best effort: a project that cannot take it still runs.
		_ = os.WriteFile(ignore, []byte(gitignore), 0o600)
	}
	return dir, nil
}
