//go:build !linux

package osproc

// AppendEnviron appends the environment pid was started with (as Environ
// gives it) to buf, and returns buf as it was when the environment cannot
// be read.
func AppendEnviron(buf []byte, pid int) []byte {
	env, err := Environ(pid)
	if err != nil {
		return buf
	}
	return append(buf, env...)
}
