package rules

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// probePortGrace is how long a run with a ReadyProbe whose port its tree
// is not seen listening on waits, its ready condition otherwise holding,
// before it is ready without the probe: the port watcher looks every
// 250 ms at most (50 ms in its first half minute: portWatchSchedule), so
// a port opened just before the ready line is seen in this time; a server that never listens on it (postgres on a Unix socket
// only, redis --port 0) is ready by its line this much later.
const probePortGrace = 500 * time.Millisecond

// ProbeGate reports whether the engine should run the spec's ReadyProbe
// now, given the ports the process tree listens on: it has one, and the
// tree listens on its port. A probe of a port the tree does not hold would
// ask another program.
func (s *Spec) ProbeGate(ports []int) bool {
	return s.ReadyProbe != nil && slices.Contains(ports, s.ProbePort)
}

// gatingProbe is the probe whose latest result holds the run's readiness
// now, nil when none does: the healthcheck of procs.yaml (which replaces
// the preset's ReadyProbe), else the ReadyProbe once the tree listens on
// its port (before, there is nothing to ask).
func (d *Detector) gatingProbe() *ProbeSpec {
	switch {
	case d.spec.Healthcheck != nil:
		return d.spec.Healthcheck
	case d.spec.ProbeGate(d.ports):
		return d.spec.ReadyProbe
	}
	return nil
}

// probeAgrees reports whether the probes let the run be ready: none holds
// it (gatingProbe), or the latest result is OK.
func (d *Detector) probeAgrees() bool {
	return d.gatingProbe() == nil || d.probe.OK
}

// settle is how long the ready condition must hold: the spec's Settle, and
// at least probePortGrace while a ReadyProbe's port is not seen listened on.
func (d *Detector) settle() time.Duration {
	if d.spec.ReadyProbe != nil && !d.spec.ProbeGate(d.ports) {
		return max(d.spec.Settle(), probePortGrace)
	}
	return d.spec.Settle()
}

// probeReadyText says what the gating probe answered, for the ready
// message; "" when none decided.
func (d *Detector) probeReadyText() string {
	probe := d.gatingProbe()
	if probe == nil || !d.probe.OK {
		return ""
	}
	return DescribeProbe(*probe) + " " + answered(d.probe)
}

// probeWaitText says what the gating probe has said so far, for the
// timeout message; "" when it does not hold the run back.
func (d *Detector) probeWaitText() string {
	probe := d.gatingProbe()
	if probe == nil || d.probe.OK {
		return ""
	}
	what := DescribeProbe(*probe)
	switch {
	case d.probe.Time.IsZero():
		return what + " not answered yet"
	case strings.HasPrefix(d.probe.Err, what):
		return d.probe.Err // "GET http://…/health: 404 Not Found"
	}
	return what + " failing: " + d.probe.Err
}

// DescribeProbe names a probe for people: `GET http://localhost:8080/health`,
// `"PING\r\n" to localhost:6379`, `pg_isready`.
func DescribeProbe(p ProbeSpec) string {
	switch p.Kind {
	case ProbeHTTP:
		return "GET " + p.URL
	case ProbeTCP:
		if p.Send != "" {
			return fmt.Sprintf("probe %q to %s", p.Send, p.Addr)
		}
		return "probe of " + p.Addr
	case ProbeExec:
		if len(p.Argv) > 0 {
			return filepath.Base(p.Argv[0])
		}
	}
	return string(p.Kind) + " probe"
}

// answered says how a probe that passed answered.
func answered(r ProbeResult) string {
	switch {
	case r.Answer != "":
		return fmt.Sprintf("answered %q", r.Answer)
	case r.Kind == ProbeHTTP:
		return fmt.Sprintf("answered %d", r.Status)
	case r.Kind == ProbeExec:
		return "exited 0"
	}
	return "connected"
}
