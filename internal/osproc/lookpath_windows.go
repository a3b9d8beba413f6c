package osproc

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// nameSeparators are the characters that make a command's name a path.
const nameSeparators = `/\:`

// emptyElementIsDir: an empty element of Path is skipped, as PowerShell
// and os/exec do.
const emptyElementIsDir = false

// sameEnvKey: Windows' variables are named without regard to case (Path).
func sameEnvKey(a, b string) bool { return strings.EqualFold(a, b) }

// programExt returns the extension that makes file a program (".exe" for
// "node"), "" when file has one already, from the PATHEXT of env (or procs'
// own).
func programExt(file string, env []string) (string, error) {
	exts := strings.Split(strings.ToLower(envValue(env, "PATHEXT", ".com;.exe;.bat;.cmd")), ";")
	if ext := strings.ToLower(filepath.Ext(file)); ext != "" {
		for _, e := range exts {
			if e == ext && isFile(file) {
				return "", nil
			}
		}
	}
	for _, ext := range exts {
		if ext != "" && isFile(file+ext) {
			return ext, nil
		}
	}
	return "", syscall.ENOENT
}

// envValue is the last value of key in env, procs' own when env has none,
// fallback when neither has one.
func envValue(env []string, key, fallback string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(env[i], "="); ok && sameEnvKey(k, key) {
			return v
		}
	}
	if v := os.Getenv(key); v != "" {
		return v
	}
	return fallback
}

func isFile(file string) bool {
	info, err := os.Stat(file)
	return err == nil && !info.IsDir()
}
