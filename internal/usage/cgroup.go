package usage

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// cgroupCPU reads usage_usec from a cgroup v2's cpu.stat, which the
// kernel keeps with or without the cpu controller.
func cgroupCPU(dir string) (time.Duration, bool) {
	data, err := os.ReadFile(filepath.Join(dir, "cpu.stat"))
	if err != nil {
		return 0, false
	}
	s := bufio.NewScanner(bytes.NewReader(data))
	for s.Scan() {
		if rest, ok := bytes.CutPrefix(s.Bytes(), []byte("usage_usec ")); ok {
			usec, err := strconv.ParseUint(string(rest), 10, 64)
			return time.Duration(usec) * time.Microsecond, err == nil
		}
	}
	return 0, false
}

// cgroupValue reads a file of a cgroup that holds one number, such as
// memory.current; false when the controller is not there.
func cgroupValue(dir, name string) (uint64, bool) {
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return 0, false
	}
	n, err := strconv.ParseUint(strings.TrimSpace(string(data)), 10, 64)
	return n, err == nil
}
