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
// "id: <seq>" and "data: <json>". snapshot=true first sends the present
// state of each process (events marked snapshot, with no id); a
// Last-Event-ID header (or after=SEQ) then replays the kept state events
// after it. lines=true includes output lines; proc=a,b keeps only those
// processes.
func (s *Server) handleEvents(w http.ResponseWriter, r *http.Request) {
	lines, err := boolParam(r, "lines", false)
	if err != nil {
		writeError(w, http.StatusBadRequest, "%v", err)
		return
	}
	snapshot, err := boolParam(r, "snapshot", false)
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
	var first bytes.Buffer
	if snapshot {
		// Taken after subscribing: a change made meanwhile may follow the
		// snapshot that shows it already, but none is missed.
		list, err := s.engine.Status()
		if err != nil {
			writeEngineError(w, err)
			return
		}
		for _, st := range list {
			if len(procs) == 0 || slices.Contains(procs, st.Name) {
				writeSSE(&first, snapshotEvent(st))
			}
		}
	}
	sw := newStreamWriter(w, "text/event-stream")
	if first.Len() > 0 && sw.write(first.Bytes()) != nil {
		return
	}
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

// snapshotEvent is the event that reports the present state of a process.
func snapshotEvent(st wire.ProcStatus) wire.Event {
	return wire.Event{
		Type: wire.EventState, Time: st.Since, Proc: st.Name, Run: st.Run, To: st.State,
		Reason: st.Reason, Message: st.Message, Recoverable: st.Recoverable, Snapshot: true,
	}
}

// writeSSE formats one event. An event of no sequence (a snapshot) has no
// id, so a client resuming by its last id is not sent back to the start.
func writeSSE(buf *bytes.Buffer, ev wire.Event) {
	data, _ := json.Marshal(ev)
	if ev.Seq > 0 {
		fmt.Fprintf(buf, "id: %d\n", ev.Seq)
	}
	fmt.Fprintf(buf, "data: %s\n\n", data)
}

// procFilter reads proc=a,b (repeatable), answering 404 for unknown names.
// A replicated process's name stands for all its instances.
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
	cfg := s.engine.Config()
	names = cfg.Resolve(names)
	for _, name := range names {
		if _, ok := cfg.Procs[name]; !ok {
			writeEngineError(w, &wire.UnknownProcessError{Name: name, Known: cfg.Names()})
			return nil, false
		}
	}
	return names, true
}
