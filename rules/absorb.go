package rules

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/procsdev/procs/internal/lazyregexp"
)

// absorb records what ev says and returns the stripped line of a line event.
func (d *Detector) absorb(ev Event) string {
	switch ev.Kind {
	case EventLine:
		return d.absorbLine(ev.Line, ev.Time)
	case EventScreen:
		return d.absorbCursorRow(ev.Time)
	case EventPorts:
		d.ports = slices.Sorted(slices.Values(ev.Ports))
		d.portOpen = d.spec.Port != 0 && slices.Contains(d.ports, d.spec.Port)
		d.trackServing()
	case EventProbe:
		d.probe = ev.Probe
		switch ev.Probe.Kind {
		case ProbeHTTP:
			d.httpStatus = ev.Probe.Status
		case ProbeExec:
			d.execOK = ev.Probe.OK
		}
	case EventExec:
		if d.spec.WatchesPrograms() && !d.ready {
			// A shim has not yet chosen the program; once it has, the
			// program settles from then.
			was := d.launching
			d.launching, d.busy = isLauncher(ev.Program), ev.Busy
			if d.launching != was && d.spec.ReadyByRunning() {
				d.readySince = ev.Time
			}
		}
	case EventDeps:
		d.deps = make(map[string]string, len(ev.Deps))
		for name, state := range ev.Deps {
			d.deps[name] = string(state)
		}
	}
	return ""
}

// absorbLine applies the line priorities: error, then not-ready, then
// ready. After an error line, lines are collected into the failure.
func (d *Detector) absorbLine(l Line, now time.Time) string {
	text := l.Text
	if text == "" && len(l.Raw) > 0 {
		text = StripText(l.Raw)
	}
	d.log.add(text)
	if l.Stream == StreamStderr && strings.TrimSpace(text) != "" {
		d.lastStderr = text
	}
	if d.interactive() || d.agent != nil {
		// The screen, or the agent's protocol, not the jumble of redrawn
		// lines, decides.
		return text
	}
	return d.matchLine(text, now)
}

// matchLine applies the line priorities to text: error, then not-ready,
// then ready. It returns text.
func (d *Detector) matchLine(text string, now time.Time) string {
	d.remember(text)
	if d.failing != nil {
		d.failing.add(text, now)
		return text
	}
	d.explainUnhealthy(text, now)
	if _, ok := matchAny(d.spec.ReloadPatterns, text); ok {
		d.reloadedClean = true // until an error line says otherwise
		d.unwell = nil         // the next error is a new one
	}
	if p, ok := matchAny(d.spec.ErrorPatterns, text); ok {
		d.reloadedClean = false
		if d.ready && !d.spec.waitsForNothing() {
			// Up and serving, by a signal of its own: an error now (a dev
			// server's compile error after an edit) makes the run
			// unhealthy, not failed. A ready line brings it back; an exit
			// ends it. A run ready only because it was running has shown
			// nothing that outweighs an error line: it fails. An error
			// after a reload, while unhealthy, is a new one: the edit
			// fixed the last and made this (a page that now compiles
			// and throws), which the verdict must quote.
			if d.verdict.State != StateUnhealthy || d.verdict.Reason == ReasonError && d.unwell == nil {
				d.beginUnhealthy(p, text, now)
				msg, cause := d.unwell.explain()
				d.set(Verdict{State: StateUnhealthy, Reason: ReasonError, Message: msg, Line: cause})
			}
			return text
		}
		// The first error line begins the failure; what follows it until
		// the output is quiet says what it is.
		if d.verdict.Reason != ReasonError && !d.exited {
			d.beginFailure(p, text, now)
		}
		return text
	}
	if _, ok := matchAny(d.spec.NotReadyPatterns, text); ok {
		d.notReadyLine, d.readyLine, d.readyPort = text, "", 0
		d.ready, d.readySince = false, time.Time{}
		return text
	}
	if _, ok := matchAny(d.spec.ReadyPatterns, text); ok {
		if d.readyLine == "" || d.ready || d.spec.Interactive {
			// Before ready, the first ready line is the one that decides
			// (the lines after it may only add its port: see readyPort).
			d.readyLine = text
		}
		d.notReadyLine = ""
		if d.lastStderr == text {
			// A ready line on stderr (postgres logs there) says the run
			// came up, not why it ended: a crash quotes no such line.
			d.lastStderr = ""
		}
		if d.readyPort == 0 {
			d.readyPort = linePortOf(text)
		}
		if d.ready && d.verdict.State == StateUnhealthy {
			d.set(Verdict{State: StateReady, Reason: ReasonRecovered, Message: "recovered: matched " + quote(text), Line: text})
		}
	}
	if _, ok := matchAny(d.spec.RecoveredPatterns, text); ok && d.reloadedClean && d.ready && d.verdict.State == StateUnhealthy {
		d.set(Verdict{State: StateReady, Reason: ReasonRecovered, Message: "recovered: reloaded without an error, then " + quote(text), Line: text})
	}
	d.recoverByServing(text)
	if d.spec.AssumeReadyAfter > 0 && d.servesOn == 0 && !d.ready {
		d.servesOn = announcedPort(text)
	}
	return text
}

