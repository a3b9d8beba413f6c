package control

import (
	"bytes"
	"os"
	"strconv"
)

// processRuns reports whether the process pid is known to run rather than
// be stopped (Ctrl-Z, SIGSTOP): read from /proc on Linux; false when it is
// stopped, gone, or its state cannot be read.
func processRuns(pid int) bool {
	if pid <= 0 {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// "pid (comm) S ...": comm may hold spaces and parentheses, so the
	// state follows the last ')'.
	end := bytes.LastIndexByte(stat, ')')
	if end < 0 || end+2 >= len(stat) {
		return false
	}
	switch stat[end+2] {
	case 'R', 'S', 'D':
		return true
	}
	return false
}
