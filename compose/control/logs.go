package control

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/procsdev/procs/compose/bus"
	"github.com/procsdev/procs/compose/wire"
	"github.com/procsdev/procs/rules"
)

// defaultTail is how many lines logs returns when tail is not given.
const defaultTail = 100

// logsQuery is a parsed logs request.
type logsQuery struct {
	procs  []string
	tail   int // < 0: every kept line
	since  time.Time
	follow bool
	text   bool
}

// handleLogs returns recent lines of one process (/v1/procs/{name}/logs) or
// of several (/v1/logs?proc=a,b; all when none): tail=N (default 100, -1
// all), since=RFC3339 or a duration ago, follow=true to keep streaming,
// format=text for "name | line" text instead of JSON lines.
func (s *Server) handleLogs(w http.ResponseWriter, r *http.Request) {
	q, ok := s.parseLogsQuery(w, r)
	if !ok {
		return
	}
	var sub *bus.Subscription
	if q.follow {
		// Subscribe before reading the rings so no line falls in between.
		sub = s.engine.Bus().Subscribe(true)
		defer sub.Close()
	}
	recent, err := s.recentLines(q)
	if err != nil {
		writeEngineError(w, err)
		return
	}
	contentType := "application/x-ndjson"
	if q.text {
		contentType = "text/plain; charset=utf-8"
	}
	sw := newStreamWriter(w, contentType)
	var buf bytes.Buffer
	for _, l := range recent {
		q.format(&buf, l)
	}
	if buf.Len() > 0 && sw.write(buf.Bytes()) != nil || !q.follow {
		return
	}
	s.followLines(r, sw, sub, q, newSeen(recent))
}

// followLines streams new lines until the client goes away or stalls.
func (s *Server) followLines(r *http.Request, sw *streamWriter, sub *bus.Subscription, q logsQuery, seen *seenLines) {
	sw.follow(r, sub, nil, func(buf *bytes.Buffer, events []wire.Event, dropped int) {
		if dropped > 0 {
			q.format(buf, LogLine{Proc: procsStream, Time: time.Now(), Stream: procsStream,
				Line: fmt.Sprintf("(%d lines dropped: this client reads too slowly; see .procs/logs/)", dropped)})
		}
		for _, ev := range events {
			if !slices.Contains(q.procs, ev.Proc) {
				continue
			}
			if note, ok := logNote(ev); ok {
				q.format(buf, note)
				continue
			}
			if ev.Type != wire.EventLine || seen.skip(ev) {
				continue
			}
			q.format(buf, LogLine{Proc: ev.Proc, Run: ev.Run, Time: ev.Time, Stream: ev.Stream, Line: ev.Line, Raw: rawIfDiffers(ev.Raw, ev.Line)})
		}
	})
}

func (s *Server) parseLogsQuery(w http.ResponseWriter, r *http.Request) (logsQuery, bool) {
	q := logsQuery{tail: defaultTail}
	var ok bool
	if q.procs, ok = s.procFilter(w, r); !ok {
		return q, false
	}
	if len(q.procs) == 0 {
		q.procs = s.engine.Config().Names()
	}
	query := r.URL.Query()
	if v := query.Get("tail"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil && v != "all" {
			writeError(w, http.StatusBadRequest, "tail=%q is not a number of lines", v)
			return q, false
		}
		if v == "all" || n < 0 {
			n = -1
		}
		q.tail = n
	}
	if v := query.Get("since"); v != "" {
		since, err := parseSince(v, time.Now())
		if err != nil {
			writeError(w, http.StatusBadRequest, "%v", err)
			return q, false
		}
		q.since = since
	}
	var err error
	if q.follow, err = boolParam(r, "follow", false); err != nil {
		writeError(w, http.StatusBadRequest, "%v", err)
		return q, false
	}
	switch f := query.Get("format"); f {
	case "", "json":
	case "text":
		q.text = true
	default:
		writeError(w, http.StatusBadRequest, "format=%q: use json or text", f)
		return q, false
	}
	return q, true
}

// parseSince reads an RFC 3339 time or a duration before now.
func parseSince(v string, now time.Time) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
		return t, nil
	}
	if d, err := time.ParseDuration(v); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	return time.Time{}, fmt.Errorf("since=%q is neither an RFC 3339 time nor a duration (e.g. 5m)", v)
}

