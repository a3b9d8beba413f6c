//go:build unix

package osproc

import (
	"errors"
	"syscall"
)

// ReadKernelFile appends the content of a small file the kernel makes
// (cgroup.events, cgroup.procs, /proc/PID/stat) to buf and returns it;
// nil when it cannot be read. It takes three system calls where
// os.ReadFile takes six or more (a size look, a poller registration that
// such files refuse): it runs once per run on every stop.
func ReadKernelFile(path string, buf []byte) []byte {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	defer syscall.Close(fd)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return nil
		}
		if n == 0 {
			return buf
		}
		buf = buf[:len(buf)+n]
	}
}
