package control

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/procsdev/procs/compose/wire"
)

// handleEvents streams the bus as Server-Sent Events: each event is
// "id: <seq>" and "data: <json>". A Last-Event-ID header (or after=SEQ)
// first replays the kept state events after it. lines=true includes output
// lines; proc=a,b keeps only those processes.
func (s *Server) handleEvents(w http.ResponseWriter, r *http.Request) {
	lines, err := boolParam(r, "lines", false)
	if err != nil {
		writeError(w, http.StatusBadRequest, "%v", err)
		return
	}
	after := int64(-1)
	resume := r.Header.Get("Last-Event-ID")
	if resume == "" {
		resume = r.URL.Query().Get("after")
	}
	if resume != "" {
		if after, err = strconv.ParseInt(resume, 10, 64); err != nil || after < 0 {
			writeError(w, http.StatusBadRequest, "event id %q is not a sequence number", resume)
			return
		}
	}
	procs, ok := s.procFilter(w, r)
	if !ok {
		return
	}
	sub := s.engine.Bus().SubscribeSince(after, lines)
	defer sub.Close()
	sw := newStreamWriter(w, "text/event-stream")
	sw.follow(r, sub, []byte(": ping\n\n"), func(buf *bytes.Buffer, events []wire.Event, dropped int) {
		if dropped > 0 {
			fmt.Fprintf(buf, "event: dropped\ndata: {\"dropped\":%d}\n\n", dropped)
		}
		for _, ev := range events {
			if len(procs) == 0 || slices.Contains(procs, ev.Proc) {
				writeSSE(buf, ev)
			}
		}
	})
}

// writeSSE formats one event.
func writeSSE(buf *bytes.Buffer, ev wire.Event) {
	data, _ := json.Marshal(ev)
	fmt.Fprintf(buf, "id: %d\ndata: %s\n\n", ev.Seq, data)
}

// procFilter reads proc=a,b (repeatable), answering 404 for unknown names.
func (s *Server) procFilter(w http.ResponseWriter, r *http.Request) ([]string, bool) {
	var names []string
	if name := r.PathValue("name"); name != "" {
		names = append(names, name)
	}
	for _, v := range r.URL.Query()["proc"] {
		for _, name := range strings.Split(v, ",") {
			if name = strings.TrimSpace(name); name != "" {
				names = append(names, name)
			}
		}
	}
	for _, name := range names {
		if _, ok := s.engine.Config().Procs[name]; !ok {
			writeEngineError(w, &wire.UnknownProcessError{Name: name, Known: s.engine.Config().Names()})
			return nil, false
		}
	}
	return names, true
}
