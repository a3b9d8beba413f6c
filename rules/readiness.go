package rules

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/procsdev/procs/internal/lazyregexp"
)

// DefaultSettle is how long a service with nothing to wait for (no ready
// line, port, rule or preset signal) must run without an error before it
// counts as ready, unless StabilityDelay says otherwise: a process that dies
// at once (a missing module, a bad flag) then fails instead of being ready
// for a moment.
const DefaultSettle = time.Second

// waitsForNothing reports whether the spec gives nothing to wait for, so a
// service is ready once it has run for Settle.
func (s *Spec) waitsForNothing() bool {
	return len(s.ReadyPatterns) == 0 && s.Rule == nil && s.Port == 0 && !s.ReadyOnListen && s.Healthcheck == nil
}

// ExpectsPort reports whether the process is expected to listen: it has a
// port, a rule (which may ask for one), a probe of its own server, or
// readiness by listening. A run ready without listening yet is watched a
// while for the port it opens only then; any other is not watched after
// ready, so a procs whose processes are all ready is silent at once.
func (s *Spec) ExpectsPort() bool {
	return s.Port > 0 || s.Rule != nil || s.ReadyProbe != nil || s.ProbePort > 0 || s.ReadyOnListen || s.ReadyLinePort || s.ReadyLineListens
}

// WatchesPrograms reports whether the run's programs matter to its verdict
// (EventExec): a run ready by running settles once its program is chosen
// and idle, and a run that may be assumed ready is not while it is busy.
func (s *Spec) WatchesPrograms() bool {
	return s.ReadyByRunning() || !s.Task && s.ReadyTimeout <= 0 && s.AssumeReadyAfter > 0
}

// ReadyByRunning reports whether a run is ready by running for Settle:
// a service with nothing else to wait for.
func (s *Spec) ReadyByRunning() bool {
	return !s.Task && !s.Interactive && s.waitsForNothing()
}

// launcher matches the command line of a version manager's shim, which
// takes a while (seconds, on a busy machine) to choose the real program
// and exec it: pyenv, rbenv, nodenv, goenv, asdf, mise.
var launcher = lazyregexp.New(`/shims/|/\.?(pyenv|rbenv|nodenv|goenv|asdf)/(libexec|bin)/`)

// launcherMax bounds how long a shim may take before the run settles
// anyway (a wrapper that runs the program as a child, never execing it).
const launcherMax = 30 * time.Second

// settling reports whether a run ready by running, past its settle window,
// must still wait: its program is still busy starting (on a loaded machine
// an import that fails can take longer than the window), for at most
// busyMax.
func (d *Detector) settling(now time.Time) bool {
	return d.busy && d.spec.ReadyByRunning() && now.Before(d.readySince.Add(busyMax))
}

// busyMax bounds how long a run ready by running waits for its program to
// stop being busy (a worker always on a CPU is ready then).
const busyMax = 10 * time.Second

// AssumeBusyMax bounds how long a run that may be assumed ready
// (Spec.AssumeReadyAfter) waits for its program to stop being busy.
const AssumeBusyMax = busyMax

// isLauncher reports whether program is a shim still choosing the program.
func isLauncher(program string) bool { return launcher.MatchString(program) }

// Settle is how long the ready condition must hold without an error line:
// StabilityDelay, or DefaultSettle for a service with nothing to wait for.
func (s *Spec) Settle() time.Duration {
	if s.StabilityDelay == 0 && s.ReadyByRunning() {
		return DefaultSettle
	}
	return s.StabilityDelay
}

// condition reports whether the ready condition holds now (before the
// stability delay): ready = (no readyPatterns, or a ready line seen) AND
// (no rule, or the rule is true). With neither, a configured port must be
// open by this process tree; with no port either, a service is ready by
// running and a task waits for its exit.
func (d *Detector) condition(now time.Time, line string) bool {
	hasPatterns := len(d.spec.ReadyPatterns) > 0
	listening := d.spec.ReadyOnListen && len(d.ports) > 0
	if !hasPatterns && d.spec.Rule == nil {
		switch {
		case d.spec.Port != 0:
			return d.portOpen && d.probeAgrees()
		case d.spec.ReadyOnListen:
			return listening && d.probeAgrees()
		}
		return !d.spec.Task && d.probeAgrees()
	}
	if hasPatterns && d.readyLine == "" && !listening {
		return false
	}
	if d.spec.Rule != nil {
		return d.evalRule(now, line) && d.probeAgrees()
	}
	return (d.readyLine == "" || d.lineAgreesWithPorts()) && d.probeAgrees()
}

