package webui

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/procsdev/procs/compose/control"
)

// LogLine is one line as the page draws it: styled spans instead of
// escape codes.
type LogLine struct {
	// Proc names the process in the stream of every process (all=1).
	Proc   string    `json:"proc,omitempty"`
	Run    int       `json:"run,omitempty"`
	Time   time.Time `json:"time"`
	Stream string    `json:"stream"`
	Spans  []Span    `json:"spans"`
}

// Log stream limits: the page asks for the last defaultLogTail lines (at
// most maxLogTail), then new ones, sent in batches of up to maxBatch.
const (
	defaultLogTail = 1000
	maxLogTail     = 20000
	maxBatch       = 500
	lineQueue      = 4096
)

// logStream serves GET /ui/logs?proc=NAME&tail=N (or all=1 for every
// process, interleaved as procs received them, each line naming its
// process) as Server-Sent Events: "event: reset" first (a reconnecting page
// drops what it has), then batches of LogLine as JSON arrays, kept live
// until the page leaves.
type logStream struct {
	client *control.Client
}

func (ls logStream) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	name := r.URL.Query().Get("proc")
	all := r.URL.Query().Get("all") == "1"
	if name == "" && !all {
		refuse(w, http.StatusBadRequest, "procs ui: logs need proc=NAME or all=1")
		return
	}
	tail, ok := logTail(w, r)
	if !ok {
		return
	}
	var procs []string // none: every process
	if !all {
		if _, err := ls.client.Get(r.Context(), name); err != nil {
			refuse(w, http.StatusNotFound, "procs ui: %v", err)
			return
		}
		procs = []string{name}
	}
	ctx, cancel := context.WithCancel(r.Context())
	lines := make(chan control.LogLine, lineQueue)
	read := make(chan struct{})
	defer func() { cancel(); <-read }() // the reader ends with ctx
	go func() {
		defer close(read)
		defer close(lines)
		_ = ls.client.Logs(ctx, control.LogsOptions{Procs: procs, Tail: &tail, Follow: true},
			func(l control.LogLine) error {
				select {
				case lines <- l:
					return nil
				case <-ctx.Done():
					return ctx.Err()
				}
			})
	}()
	writeBatches(ctx, w, lines, all)
}

// logTail reads ?tail=N, refusing what is not a count of lines.
func logTail(w http.ResponseWriter, r *http.Request) (int, bool) {
	v := r.URL.Query().Get("tail")
	if v == "" {
		return defaultLogTail, true
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		refuse(w, http.StatusBadRequest, "procs ui: tail=%q is not a number of lines", v)
		return 0, false
	}
	return min(n, maxLogTail), true
}

// writeBatches sends what lines holds as SSE batches until it closes or
// ctx ends; each batch takes every line already waiting, so a burst costs
// one write and the page one redraw. withProc names each line's process.
func writeBatches(ctx context.Context, w http.ResponseWriter, lines <-chan control.LogLine, withProc bool) {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	rc := http.NewResponseController(w)
	var buf bytes.Buffer
	buf.WriteString("event: reset\ndata: {}\n\n")
	batch := make([]LogLine, 0, maxBatch)
	for {
		if buf.Len() > 0 {
			_ = rc.SetWriteDeadline(time.Now().Add(10 * time.Second))
			if _, err := w.Write(buf.Bytes()); err != nil || rc.Flush() != nil {
				return
			}
			buf.Reset()
		}
		var l control.LogLine
		var ok bool
		select {
		case <-ctx.Done():
			return
		case l, ok = <-lines:
			if !ok {
				return
			}
		}
		batch = append(batch[:0], pageLine(l, withProc))
	fill:
		for len(batch) < maxBatch {
			select {
			case l, ok = <-lines:
				if !ok {
					break fill
				}
				batch = append(batch, pageLine(l, withProc))
			default:
				break fill
			}
		}
		data, _ := json.Marshal(batch)
		buf.WriteString("data: ")
		buf.Write(data)
		buf.WriteString("\n\n")
	}
}

// pageLine styles one API line, naming its process when withProc.
func pageLine(l control.LogLine, withProc bool) LogLine {
	out := LogLine{Run: l.Run, Time: l.Time, Stream: l.Stream}
	if withProc {
		out.Proc = l.Proc
	}
	if l.Raw != "" {
		out.Spans = Spans(l.Raw)
	} else if l.Line != "" {
		out.Spans = []Span{{Text: l.Line}}
	}
	if out.Spans == nil {
		out.Spans = []Span{}
	}
	return out
}
