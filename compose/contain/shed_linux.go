package contain

import (
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// ShedBinaryPages drops from this process's memory the pages of its
// binary (and of the libraries it loaded) that it has touched: code and
// read-only data, which procs' start (every package's initialisation
// included) touches although it idles on little of it once every process
// is up. They stay in the page
// cache, shared, and come back on the next access, so nothing changes but
// the resident size (the ~16 MB a procs binary's start touches, down to
// what its loop does).
//
// Only a mapping that holds no page of its own is dropped: a writable one,
// or a read-only one written before it was made so (the loader's
// relocations, RELRO), would lose what was written and come back as the
// file has it.
func ShedBinaryPages() {
	smaps, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		return
	}
	var start, end uint64
	var shed bool
	for _, line := range strings.Split(string(smaps), "\n") {
		fields := strings.Fields(line)
		switch {
		case len(fields) >= 5 && strings.Contains(fields[0], "-") && !strings.HasSuffix(fields[0], ":"):
			// START-END PERMS OFFSET DEV INODE [PATH]: a new mapping.
			start, end, shed = mappingToShed(fields)
		case shed && len(fields) >= 2 && fields[0] == "Anonymous:" && fields[1] == "0":
			_, _, _ = unix.Syscall(unix.SYS_MADVISE, uintptr(start), uintptr(end-start), unix.MADV_DONTNEED)
		}
	}
}

// mappingToShed reads a mapping's heading line of smaps: its range, and
// whether it is a read-only mapping of a file (a candidate to shed).
func mappingToShed(fields []string) (start, end uint64, ok bool) {
	if len(fields) < 6 || !strings.HasPrefix(fields[5], "/") || strings.Contains(fields[1], "w") {
		return 0, 0, false
	}
	from, to, found := strings.Cut(fields[0], "-")
	start, err1 := strconv.ParseUint(from, 16, 64)
	end, err2 := strconv.ParseUint(to, 16, 64)
	return start, end, found && err1 == nil && err2 == nil && end > start
}
