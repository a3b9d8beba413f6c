package osproc

import (
	"errors"
	"os"
	"slices"
	"strconv"
	"syscall"
	"time"
)

// Environ returns the environment pid was started with, NUL-separated
// "KEY=value" entries (as /proc/PID/environ has it).
func Environ(pid int) ([]byte, error) {
	return appendEnviron(nil, pid)
}

// AppendEnviron appends the environment pid was started with (as Environ
// gives it) to buf, and returns buf as it was when the environment cannot
// be read. A look through every process reuses one buffer: the kernel
// copies the environment out in one read when the buffer holds it, where
// os.ReadFile starts from 512 bytes and reads (each read a walk of the
// other process's memory) as often as it grows.
func AppendEnviron(buf []byte, pid int) []byte {
	if out, err := appendEnviron(buf, pid); err == nil {
		return out
	}
	return buf
}

// execWaitLimit bounds how long a read of an environment waits for an
// exec to finish: an exec takes microseconds to milliseconds, and one
// stuck (a binary on a hung network mount) must not hold a sweep.
const execWaitLimit = 500 * time.Millisecond

// appendEnviron reads the environment of pid after buf. The kernel
// answers an empty environment while the process is in the middle of an
// exec: a read that began on the memory the exec drops, or one made
// before the new stack is laid out. That answer is not the process's
// environment, and taking it hid the PROCS_OWNER marker of a process
// starting a program (a daemon exec'ing its server as procs swept), so
// the read is made again once the exec is done. An empty answer stands
// only where it is the truth: for a kernel thread and a process exiting
// (they have no memory), and for a process whose laid-out environment is
// empty (it starts where it ends), seen so twice a pause apart: an exec
// laying the environment out sets its end to its start before it writes
// the strings. An empty answer for a process whose environment is not is
// a read that met an exec, however many came in a row: believing the
// second such answer missed a marker in CI, of a shell exec'ing itself in
// a loop.
func appendEnviron(buf []byte, pid int) ([]byte, error) {
	path := procRoot + "/" + strconv.Itoa(pid) + "/environ"
	var deadline time.Time // set at the first empty answer: most have none
	emptySeenAt := ""      // where an environment seen empty started
	for pause := 50 * time.Microsecond; ; pause = min(2*pause, 20*time.Millisecond) {
		out, err := readInOne(path, buf)
		if err != nil {
			return nil, err
		}
		if len(out) > len(buf) {
			return out, nil
		}
		if deadline.IsZero() {
			deadline = time.Now().Add(execWaitLimit)
		} else if time.Now().After(deadline) {
			return out, nil
		}
		mem, envStart := memoryOf(pid)
		switch {
		case mem == noMemory:
			return out, nil
		case mem == emptyEnviron && envStart == emptySeenAt:
			return out, nil // empty twice, a pause apart: it is empty
		case mem == emptyEnviron:
			emptySeenAt = envStart
		default:
			emptySeenAt = ""
		}
		time.Sleep(pause)
	}
}

// memory says what /proc/PID/stat shows of a process's memory.
type memory int

const (
	// noMemory: a kernel thread, a process exiting or exited, or gone.
	noMemory memory = iota
	// emptyEnviron: the memory's environment starts where it ends: it is
	// empty, or an exec is laying it out this moment.
	emptyEnviron
	// execUnder: the memory has no environment laid out yet (the process
	// is between the two halves of an exec), or has one that is not
	// empty, which an empty read then missed: an exec came under it.
	execUnder
)

// memoryOf reads the flags (field 9), which tell kernel threads and
// exiting tasks, and the environment's start and end addresses (fields 50
// and 51, the end 0 until the exec lays out the stack) from
// /proc/PID/stat.
// envStart is where the environment starts, as stat gives it.
func memoryOf(pid int) (mem memory, envStart string) {
	const (
		flagsField    = 9 - 3
		envStartField = 50 - 3
		envEndField   = 51 - 3
		pfExiting     = 0x4
		pfKthread     = 0x200000
	)
	fields := statFields(pid)
	if len(fields) <= envEndField || fields[0] == "Z" || fields[0] == "X" {
		return noMemory, ""
	}
	flags, err := strconv.ParseUint(fields[flagsField], 10, 64)
	if err != nil || flags&(pfExiting|pfKthread) != 0 {
		return noMemory, ""
	}
	start := fields[envStartField]
	if end := fields[envEndField]; end != "0" && end == start {
		return emptyEnviron, start
	}
	return execUnder, start
}

// readInOne appends the content of path to buf, read by one system call
// from its start: /proc/PID/environ copies the environment out of the
// process's memory on each read, and two reads may straddle an exec, which
// makes the second find none, cutting the environment short (a marker at
// its end lost). A buffer the content fills is doubled and the read made
// again from the start. Not ReadKernelFile, which reads on to the end: a
// seq_file (stat, children, cgroup.procs) gives at most a page per read,
// so a short read there does not mean the end; environ fills the buffer.
func readInOne(path string, buf []byte) ([]byte, error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	free := max(cap(buf)-len(buf), environRead)
	for {
		buf = slices.Grow(buf, free)
		n, err := syscall.Pread(fd, buf[len(buf):len(buf)+free], 0)
		switch {
		case errors.Is(err, syscall.EINTR):
		case err != nil:
			return nil, &os.PathError{Op: "read", Path: path, Err: err}
		case n < free:
			return buf[:len(buf)+n], nil
		default:
			free *= 2
		}
	}
}

// environRead is the least a read of an environment asks for: most
// environments fit, and are copied out in one read.
const environRead = 16 << 10
