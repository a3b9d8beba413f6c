package contain

import (
	"fmt"
	"os"
	"strings"
)

// alive lists the pids that still exist and are not zombies.
func alive(pids []int) []int {
	var out []int
	for _, pid := range pids {
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		if len(fields) > 0 && fields[0] != "Z" {
			out = append(out, pid)
		}
	}
	return out
}

func allGone(pids []int) bool { return len(alive(pids)) == 0 }
