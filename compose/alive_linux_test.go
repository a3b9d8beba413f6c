package compose

import (
	"slices"

	"github.com/procsdev/procs/internal/osproc"
)

// alive lists the pids that still exist and are not zombies.
func alive(pids []int) []int {
	return slices.DeleteFunc(slices.Clone(pids), func(pid int) bool { return !osproc.Live(pid) })
}
