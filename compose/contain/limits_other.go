//go:build !linux

package contain

import (
	"os/exec"
	"runtime"
	"time"

	"github.com/procsdev/procs/rules"
)

// limitSet is never made outside Linux: no limit can be enforced there.
type limitSet struct{}

func (ls *limitSet) close() {}

// runLimits is never made outside Linux.
type runLimits struct{}

func (r *runLimits) remove()                        {}
func (r *runLimits) memoryKill() *rules.MemoryLimit { return nil }

// limitRun enforces nothing: procs check and up said so.
func (s *spawner) limitRun(*exec.Cmd, Owner, Limits) (*runLimits, error) { return nil, nil }

// limitsIfMade returns nil: no engine has limits here.
func (e *enrolled) limitsIfMade() *limitSet { return nil }

// LimitsAvailable says that no limit can be enforced outside Linux.
func LimitsAvailable(l Limits) error {
	if l.IsZero() {
		return nil
	}
	return &LimitsError{Limits: l.names(), Why: "resource limits need Linux cgroups, and this is " + runtime.GOOS}
}

// RunCPUThrottled is never ok outside Linux: no CPU limit is enforced.
func RunCPUThrottled(Owner) (time.Duration, bool) { return 0, false }
