//go:build darwin || freebsd

package compose

import (
	"os/exec"
	"strconv"
	"strings"
)

// alive lists the pids that still exist and are not zombies (ps says Z).
func alive(pids []int) []int {
	var out []int
	for _, pid := range pids {
		stat, err := exec.Command("ps", "-o", "stat=", "-p", strconv.Itoa(pid)).Output()
		if state := strings.TrimSpace(string(stat)); err == nil && state != "" && !strings.HasPrefix(state, "Z") {
			out = append(out, pid)
		}
	}
	return out
}
