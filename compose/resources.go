package compose

import (
	"fmt"
	"strconv"
	"time"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/compose/contain"
)

// containLimits are the limits of resources: as containment takes them.
func containLimits(r config.Resources) contain.Limits {
	return contain.Limits{Memory: int64(r.Memory), CPU: r.CPU, Pids: r.Pids}
}

// throttleWindow is how far back a CPU throttle is told: "throttled 2.1 s
// in the last 10 s".
const throttleWindow = 10 * time.Second

// cpuHeld holds the samples of a run's throttled time, taken when its
// status is asked for (never on a timer: an idle procs does not wake up),
// to tell how much of the recent time the run was held at its CPU limit.
type cpuHeld struct {
	run     int
	samples []throttleSample // oldest first
}

type throttleSample struct {
	at        time.Time
	throttled time.Duration
}

// throttleNote says, for a running process with a CPU limit whose
// throttled time grew since the oldest sample within throttleWindow (or
// since its run started), how much: "held at its CPU limit (1.5 cores):
// throttled 2.1 s in the last 10 s"; "" otherwise.
func (e *Engine) throttleNote(ps *procState) string {
	cores := e.cfg.ResourcesOf(ps.cfg).CPU
	lp := ps.life
	if cores == 0 || !ps.running() {
		return ""
	}
	throttled, ok := contain.RunCPUThrottled(contain.Owner{Instance: e.instance, Name: ps.cfg.Name, Run: lp.Run})
	if !ok {
		return ""
	}
	now := time.Now()
	if ps.cpuHeld.run != lp.Run {
		ps.cpuHeld = cpuHeld{run: lp.Run, samples: []throttleSample{{at: lp.StartedAt}}}
	}
	base := ps.cpuHeld.add(throttleSample{at: now, throttled: throttled})
	grew, over := throttled-base.throttled, now.Sub(base.at)
	if grew <= 0 || over <= 0 {
		return ""
	}
	return fmt.Sprintf("held at its CPU limit (%s): throttled %s in the last %s",
		coresText(cores), seconds(grew), seconds(over))
}

// add records s and returns the sample to measure from: the latest one at
// least throttleWindow before s, else the oldest; older ones are dropped.
func (h *cpuHeld) add(s throttleSample) throttleSample {
	from := 0
	for i, old := range h.samples {
		if s.at.Sub(old.at) >= throttleWindow {
			from = i
		}
	}
	h.samples = append(h.samples[from:], s)
	return h.samples[0]
}

// coresText says a number of cores: "1 core", "1.5 cores".
func coresText(cores float64) string {
	text := strconv.FormatFloat(cores, 'f', -1, 64)
	if cores == 1 {
		return text + " core"
	}
	return text + " cores"
}

// seconds writes a duration in seconds with one decimal: "2.1 s".
func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', 1, 64) + " s"
}