// recoverByServing brings back a server an error line made unhealthy when
// it logs a request it answered with success: the error was one request's
// (a view that raised while its database was down), and the server serves
// again. The error's own request logs a 5xx, which brings nothing back.
// Only a run that listens counts: a line of a client's log can look like
// a server's.
func (d *Detector) recoverByServing(text string) {
	if !d.ready || d.verdict.State != StateUnhealthy || d.verdict.Reason != ReasonError ||
		len(d.ports) == 0 && len(d.serving) == 0 {
		return
	}
	request, status, ok := accessLine(text)
	switch {
	case !ok:
		return
	case status >= 500:
		if d.failedRequest == "" {
			d.failedRequest = request
		}
		return
	case status < 200 || status >= 400 || d.failedRequest != "" && request != "" && request != d.failedRequest:
		// Only a success or a redirect is served; another page served
		// says nothing of the one that failed (a Next.js page that does
		// not compile).
		return
	}
	d.unwell = nil // the next error is a new one
	d.set(Verdict{State: StateReady, Reason: ReasonRecovered, Message: "recovered: served " + quote(text), Line: text})
}

// accessLines are a server's access-log lines, with the request and the
// status: the common log format's quoted request (werkzeug, Django,
// nginx, gunicorn, uvicorn), a line that begins with the method, a path
// and the status (morgan, next dev), or Rails' "Completed 200 OK", which
// names no request.
var accessLines = lazyregexp.New(`"((?:GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS) \S+) HTTP/[\d.]+" ([1-5]\d\d)\b|` +
	`^\s*((?:GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS) /\S*) ([1-5]\d\d)\b|^Completed ([1-5]\d\d)\b`)

// accessLine reads an access-log line: the request ("GET /", "" when the
// line names none) and the status it was answered with.
func accessLine(text string) (request string, status int, ok bool) {
	m := accessLines.FindStringSubmatch(text)
	if m == nil {
		return "", 0, false
	}
	status, _ = strconv.Atoi(m[2] + m[4] + m[5])
	return m[1] + m[3], status, true
}

// beginUnhealthy starts collecting the lines of the error that made a
// ready run unhealthy: a traceback's first line is rarely what explains it,
// and the lines just before it may say where (Node's "/app/server.js:3"
// above its SyntaxError), as for a failure.
func (d *Detector) beginUnhealthy(p Pattern, text string, now time.Time) {
	d.failedRequest = ""
	d.unwell = &failure{pattern: p, lines: []string{text}, above: d.linesBefore(text), firstAt: now, lastAt: now}
}

// trackServing follows, once the run is ready, whether it still listens on
// the ports it served on: a reloader that restarts the app (node --watch,
// nodemon) closes them when the new app fails and opens them again when an
// edit fixes it. Seen closed and then open again, an unhealthy run is back.
func (d *Detector) trackServing() {
	if !d.ready {
		return
	}
	if len(d.serving) == 0 {
		d.serving = slices.Clone(d.ports) // ready before it listened
		return
	}
	open := slices.ContainsFunc(d.serving, func(port int) bool { return slices.Contains(d.ports, port) })
	if !open {
		d.servingLost = true
		return
	}
	if d.servingLost && d.verdict.State == StateUnhealthy {
		d.set(Verdict{State: StateReady, Reason: ReasonRecovered,
			Message: "recovered: port " + joinInts(d.serving) + " open again"})
	}
	d.servingLost = false
}

// explainUnhealthy adds a line to the error of an unhealthy run and, when
// a line explains it better (the SyntaxError below a Traceback), makes the
// verdict quote that line, while the error's burst lasts.
func (d *Detector) explainUnhealthy(text string, now time.Time) {
	u := d.unwell
	if u == nil || d.verdict.State != StateUnhealthy || now.After(u.firstAt.Add(failureCollectMax)) {
		return
	}
	u.add(text, now)
	if msg, cause := u.explain(); cause != d.verdict.Line || msg != d.verdict.Message {
		d.verdict = Verdict{State: StateUnhealthy, Reason: ReasonError, Message: msg, Line: cause}
		d.explained = true
	}
}
