package statedir

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
)

// ensureGitignore writes dir/.gitignore unless it holds exactly what procs
// writes. Anything else (empty after a full disk, cut short, edited) could
// let git list the logs, so it is rewritten on every start.
func ensureGitignore(dir string) error {
	file := filepath.Join(dir, ".gitignore")
	if holds(file, []byte(gitignore)) {
		return nil
	}
	return writeAtomic(file, []byte(gitignore))
}

// holds reports whether file's content is want, reading no more than one
// byte past it.
func holds(file string, want []byte) bool {
	f, err := os.Open(file)
	if err != nil {
		return false
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, int64(len(want))+1))
	return err == nil && bytes.Equal(data, want)
}

// writeAtomic replaces file with data (mode 0600) through a temporary file
// in the same folder and a rename, so that file is never seen empty or cut
// short: a failed write (a full disk) leaves it as it was, and no
// temporary file.
func writeAtomic(file string, data []byte) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(file), filepath.Base(file)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	// Synced before the rename, so that a crash cannot leave the new name
	// on an empty file.
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), file)
}
