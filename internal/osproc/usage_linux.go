package osproc

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"time"
)

// clockTick is the unit of the CPU times of /proc/PID/stat: USER_HZ, which
// the kernel fixes at 100 for every architecture procs runs on.
const clockTick = 10 * time.Millisecond

// Usage reads what pid has used: its CPU time, with that of the children
// it has waited for, and its resident memory now and at its highest
// (VmRSS and VmHWM of /proc/PID/status).
func Usage(pid int) (ProcessUsage, error) {
	fields := statFields(pid)
	// utime, stime, cutime and cstime are fields 14 to 17.
	const utimeField = 14 - 3
	if len(fields) < utimeField+4 {
		return ProcessUsage{}, os.ErrNotExist
	}
	var ticks uint64
	for _, f := range fields[utimeField : utimeField+4] {
		n, _ := strconv.ParseUint(f, 10, 64)
		ticks += n
	}
	u := ProcessUsage{CPU: time.Duration(ticks) * clockTick}
	data, err := os.ReadFile(procRoot + "/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return ProcessUsage{}, err
	}
	s := bufio.NewScanner(bytes.NewReader(data))
	for s.Scan() {
		key, value, ok := bytes.Cut(s.Bytes(), []byte(":"))
		if !ok {
			continue
		}
		switch string(key) {
		case "VmRSS":
			u.Memory = kilobytes(value)
		case "VmHWM":
			u.Peak = kilobytes(value)
		}
	}
	return u, nil
}

// kilobytes reads a value of /proc/PID/status such as "  2048 kB".
func kilobytes(value []byte) uint64 {
	n, _ := strconv.ParseUint(string(bytes.TrimSuffix(bytes.TrimSpace(value), []byte(" kB"))), 10, 64)
	return n << 10
}
