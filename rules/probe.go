package rules

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os/exec"
	"strings"
	"time"
)

// ProbeKind names a kind of probe.
type ProbeKind string

// The kinds of probe.
const (
	ProbeHTTP ProbeKind = "http"
	ProbeTCP  ProbeKind = "tcp"
	ProbeExec ProbeKind = "exec"
)

// DefaultProbeTimeout bounds one probe when ProbeSpec.Timeout is 0.
const DefaultProbeTimeout = 5 * time.Second

// DefaultProbeInterval is the time between probes when RunProbe is given 0.
const DefaultProbeInterval = time.Second

// ProbeSpec says what to probe: URL for http, Addr (host:port) for tcp,
// Argv (run in Dir) for exec.
type ProbeSpec struct {
	Kind    ProbeKind
	URL     string
	Addr    string
	Argv    []string
	Dir     string
	Timeout time.Duration
}

// ProbeResult is the outcome of one probe.
type ProbeResult struct {
	Kind ProbeKind
	// OK: HTTP status below 400, TCP connected, or exec exited 0.
	OK bool
	// Status is the HTTP status, or the exit code of an exec probe.
	Status int
	// Err says why the probe failed, "" when it did not.
	Err  string
	Time time.Time
}

// RunProbe probes p at once and then every interval until ctx is done,
// passing each result to out. No result is reported after ctx is done.
func RunProbe(ctx context.Context, p ProbeSpec, interval time.Duration, out func(ProbeResult)) {
	if interval <= 0 {
		interval = DefaultProbeInterval
	}
	// A server becomes reachable soon after it starts: probe quickly at
	// first, doubling the wait up to the interval.
	wait := min(probeFirstWait, interval)
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-timer.C:
		}
		r := Probe(ctx, p)
		if ctx.Err() != nil {
			return
		}
		out(r)
		timer.Reset(wait)
		wait = min(wait*2, interval)
	}
}

// probeFirstWait is the wait after the first probe of a run.
const probeFirstWait = 50 * time.Millisecond

// Probe runs one probe, bounded by p.Timeout.
func Probe(ctx context.Context, p ProbeSpec) ProbeResult {
	timeout := p.Timeout
	if timeout <= 0 {
		timeout = DefaultProbeTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var r ProbeResult
	switch p.Kind {
	case ProbeHTTP:
		r = probeHTTP(ctx, p.URL)
	case ProbeTCP:
		r = probeTCP(ctx, p.Addr)
	case ProbeExec:
		r = probeExec(ctx, p.Argv, p.Dir)
	default:
		r = ProbeResult{Err: fmt.Sprintf("unknown probe kind %q", p.Kind)}
	}
	if !r.OK && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		r.Err = fmt.Sprintf("%s probe timed out after %s", p.Kind, timeout)
	}
	r.Kind, r.Time = p.Kind, time.Now()
	return r
}

// probeClient does not follow redirects (a 3xx already says the server
// answers) nor keep connections (a probe every few seconds needs none, and
// an idle connection would outlive the run it probed).
var probeClient = &http.Client{
	Transport:     &http.Transport{DisableKeepAlives: true, Proxy: nil},
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}

func probeHTTP(ctx context.Context, url string) ProbeResult {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return ProbeResult{Err: fmt.Sprintf("http probe %s: %v", url, err)}
	}
	resp, err := probeClient.Do(req)
	if err != nil {
		return ProbeResult{Err: fmt.Sprintf("http probe: %v", err)}
	}
	resp.Body.Close()
	r := ProbeResult{Status: resp.StatusCode, OK: resp.StatusCode < 400}
	if !r.OK {
		r.Err = fmt.Sprintf("GET %s: %s", url, resp.Status)
	}
	return r
}

func probeTCP(ctx context.Context, addr string) ProbeResult {
	var dialer net.Dialer
	conn, err := dialer.DialContext(ctx, "tcp", addr)
	if err != nil {
		return ProbeResult{Err: fmt.Sprintf("tcp probe: %v", err)}
	}
	conn.Close()
	return ProbeResult{OK: true}
}

func probeExec(ctx context.Context, argv []string, dir string) ProbeResult {
	if len(argv) == 0 {
		return ProbeResult{Err: "exec probe: no command"}
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	// A probe's children may keep its output open; do not wait for them.
	cmd.WaitDelay = time.Second
	out, err := cmd.CombinedOutput()
	if err == nil {
		return ProbeResult{OK: true}
	}
	r := ProbeResult{Status: -1}
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		r.Status = exitErr.ExitCode()
	}
	r.Err = fmt.Sprintf("exec probe %s: %v", argv[0], err)
	if tail := lastLine(out); tail != "" {
		r.Err += ": " + tail
	}
	return r
}

// lastLine is the last non-empty line of out: usually the error message.
func lastLine(out []byte) string {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	return StripText([]byte(strings.TrimSpace(lines[len(lines)-1])))
}
