package rules

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/procsdev/procs/internal/lazyregexp"
)

// FailureQuiet is how long the output must stay quiet after the first
// error line before the failure is decided: a traceback, a stack or a
// config error is printed in one burst, and its cause is often its last
// line. The exit of the process decides at once.
const FailureQuiet = 300 * time.Millisecond

// failureCollectMax bounds the collection when the output never goes quiet
// (a program that logs the same error in a loop).
const failureCollectMax = 2 * time.Second

// failureLinesMax bounds the lines a failure keeps; recentLinesMax the
// lines kept from before it (an esbuild error printed before the line that
// says loading the config failed) and for a crash's cause.
const (
	failureLinesMax = 200
	recentLinesMax  = 32
	beforeFirstMax  = 12
)

// failure is a failure being collected: from the first error line until
// the output is quiet for FailureQuiet or the process exits.
type failure struct {
	pattern Pattern
	// lines are the non-blank lines around the failure: up to
	// beforeFirstMax lines before the first error line, then it, then
	// what followed; first is the index of the first error line.
	lines []string
	first int
	// above are lines from before the error that are not part of it but
	// may say where it is (an unhealthy run's: beginUnhealthy).
	above   []string
	firstAt time.Time
	lastAt  time.Time
}

// beginFailure starts collecting a failure at the error line text, which
// matched p.
func (d *Detector) beginFailure(p Pattern, text string, now time.Time) {
	before := d.linesBefore(text)
	f := &failure{pattern: p, first: len(before), firstAt: now, lastAt: now}
	f.lines = append(append(f.lines, before...), text)
	d.failing = f
}

// linesBefore returns the last beforeFirstMax lines before text, the line
// just remembered, for what they say of the error text begins: those since
// the last reload, for the lines before it are of an earlier build (the
// file heading of the error an edit fixed is not where this one is).
// Stack frames come with the lines they stand between, uncounted: fifteen
// "at …" lines separate Storybook's "WARN Broken build, fix the error
// above." from the error above.
func (d *Detector) linesBefore(text string) []string {
	before := d.recent
	if len(before) > 0 && before[len(before)-1] == text {
		before = before[:len(before)-1] // text itself was just remembered
	}
	start, counted := len(before), 0
	for start > 0 && counted < beforeFirstMax {
		start--
		if !frameLine.MatchString(untagged(before[start])) {
			counted++
		}
	}
	before = before[start:]
	for i := len(before) - 1; i >= 0 && len(d.spec.ReloadPatterns) > 0; i-- {
		if _, ok := matchAny(d.spec.ReloadPatterns, before[i]); ok {
			before = before[i+1:]
			break
		}
	}
	return slices.Clone(before)
}

// add collects one more line of the failure.
func (f *failure) add(text string, now time.Time) {
	f.lastAt = now
	if strings.TrimSpace(text) == "" || len(f.lines) >= failureLinesMax {
		return
	}
	f.lines = append(f.lines, text)
}

