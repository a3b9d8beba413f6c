package control

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// maxSocketPath is the longest path a Unix socket address holds on Linux
// (sun_path is 108 bytes including the terminating NUL).
const maxSocketPath = 107

// stateDir is the folder, inside the project, holding procs' runtime files.
const stateDir = ".procs"

// The runtime files in stateDir.
const (
	socketName     = "procs.sock"
	socketRecord   = "socket"    // the socket path when it is not .procs/procs.sock
	pidFileName    = "procs.pid" // the pid of the running procs, locked while it runs
	runtimeDirPerm = 0o700
)

// socketPath returns where the socket of the project lives: .procs/procs.sock,
// or a short per-user path when that one is too long for a Unix socket.
func socketPath(projectDir string) (string, error) {
	dir, err := filepath.Abs(projectDir)
	if err != nil {
		return "", fmt.Errorf("socket path: %w", err)
	}
	path := filepath.Join(dir, stateDir, socketName)
	if len(path) <= maxSocketPath {
		return path, nil
	}
	return fallbackSocketPath(dir)
}

// fallbackSocketPath is a short socket path derived from the project folder:
// $XDG_RUNTIME_DIR/procs-<hash>.sock, else /tmp/procs-<uid>/<hash>.sock.
func fallbackSocketPath(projectDir string) (string, error) {
	sum := sha256.Sum256([]byte(projectDir))
	hash := hex.EncodeToString(sum[:8])
	if xdg := os.Getenv("XDG_RUNTIME_DIR"); xdg != "" {
		path := filepath.Join(xdg, "procs-"+hash+".sock")
		if info, err := os.Stat(xdg); err == nil && info.IsDir() && len(path) <= maxSocketPath {
			return path, nil
		}
	}
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("procs-%d", os.Getuid()))
	path := filepath.Join(dir, hash+".sock")
	if len(path) > maxSocketPath {
		dir = fmt.Sprintf("/tmp/procs-%d", os.Getuid())
		path = filepath.Join(dir, hash+".sock")
	}
	return path, nil
}

// ensurePrivateDir creates dir with mode 0700 and checks that it belongs to
// the current user, so no other user can plant or read a socket there.
func ensurePrivateDir(dir string) error {
	if err := os.MkdirAll(dir, runtimeDirPerm); err != nil {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	info, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("check %s: %w", dir, err)
	}
	if !info.IsDir() {
		return fmt.Errorf("%s is not a folder", dir)
	}
	if owner, ok := ownerOf(info); ok && owner != os.Getuid() {
		return fmt.Errorf("%s belongs to another user (uid %d)", dir, owner)
	}
	return nil
}

// resolveSocket returns the socket path a client should dial: the one
// recorded in .procs/socket, else the computed one.
func resolveSocket(projectDir string) (string, error) {
	data, err := os.ReadFile(filepath.Join(projectDir, stateDir, socketRecord))
	if err == nil {
		if path := strings.TrimSpace(string(data)); path != "" {
			return path, nil
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("read socket record: %w", err)
	}
	return socketPath(projectDir)
}
