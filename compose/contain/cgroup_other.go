//go:build !linux

package contain

import (
	"errors"
	"os"
	"os/exec"
	"runtime"
	"time"
)

// NoCgroupsVar turns the cgroups off (PROCS_CGROUPS=off) where they exist.
const NoCgroupsVar = "PROCS_CGROUPS"

// errNoCgroups says why no run gets a cgroup here.
var errNoCgroups = errors.New("cgroups are Linux only; on " + runtime.GOOS +
	" a run is its process group, its PROCS_OWNER marker and its descendants")

// cgroupSet is never made outside Linux: the functions below exist so that
// the portable code needs no build tags.
type cgroupSet struct{ base string }

func newCgroupSet(string) (*cgroupSet, error)      { return nil, errNoCgroups }
func (c *cgroupSet) open(Owner) (*os.File, error)  { return nil, errNoCgroups }
func (c *cgroupSet) dir(Owner) (string, bool)      { return "", false }
func (c *cgroupSet) kill(Owner) (had, killed bool) { return false, false }
func (c *cgroupSet) removeIfEmpty(Owner) bool      { return false }
func (c *cgroupSet) close()                        {}
func setCgroupFD(*exec.Cmd, *os.File)              {}
func killCgroup(string)                            {}
func removeCgroup(string)                          {}
func waitCgroupEmpty(string, time.Duration) bool   { return true }
func cgroupMembers(string) []int                   { return nil }
