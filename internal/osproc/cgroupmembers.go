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
func CgroupMembers(dir string) []int {
	var pids []int
	_ = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		data, _ := os.ReadFile(filepath.Join(path, "cgroup.procs"))
		for _, field := range strings.Fields(string(data)) {
			if pid, err := strconv.Atoi(field); err == nil {
				pids = append(pids, pid)
			}
		}
		return nil
	})
	return pids
}