// lineAgreesWithPorts reports whether the port a ready line stands for is
// listened on by the process tree: the configured port, else (ReadyLinePort)
// the one the line names, else (ReadyLineListens) any. A line with none of
// these needs no port.
func (d *Detector) lineAgreesWithPorts() bool {
	if d.spec.Port != 0 {
		return d.portOpen
	}
	if port := d.linePort(); port != 0 {
		return slices.Contains(d.ports, port)
	}
	if d.spec.ReadyLineListens {
		return len(d.ports) > 0
	}
	return true
}

// linePortForms are the ways a ready line names the port it serves on,
// tried in order; the first that matches names it. A line that names one
// is proof of readiness only once the process tree listens there: Express 5
// calls listen's callback, and the app prints "listening on port 3010",
// even when the bind failed.
var linePortForms = []*lazyregexp.Regexp{
	// A URL: "Local: http://localhost:5173/", "Uvicorn running on http://[::]:8000".
	lazyregexp.New(`https?://(?:\[[0-9a-fA-F:.]+\]|[\w.-]+):(\d{2,5})\b`),
	// The word port: "listening on port 3010", "port: 3306", JSON's "port":27017, "port=4567",
	// parcel's `Port "1234"`.
	lazyregexp.New(`(?i)\bport"?\s*[:=]?\s*"?(\d{2,5})\b`),
	// An address after on or at: "listening on :8080", "at 127.0.0.1:4000",
	// "on [::]:8080"; a host is a name or an IPv4 address, so a time
	// ("started at 12:30:45") is none.
	lazyregexp.New(`(?i)\b(?:on|at)\s+(?:\[[0-9a-f:.]*\]|\d{1,3}(?:\.\d{1,3}){3}|[a-z][\w.-]*)?:(\d{2,5})\b`),
}

// servingAnnouncement is a line in which a program says that it serves at
// an address of this machine: "Server at http://localhost:8080/",
// "[SUCCESS] Website is running at: http://localhost:3000/", "Serving on
// http://127.0.0.1:8000/". A line that connects to a server, or sends
// requests to one, is no such line (notServing).
var (
	servingAnnouncement = lazyregexp.New(`(?i)\b(?:listening|serving|running|available|ready|started|local|server\s+(?:at|on|is|running|started|listening))\b` +
		`[^/]*?\bhttps?://(?:localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|0\.0\.0\.0|\[::1?\]):(\d{2,5})\b`)
	notServing = lazyregexp.New(`(?i)\bconnect|\bprox(?:y|ies)|\bforward`)
)

// announcedPort returns the port line says the program serves on
// (servingAnnouncement), 0 if it says none.
func announcedPort(line string) int {
	m := servingAnnouncement.FindStringSubmatch(line)
	if m == nil || notServing.MatchString(line) {
		return 0
	}
	return portNumber(m[1])
}

// portNumber is the TCP port digits name, 0 when they name none.
func portNumber(digits string) int {
	port, err := strconv.Atoi(digits)
	if err != nil || port <= 0 || port > 65535 {
		return 0
	}
	return port
}

// linePort is the port a ready line names, 0 when none (or when the spec
// does not ask).
func (d *Detector) linePort() int {
	if !d.spec.ReadyLinePort || d.readyLine == "" {
		return 0
	}
	return d.readyPort
}

// linePortOf returns the port line names (linePortForms), 0 if none.
func linePortOf(line string) int {
	for _, form := range linePortForms {
		m := form.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		if port := portNumber(m[1]); port != 0 {
			return port
		}
	}
	return 0
}

