package osproc

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// CgroupMembers lists the processes in the cgroup folder dir and in the
// cgroups below it (cgroup.procs of each); none where there is no such
// folder, as on the systems without cgroups.
//
// A run's cgroup mostly has no cgroup below it, and it is read on every
// stop: its folder (some thirty control files) is listed only when its
// link count says it has subfolders.
func CgroupMembers(dir string) []int {
	var buf [512]byte
	var pids []int
	for field := range strings.FieldsSeq(string(ReadKernelFile(filepath.Join(dir, "cgroup.procs"), buf[:0]))) {
		if pid, err := strconv.Atoi(field); err == nil {
			pids = append(pids, pid)
		}
	}
	if !hasSubfolders(dir) {
		return pids
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.IsDir() {
			pids = append(pids, CgroupMembers(filepath.Join(dir, e.Name()))...)
		}
	}
	return pids
}
