package control

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"

	"github.com/procsdev/procs/rules"
)

// WaitLine is one line of GET /v1/wait's answer: the result of the wait
// for the process at Place in proc=, or, in Error and Status, what a
// GET /v1/procs/{name}/wait of it would have been refused with.
type WaitLine struct {
	// Place is the index of the process in proc=.
	Place int `json:"place"`
	// Result is the wait's result, when there is one.
	Result *rules.Result `json:"result,omitempty"`
	// Status is the HTTP status of a refused wait.
	Status int `json:"status,omitempty"`
	// Error says why the wait was refused.
	Error *ErrorBody `json:"error,omitempty"`
}

// handleWaitMany waits for several processes at once (proc=a,b,...), each
// as GET /v1/procs/{name}/wait does, and answers a JSON line per process
// as its wait ends. One request, hence one connection, whatever their
// number: a wait per connection met the connection cap above a few
// hundred processes.
func (s *Server) handleWaitMany(w http.ResponseWriter, r *http.Request) {
	names := waitNames(r)
	if len(names) == 0 {
		writeError(w, http.StatusBadRequest, "proc= names the processes to wait for (proc=a,b)")
		return
	}
	params, ok := parseWaitParams(w, r)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), params.timeout)
	var wg sync.WaitGroup
	// Cancel, then wait: every wait ends with ctx, so none outlives the request.
	defer wg.Wait()
	defer cancel()
	// One slot per wait: each can give its answer and end, read or not.
	lines := make(chan WaitLine, len(names))
	for place, name := range names {
		wg.Go(func() { lines <- s.waitLine(ctx, place, name, params) })
	}
	sw := newStreamWriter(w, "application/x-ndjson")
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for range names {
		var line WaitLine
		select {
		case line = <-lines:
		case <-r.Context().Done():
			return
		}
		buf.Reset()
		_ = enc.Encode(line)
		if sw.write(buf.Bytes()) != nil {
			return
		}
	}
}

// waitLine waits for one process of a GET /v1/wait.
func (s *Server) waitLine(ctx context.Context, place int, name string, params waitParams) WaitLine {
	targets, status, err := s.waitTargetsOf(name, params.states)
	if err == nil {
		var res rules.Result
		if res, err = s.waitResult(ctx, name, targets, params.minRun); err == nil {
			return WaitLine{Place: place, Result: &res}
		}
	}
	engineStatus, body := engineErrorBody(err)
	if status == 0 {
		status = engineStatus
	}
	return WaitLine{Place: place, Status: status, Error: &body}
}

// waitNames reads proc=a,b (repeatable), in order, repeats kept: each
// name asked for gets its line.
func waitNames(r *http.Request) []string {
	var names []string
	for _, v := range r.URL.Query()["proc"] {
		for _, name := range strings.Split(v, ",") {
			if name = strings.TrimSpace(name); name != "" {
				names = append(names, name)
			}
		}
	}
	return names
}