// bindEnv builds the rule environment once; the functions it holds read
// the detector's current state, and evalRule refreshes the plain fields.
func (d *Detector) bindEnv() {
	portInUse := d.spec.PortInUse
	if portInUse == nil {
		portInUse = PortInUse
	}
	d.env = Env{
		Log:      LogView{Matches: d.log.Matches, Contains: d.log.Contains},
		PortOpen: portInUse,
		Run:      d.run,
		Screen:   ScreenView{Contains: d.screenContains, Matches: d.screenMatches},
	}
}

func (d *Detector) evalRule(now time.Time, line string) bool {
	env := &d.env
	env.Line = line
	env.Log.Last, env.Log.Lines = d.log.last, d.log.lines
	env.Port.Open = d.portOpen
	env.Ports = d.ports
	env.HTTP.Status = d.httpStatus
	env.Exec.OK = d.execOK
	env.Elapsed = now.Sub(d.started)
	env.Deps = d.deps
	ok, err := d.spec.Rule.evalWith(&d.machine, env)
	// A rule that cannot be evaluated (a missing deps key, say) is not
	// true; the error is kept for the timeout message.
	d.ruleErr = err
	return ok && err == nil
}

// readyMessage says what made the run ready.
func (d *Detector) readyMessage() string {
	var parts []string
	if d.readyLine != "" {
		parts = append(parts, "matched "+quote(d.readyLine))
	}
	if d.spec.Port != 0 && d.portOpen {
		parts = append(parts, fmt.Sprintf("port %d open", d.spec.Port))
	} else if port := d.linePort(); port != 0 {
		parts = append(parts, fmt.Sprintf("port %d open", port))
	} else if len(d.ports) > 0 && (d.readyLine == "" && d.spec.ReadyOnListen || d.readyLine != "" && d.spec.ReadyLineListens) {
		parts = append(parts, "listening on port "+joinInts(d.ports))
	}
	if d.spec.Rule != nil {
		parts = append(parts, "rule "+strconv.Quote(d.spec.Rule.Source)+" true")
	}
	if probe := d.probeReadyText(); probe != "" {
		parts = append(parts, probe)
	}
	if len(parts) == 0 {
		if settle := d.spec.Settle(); settle > 0 {
			return fmt.Sprintf("running for %s without error", settle)
		}
		return "running"
	}
	return strings.Join(parts, "; ")
}

// assumedMessage says why a run counts as ready without a sign, and how to
// give it one.
func (d *Detector) assumedMessage(now time.Time) string {
	seen := "no ready line or listening port (a worker?)"
	if d.awaitsAnnouncedPort() {
		seen = fmt.Sprintf("no ready line; it said it serves on port %d, where it does not listen", d.servesOn)
	}
	return fmt.Sprintf("assumed ready: running for %s without an error, %s; "+
		"set readyPatterns, port or ready to say when it is ready, or framework: none",
		now.Sub(d.started).Round(100*time.Millisecond), seen)
}

// assumeAt is when a run of a generic runtime is assumed ready if nothing
// else decides first: Spec.AssumeReadyAfter after it started, or, while
// its program is still busy starting on a CPU (importing, compiling) or a
// shim still chooses it, or it has said where it serves and listens on
// nothing yet, up to AssumeBusyMax after it started. A worker that waits
// for work is idle soon; a server still loading has not bound yet.
func (d *Detector) assumeAt() time.Time {
	at := d.started.Add(d.spec.AssumeReadyAfter)
	if d.busy || d.launching || d.awaitsAnnouncedPort() {
		at = maxTime(at, d.started.Add(AssumeBusyMax))
	}
	return at
}