// due is when the failure is decided unless more output comes.
func (f *failure) due() time.Time {
	return minTime(f.lastAt.Add(FailureQuiet), f.firstAt.Add(failureCollectMax))
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// checkFailure decides a collected failure once its output has been quiet
// long enough.
func (d *Detector) checkFailure(now time.Time) {
	if d.failing != nil && !now.Before(d.failing.due()) {
		d.decideFailure()
	}
}

// decideFailure fails the run with the line that best explains the
// collected failure.
func (d *Detector) decideFailure() {
	f := d.failing
	d.failing = nil
	msg, cause := f.explain()
	d.fail(ReasonError, msg+d.heldPortNote(f.lines, cause), cause)
}

// addressInUse is a line saying a bind failed for an address in use, in
// the words of libc (EADDRINUSE's text), of the runtime, or of a dev
// server that looked first (Storybook's "Port 6006 is not available").
var addressInUse = lazyregexp.New(`(?i)address already in use|\bEADDRINUSE\b|\bport \d+ is already (in use|allocated)|\bport "\d+" could not be used|\bport \d+ is not available\b`)

// boundAddress is the address a bind names: "*:6379", ":::3000",
// "127.0.0.1:27103", "[::]:8000", "localhost:5173", Python's
// ('127.0.0.1', 8000), Go's "listen tcp :8080" (no host); not a time of
// day ("11:31:57") in the line's timestamp.
var boundAddress = lazyregexp.New(`(?:\*|\[[0-9a-fA-F:.]*\]|::|\b\d{1,3}(?:\.\d{1,3}){3}|\blocalhost|\b[A-Za-z][\w-]*(?:\.[\w-]+)+):(\d{1,5})\b|\('[^']*', (\d{1,5})\)|\blisten (?:tcp|udp)[46]? :(\d{1,5})\b`)

// heldPortNote says who holds the port a failure says is in use: "; port
// 3010 is in use by pid 12 (python3 -m http.server 3010)", as a configured
// port in use is named before a start. The port is the one the in-use
// line names, else the first any line of the failure names (Redis says it
// on the next line, postgres in its HINT), else the run's expected port. A holder the OS hides (another
// user's process: postgres run as its own user, the port held by root) is
// said to be one, with the in-use line when quoted is another (postgres's
// FATAL, under its LOG that says why). "" when no line says an address is
// in use, or the port is free now.
func (d *Detector) heldPortNote(lines []string, quoted string) string {
	port, inUse := inUsePort(lines)
	if port == 0 && inUse != "" {
		// Named nowhere (Python's "OSError: [Errno 98] Address already
		// in use"): the port the run was to listen on.
		port = d.spec.ExpectedPort
	}
	if port == 0 {
		return ""
	}
	if h, ok := d.holderOf(port); ok {
		return fmt.Sprintf("; port %d is in use by pid %d (%s)", port, h.PID, h.Cmdline)
	}
	if !d.env.PortOpen(port) {
		return ""
	}
	note := fmt.Sprintf("; port %d is in use by another user's process, which procs may not inspect", port)
	if inUse != quoted {
		note += ": " + quote(inUse)
	}
	return note
}

// inUsePort is the port lines say is in use, and the line that says so:
// the port the in-use line's address names, else the first any line
// names; 0 when none names a port, and "" too when no line says an
// address is in use.
func inUsePort(lines []string) (port int, inUse string) {
	i := slices.IndexFunc(lines, addressInUse.MatchString)
	if i < 0 {
		return 0, ""
	}
	if m := boundAddress.FindStringSubmatch(lines[i]); m != nil {
		if port, err := strconv.Atoi(m[1] + m[2] + m[3]); err == nil && port > 0 && port <= 65535 {
			return port, lines[i]
		}
	}
	for _, line := range append([]string{lines[i]}, lines...) {
		if port := linePortOf(line); port != 0 {
			return port, lines[i]
		}
	}
	return 0, lines[i]
}

// explain says which line of the failure best explains it, and where.
func (f *failure) explain() (message, cause string) {
	i := bestCause(f.lines, f.first)
	cause, first := f.lines[i], f.lines[f.first]
	located := append(slices.Clone(f.above), f.lines...)
	if i == f.first {
		msg := errorMessage(f.pattern, first)
		if loc := causeLocation(located, len(f.above)+i); loc != "" {
			msg = fmt.Sprintf("error line %s at %s (matched /%s/)", quote(first), loc, f.pattern.Source)
		}
		return msg, first
	}
	msg := "error line " + quote(cause)
	if loc := causeLocation(located, len(f.above)+i); loc != "" {
		msg += " at " + loc
	}
	return msg + fmt.Sprintf(" (after %s matched /%s/)", quote(first), f.pattern.Source), cause
}

// bestCause returns the index of the line of lines that best explains a
// failure whose first error line is lines[first]: the first error line
// unless another ranks higher (CauseRank); of the best exception lines the
// last, the final one of a chained traceback.
func bestCause(lines []string, first int) int {
	best, bestRank := first, causeRankAt(lines, first)
	for i := range lines {
		if i == first {
			continue
		}
		rank := causeRankAt(lines, i)
		if rank > bestRank || rank == bestRank && rank >= CauseException && i > first {
			best, bestRank = i, rank
		}
	}
	return best
}

// bestOf returns the line of lines that best explains a crash, the latest
// of the best ranked; "" when none ranks above nothing.
func bestOf(lines []string) string {
	best, bestRank := "", 0
	for i, line := range lines {
		if rank := causeRankAt(lines, i); rank > 0 && rank >= bestRank {
			best, bestRank = line, rank
		}
	}
	return best
}

var (
	// frameLine is a line of a stack: JavaScript's and Java's "at …",
	// Python's `File "…", line N`.
	frameLine   = lazyregexp.New(`^\s+at\s|^\s*File "`)
	pythonFrame = lazyregexp.New(`^\s*File "([^"]+)", line (\d+)`)
	// A Node "file.js:12" heading above the code it quotes (an ES module's
	// is its file: URL, whose path is the location), and Next.js's
	// "⨯ ./app/page.js:1:57" above the error in the module it names.
	scriptLine = lazyregexp.New(`^(?:⨯ )?(?:file://)?((?:/|\./|[A-Za-z]:\\)?\S+\.(?:[cm]?[jt]sx?|vue|svelte):\d+(?::\d+)?)$`)
	// A stack frame: Node's "at f (/x/app.js:3:7)", Go's "\t/x/main.go:12 +0x1d",
	// and an ES module's as a file: URL, Deno's and Node's "at file:///x/app.ts:1:6"
	// (its path is the location; "ext:" and "node:" frames are the runtime's),
	// and Next.js's "at Page (app/page.js:1:64)", relative to the project.
	stackFrame = lazyregexp.New(`^\s*(?:at (?:.*\()?(?:file://)?([^\s():]+\.\w+:\d+(?::\d+)?)|(?:file://)?((?:/|\./|[A-Za-z]:\\)[^\s():]+\.\w+:\d+(?::\d+)?))`)
	// esbuild's place of its "✘ [ERROR] …" above, alone on an indented
	// line that ends in a colon: "    src/app/app.ts:11:46:".
	esbuildLocation = lazyregexp.New(`^\s+([^\s:]+\.\w+:\d+:\d+):$`)
	// Vite's and Rollup's "  File: /app/main.js:1:16" under an error, or
	// the file alone ("File: /app/src/App.ts") under an excerpt heading.
	excerptFile = lazyregexp.New(`^\s*File: ((?:/|\./|[A-Za-z]:\\)\S+\.\w+)(:\d+(?::\d+)?)?\s*$`)
)

// foundAt is a line that says where the error just above it is:
// mosquitto's "Error found at /etc/mosquitto/mosquitto.conf:3.".
var foundAt = lazyregexp.New(`(?i)\berrors? (?:was |were )?found (?:at|in) ((?:/|\./)?[\w./-]+\.\w+:\d+)`)

// excerptPlace is where an excerpt headed file:at is: the file made absolute
// by the "File:" line that names it below the excerpt (Vite's, under an
// Oxc heading relative to its root), else as the heading says.
func excerptPlace(below []string, file, at string) string {
	if filepath.IsAbs(file) {
		return file + at
	}
	for _, line := range below[:min(len(below), 15)] {
		if m := excerptFile.FindStringSubmatch(line); m != nil && m[2] == "" && strings.HasSuffix(m[1], "/"+file) {
			return m[1] + at
		}
	}
	return file + at
}

// pythonLibrary reports whether a traceback's file is Python's own: a
// frozen module, or one of its standard library (not an installed
// package's).
func pythonLibrary(file string) bool {
	return strings.HasPrefix(file, "<") ||
		strings.Contains(file, "/lib/python3") && !strings.Contains(file, "-packages/")
}

// fileLine finds "file.ext:12" in a line; an address ("0.0.0.0:8000") is
// not one.
var fileLine = lazyregexp.New(`\w\.[A-Za-z]\w*:\d+`)

// causeLocation returns where the failure at lines[i] happened, from the
// lines around it: the input at fault quoted just above it (Redis'
// ">>> 'appendonly maybe'"), the module webpack's heading above it names,
// the last Python frame or Node script heading
// above it, else the line just below it that says where it was found
// (mosquitto's "Error found at FILE:LINE."), else the first stack frame
// below it (outside the runtime). ""
// when the cause line says it itself, or nothing does.
func causeLocation(lines []string, i int) string {
	if fileLine.MatchString(lines[i]) || strings.Contains(lines[i], ", line ") {
		return ""
	}
	if i > 0 {
		if m := causeQuotedInput.FindStringSubmatch(lines[i-1]); m != nil {
			return m[1]
		}
	}
	if place := lintPlace(lines, i); place != "" {
		return place
	}
	if m := moduleHeadingOf(lines, i); m != nil {
		if m[2] == "" || m[3] != "" { // no place, or an import's range
			return m[1]
		}
		return m[1] + ":" + m[2]
	}
	// Python's own library ends an import's traceback (importlib, and its
	// frozen "<frozen importlib._bootstrap>"): the place is the last frame
	// of the program or its packages, else of the library.
	library := ""
	for j := i - 1; j >= 0 && j >= i-15; j-- {
		if m := pythonFrame.FindStringSubmatch(lines[j]); m != nil {
			switch {
			case !pythonLibrary(m[1]):
				return m[1] + ", line " + m[2]
			case library == "" && !strings.HasPrefix(m[1], "<"):
				library = m[1] + ", line " + m[2]
			}
			continue
		}
		if m := scriptLine.FindStringSubmatch(strings.TrimSpace(lines[j])); m != nil && !strings.Contains(m[1], "node_modules/") {
			// A package's line (webpack-dev-server's own listen) is not
			// where the app is at fault, as a package's frame is not.
			return m[1]
		}
	}
	if library != "" {
		return library
	}
	if i+1 < len(lines) {
		if m := foundAt.FindStringSubmatch(lines[i+1]); m != nil {
			return m[1]
		}
	}
	for j := i + 1; j < len(lines) && j <= i+15; j++ {
		if m := stackFrame.FindStringSubmatch(lines[j]); m != nil && !strings.Contains(m[1]+m[2], "node_modules/") {
			return m[1] + m[2]
		}
		if m := excerptHeading.FindStringSubmatch(lines[j]); m != nil {
			return excerptPlace(lines[j+1:], m[1], m[2])
		}
		if m := excerptFile.FindStringSubmatch(lines[j]); m != nil {
			return m[1] + m[2]
		}
		if m := esbuildLocation.FindStringSubmatch(lines[j]); m != nil {
			return m[1]
		}
	}
	return ""
}

// crashMessage adds to how the run ended the line that best says why: the
// best ranked of its last lines (CauseRank), else its last words on
// stderr ("sh: 1: srv: not found"), else its last line.
func (d *Detector) crashMessage(ended string) (message, line string) {
	cause, label := bestOf(d.recent), "error line"
	if cause != "" {
		line = cause
	} else {
		cause = d.lastStderr
	}
	if cause == d.lastStderr {
		label = "last error line"
	}
	if cause == "" {
		if d.log.last == "" {
			return ended, ""
		}
		return ended + "; last line " + quote(d.log.last) + d.readyPortNote(), ""
	}
	message = ended + "; " + label + " " + quote(cause)
	if i := slices.Index(d.recent, cause); i >= 0 {
		if loc := causeLocation(d.recent, i); loc != "" {
			message += " at " + loc
		}
	}
	note := d.heldPortNote(d.recent, cause)
	if note == "" {
		note = d.readyPortNote()
	}
	return message + note, line
}

// readyPortNote says why a run whose ready line named a port ended without
// listening there, when another program does: Express 5 runs listen's
// callback even when the bind failed, and its app exits 0, no line saying
// an address is in use. "" when its tree listened there, or none does.
func (d *Detector) readyPortNote() string {
	port := d.linePort()
	if port == 0 || slices.Contains(d.ports, port) || slices.Contains(d.serving, port) || !d.env.PortOpen(port) {
		return ""
	}
	return fmt.Sprintf("; its tree did not listen on port %d, which its ready line names (%s)", port, d.portHolder(port))
}

// remember keeps the last non-blank lines of the run, for the cause of a
// failure that begins (or a crash that ends) after them.
func (d *Detector) remember(text string) {
	if strings.TrimSpace(text) == "" {
		return
	}
	if len(d.recent) == recentLinesMax {
		copy(d.recent, d.recent[1:])
		d.recent = d.recent[:recentLinesMax-1]
	}
	d.recent = append(d.recent, text)
}
