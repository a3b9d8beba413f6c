package rules

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os/exec"
	"strings"
	"time"

	"github.com/procsdev/procs/internal/osproc"
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
	Kind ProbeKind
	URL  string
	Addr string
	// Send and Expect make a tcp probe a protocol greeting: Send is
	// written once connected (redis "PING\r\n"), and the reply must match
	// Expect (/^\+PONG/). With neither, a connection is enough; with Send
	// alone, any reply is.
	Send   string
	Expect *Pattern
	Argv   []string
	Dir    string
	// Env is the environment of an exec probe: the run's own, as docker
	// compose runs a healthcheck in its container's; nil is procs' own.
	// Argv[0] is found in its PATH, relative to Dir (osproc.LookPath).
	Env     []string
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
	Err string
	// Answer is the start of a greeting's reply ("+PONG"), "" for other
	// probes.
	Answer string
	Time   time.Time
}

// RunProbe probes p at once and then every interval until ctx is done,
// passing each result to out. No result is reported after ctx is done.
func RunProbe(ctx context.Context, p ProbeSpec, interval time.Duration, out func(ProbeResult)) {
	if interval <= 0 {
		interval = DefaultProbeInterval
	}
	onBackoff(ctx, probeSchedule(interval), probeInto(ctx, p, out))
}

// RunProbeEvery probes p every interval until ctx ends, the first one
// interval from now, passing each result to out: the steady cadence of a
// healthcheck once its run is ready.
func RunProbeEvery(ctx context.Context, p ProbeSpec, interval time.Duration, out func(ProbeResult)) {
	if interval <= 0 {
		interval = DefaultProbeInterval
	}
	select {
	case <-ctx.Done():
		return
	case <-time.After(interval):
	}
	onBackoff(ctx, steadySchedule(interval), probeInto(ctx, p, out))
}

// probeSchedule probes quickly at first, doubling the wait up to
// interval: a server becomes reachable soon after it starts.
func probeSchedule(interval time.Duration) schedule {
	return schedule{first: probeFirstWait, limit: interval}
}

// steadySchedule probes every interval.
func steadySchedule(interval time.Duration) schedule {
	return schedule{first: interval, limit: interval}
}

// probeInto is the look of a probe loop: one probe of p, its result
// passed to out unless ctx ended meanwhile.
func probeInto(ctx context.Context, p ProbeSpec, out func(ProbeResult)) func(time.Duration) {
	return func(time.Duration) {
		if r := Probe(ctx, p); ctx.Err() == nil {
			out(r)
		}
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
		r = probeTCP(ctx, p)
	case ProbeExec:
		r = probeExec(ctx, p)
	default:
		r = ProbeResult{Err: fmt.Sprintf("unknown probe kind %q", p.Kind)}
	}
	// A greeting's read ends at the same deadline as ctx, which may not
	// have said so yet.
	deadline, _ := ctx.Deadline()
	if !r.OK && (errors.Is(ctx.Err(), context.DeadlineExceeded) || !time.Now().Before(deadline)) {
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

func probeTCP(ctx context.Context, p ProbeSpec) ProbeResult {
	var dialer net.Dialer
	conn, err := dialer.DialContext(ctx, "tcp", p.Addr)
	if err != nil {
		return ProbeResult{Err: fmt.Sprintf("tcp probe: %v", err)}
	}
	defer conn.Close()
	if p.Send == "" && p.Expect == nil {
		return ProbeResult{OK: true}
	}
	return greet(ctx, conn, p)
}

// maxGreeting bounds the reply a greeting probe reads.
const maxGreeting = 512

// greet writes the greeting and reads the reply until it matches Expect
// (or, with no Expect, until it is not empty), a line of it does not, it
// ends, or time is up.
func greet(ctx context.Context, conn net.Conn, p ProbeSpec) ProbeResult {
	if deadline, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(deadline)
	}
	if p.Send != "" {
		if _, err := io.WriteString(conn, p.Send); err != nil {
			return ProbeResult{Err: fmt.Sprintf("tcp probe: send %q: %v", p.Send, err)}
		}
	}
	var reply []byte
	buf := make([]byte, maxGreeting)
	for {
		n, err := conn.Read(buf[:maxGreeting-len(reply)])
		reply = append(reply, buf[:n]...)
		answer := firstLine(reply)
		switch {
		case p.Expect == nil && len(reply) > 0, p.Expect != nil && p.Expect.Re.Match(reply):
			return ProbeResult{OK: true, Answer: answer}
		case err != nil || len(reply) == maxGreeting || bytes.IndexByte(reply, '\n') >= 0:
			// A line that does not match is the answer: the server says
			// something else (redis "-LOADING ...") and then waits.
			return ProbeResult{Answer: answer, Err: greetingError(p, answer, err)}
		}
	}
}

// greetingError says what a greeting got instead of its answer.
func greetingError(p ProbeSpec, answer string, err error) string {
	asked := "connected"
	if p.Send != "" {
		asked = fmt.Sprintf("sent %q", p.Send)
	}
	want := ""
	if p.Expect != nil {
		want = fmt.Sprintf(", want /%s/", p.Expect.Source)
	}
	switch {
	case answer != "":
		return fmt.Sprintf("tcp probe: %s, answered %q%s", asked, answer, want)
	case errors.Is(err, io.EOF):
		return fmt.Sprintf("tcp probe: %s, connection closed without an answer%s", asked, want)
	case err != nil:
		return fmt.Sprintf("tcp probe: %s, no answer%s: %v", asked, want, err)
	}
	return fmt.Sprintf("tcp probe: %s, no answer%s", asked, want)
}

// firstLine is the first line of a reply, shortened, for messages.
func firstLine(reply []byte) string {
	line, _, _ := bytes.Cut(reply, []byte("\n"))
	line = bytes.TrimRight(line, "\r")
	const limit = 64
	if len(line) > limit {
		line = line[:limit]
	}
	return string(line)
}

func probeExec(ctx context.Context, p ProbeSpec) ProbeResult {
	argv := p.Argv
	if len(argv) == 0 {
		return ProbeResult{Err: "exec probe: no command"}
	}
	program, err := osproc.ProgramFor(argv[0], p.Env, p.Dir)
	if err != nil {
		return ProbeResult{Status: -1, Err: fmt.Sprintf("exec probe %s: %v", argv[0], err)}
	}
	cmd := exec.CommandContext(ctx, program, argv[1:]...)
	cmd.Args[0] = argv[0]
	cmd.Dir, cmd.Env = p.Dir, p.Env
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