// awaitsAnnouncedPort says the run has said where it serves (servesOn)
// and its tree listens on no port yet: a server that binds later
// (Docusaurus names its URL 4 s before its dev server binds), not a worker
// to assume ready. A ready line that names a port is judged by its own
// rule (checkTimeout: a bind that failed fails on time).
func (d *Detector) awaitsAnnouncedPort() bool {
	return d.servesOn != 0 && len(d.ports) == 0 && d.readyLine == ""
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// timeoutMessage says what was and was not seen in the time after, e.g.
// "port 3000 open, no line matched /Local:/ after 30s".
func (d *Detector) timeoutMessage(after time.Duration) string {
	return d.Waiting() + " after " + after.String()
}

// Waiting says what readiness has and has not seen so far, e.g. `port
// 3000 not open, matched "Listening"`: what a run still starting waits for.
func (d *Detector) Waiting() string {
	var parts []string
	if port := d.spec.Port; port != 0 {
		switch {
		case d.portOpen:
			parts = append(parts, fmt.Sprintf("port %d open", port))
		case len(d.ports) > 0:
			parts = append(parts, fmt.Sprintf("port %d not open (listening on %s)", port, joinInts(d.ports)))
		default:
			parts = append(parts, fmt.Sprintf("port %d not open", port))
		}
	}
	switch {
	case d.notReadyLine != "":
		parts = append(parts, "waiting at prompt "+quote(d.notReadyLine))
	case len(d.spec.ReadyPatterns) > 0 && d.readyLine == "":
		parts = append(parts, "no line matched "+patternList(d.spec.ReadyPatterns))
	case d.readyLine != "":
		parts = append(parts, "matched "+quote(d.readyLine))
		if port := d.linePort(); port != 0 && d.spec.Port == 0 && !slices.Contains(d.ports, port) {
			notOpen := fmt.Sprintf("but its process tree does not listen on port %d", port)
			if d.env.PortOpen(port) {
				notOpen += " (" + d.portHolder(port) + ")"
			}
			parts = append(parts, notOpen)
		}
	}
	if d.spec.Rule != nil {
		rule := "rule " + strconv.Quote(d.spec.Rule.Source) + " not true"
		if d.ruleErr != nil {
			rule += " (" + d.ruleErr.Error() + ")"
		}
		parts = append(parts, rule)
	}
	if probe := d.probeWaitText(); probe != "" {
		parts = append(parts, probe)
	}
	if d.log.lines == 0 {
		parts = append(parts, "no output")
	}
	return strings.Join(parts, ", ")
}

// portHolder says who listens on port, for a message: "pid 12 does:
// python3 -m http.server 3010" as the OS tells, else "another program
// does" (the OS hides another user's processes; a spec that answers
// portOpen itself stands for a test's machine, not this one).
func (d *Detector) portHolder(port int) string {
	if h, ok := d.holderOf(port); ok {
		return fmt.Sprintf("pid %d does: %s", h.PID, h.Cmdline)
	}
	return "another program does"
}

// holderOf is HolderOf on this machine; false for a spec that answers
// portOpen itself, which stands for a test's machine, not this one.
func (d *Detector) holderOf(port int) (Holder, bool) {
	if d.spec.PortInUse != nil {
		return Holder{}, false
	}
	return HolderOf(port)
}

func errorMessage(p Pattern, text string) string {
	return fmt.Sprintf("error line %s (matched /%s/)", quote(text), p.Source)
}

func patternList(patterns []Pattern) string {
	srcs := make([]string, len(patterns))
	for i, p := range patterns {
		srcs[i] = "/" + p.Source + "/"
	}
	return strings.Join(srcs, " or ")
}

func joinInts(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ", ")
}

// Quote quotes a line as messages do, trimmed and shortened: messages are
// read in a terminal, the full line is in the logs.
func Quote(line string) string { return quote(line) }

// quote quotes a line for a message, trimmed and shortened: messages are
// read in a terminal, the full line is in the logs. Of a structured (JSON)
// line it quotes the message and its error, not the timestamps and fields
// around them.
func quote(line string) string {
	// A banner's box (Storybook's "│   Storybook 8.6 … started   │") is
	// not part of what it says.
	line = strings.TrimFunc(line, func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune("│┃║", r) })
	if text, ok := jsonLogText(line); ok {
		line = text
	}
	return strconv.Quote(shorten(line, 200, "…"))
}

// shorten cuts s to at most limit bytes, on a character boundary, and
// ends it with more when it cut.
func shorten(s string, limit int, more string) string {
	if len(s) <= limit {
		return s
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut-- // not inside a character
	}
	return s[:cut] + more
}

func (d *Detector) screenContains(sub string) bool {
	return d.screen != nil && d.screen.Contains(sub)
}

func (d *Detector) screenMatches(re string) bool {
	return d.screen != nil && d.screen.Matches(re)
}
