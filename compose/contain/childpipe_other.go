//go:build !unix

package contain

import "os"

// childPipe makes a pipe between procs and a child; procs reads ours, or
// writes it when toChild.
func childPipe(toChild bool) (ours, theirs *os.File, err error) {
	r, w, err := os.Pipe()
	if toChild {
		return w, r, err
	}
	return r, w, err
}