// recentLines collects the kept lines of the queried processes, oldest
// first: the last tail lines of each process, as docker compose logs --tail.
func (s *Server) recentLines(q logsQuery) ([]LogLine, error) {
	if q.tail == 0 {
		return nil, nil
	}
	var out []LogLine
	history := newLogHistory(s.engine.Bus().History())
	for _, name := range q.procs {
		lines, err := s.engine.Logs(name, max(q.tail, 0))
		if err != nil {
			return nil, err
		}
		if note, ok := s.notKeptNote(name, q, lines); ok {
			out = append(out, note)
		}
		oldest := time.Time{}
		for _, l := range lines {
			if !q.since.IsZero() && l.Time.Before(q.since) {
				continue
			}
			if oldest.IsZero() {
				oldest = l.Time
			}
			out = append(out, LogLine{Proc: name, Run: history.runAt(name, l.Time), Time: l.Time, Stream: l.Stream.String(), Line: l.Text, Raw: rawIfDiffers(l.Raw, l.Text)})
		}
		if !oldest.IsZero() {
			// Only the notes among the lines shown: a tail of ten lines
			// does not begin with last hour's news.
			out = append(out, history.notesSince(name, oldest)...)
		}
	}
	slices.SortStableFunc(out, func(a, b LogLine) int { return a.Time.Compare(b.Time) })
	return out, nil
}

// format appends one line as JSON or as text.
func (q logsQuery) format(buf *bytes.Buffer, l LogLine) {
	if !q.text {
		data, _ := json.Marshal(l)
		buf.Write(data)
		buf.WriteByte('\n')
		return
	}
	switch {
	case l.Stream == procsStream && l.Proc != procsStream:
		buf.WriteString("procs | " + l.Proc + ": ")
	case len(q.procs) > 1 || l.Stream == procsStream:
		buf.WriteString(l.Proc)
		buf.WriteString(" | ")
	}
	buf.WriteString(l.Line)
	buf.WriteByte('\n')
}

// seenLines drops bus lines already sent from the rings: those older than
// the newest sent line of their process, and those equal to it in time and
// text (lines of one read share a timestamp).
type seenLines struct {
	newest map[string]time.Time
	tail   map[string][]string // texts of the sent lines at the newest time
}

func newSeen(sent []LogLine) *seenLines {
	s := &seenLines{newest: map[string]time.Time{}, tail: map[string][]string{}}
	for _, l := range sent {
		if l.Time.After(s.newest[l.Proc]) {
			s.newest[l.Proc] = l.Time
			s.tail[l.Proc] = nil
		}
		if l.Time.Equal(s.newest[l.Proc]) {
			s.tail[l.Proc] = append(s.tail[l.Proc], l.Line)
		}
	}
	return s
}

func (s *seenLines) skip(ev wire.Event) bool {
	newest, ok := s.newest[ev.Proc]
	if !ok || ev.Time.After(newest) {
		return false
	}
	if ev.Time.Before(newest) {
		return true
	}
	tail := s.tail[ev.Proc]
	if i := slices.Index(tail, ev.Line); i >= 0 {
		s.tail[ev.Proc] = slices.Delete(tail, i, i+1)
		return true
	}
	return false
}

// rawIfDiffers is the raw line when escapes make it differ from the text.
func rawIfDiffers(raw []byte, text string) string {
	if string(raw) == text {
		return ""
	}
	return string(raw)
}

// notKeptNote says, before a process's lines, how many older ones memory
// no longer holds and which file has them, when the query asked for more
// than memory gives (tail all or past the lines kept, or a since before
// the oldest kept): what is shown is then not all that was asked for.
func (s *Server) notKeptNote(name string, q logsQuery, lines []rules.Line) (LogLine, bool) {
	if len(lines) == 0 || q.tail >= 0 && q.tail <= len(lines) || !q.since.IsZero() && !q.since.Before(lines[0].Time) {
		return LogLine{}, false
	}
	older, err := s.engine.LinesNotKept(name)
	if err != nil || older == 0 {
		return LogLine{}, false
	}
	file := s.engine.LogPath(name)
	if rel, err := filepath.Rel(s.engine.Config().Dir, file); err == nil && filepath.IsLocal(rel) {
		file = rel
	}
	return LogLine{Proc: name, Time: lines[0].Time, Stream: procsStream,
		Line: fmt.Sprintf("%d older lines are not kept in memory: see %s", older, file)}, true
}
