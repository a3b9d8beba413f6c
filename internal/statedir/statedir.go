// Package statedir creates .procs, the folder where procs keeps its state
// beside procs.yaml (socket record, pid lock, logs, tokens): private to its
// user, and ignored by git without anyone editing .gitignore.
package statedir

import (
	"fmt"
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
// procs left it open) with its .gitignore, and returns its path. It fails
// when the .gitignore cannot be written: procs would otherwise write logs
// that git lists, with the secrets they hold.
func Ensure(projectDir string) (string, error) {
	dir := filepath.Join(projectDir, Name)
	if err := os.MkdirAll(dir, Perm); err != nil {
		return "", fmt.Errorf("create %s: %w", Name, err)
	}
	if err := os.Chmod(dir, Perm); err != nil {
		return "", fmt.Errorf("make %s private: %w", Name, err)
	}
	if err := ensureGitignore(dir); err != nil {
		return "", fmt.Errorf("write %s/.gitignore, which keeps its logs out of git: %w", Name, err)
	}
	return dir, nil
}
