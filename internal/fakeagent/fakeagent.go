// Package fakeagent locates the scripted fake agent CLI the tests drive
// through every interactive state (testdata/fakeagent.py): a Python program
// that draws a prompt box, a spinner, a question, a permission dialog and a
// theme picker with cursor moves, like a real agent TUI.
package fakeagent

import (
	"path/filepath"
	"runtime"
)

// Script returns the absolute path of the fake agent script.
func Script() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "testdata", "fakeagent.py")
}
