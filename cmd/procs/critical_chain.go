package main

import (
	"fmt"
	"time"

	"github.com/procsdev/procs/compose"
	"github.com/procsdev/procs/rules"
)

// startupChain is the critical chain of the last start, as `procs analyze`
// shows it: the processes that decided when everything was ready, first
// started first.
type startupChain struct {
	// FirstStart is when the first process of the chain was started.
	FirstStart *time.Time `json:"firstStart,omitempty"`
	// Links are the processes of the chain, each waiting for the one before.
	Links []chainLink `json:"chain"`
}

// chainLink is one process of the critical chain.
type chainLink struct {
	Name string `json:"name"`
	// State is what it became: ready, or completed for a task.
	State     rules.State  `json:"state"`
	StartedAt time.Time    `json:"startedAt"`
	DoneAt    time.Time    `json:"doneAt"`
	OffsetMs  int64        `json:"offsetMs"`
	TookMs    int64        `json:"tookMs"`
	Reason    rules.Reason `json:"reason,omitempty"`
	Message   string       `json:"message,omitempty"`
	// WaitedFor is the dependency it started after: the link before it.
	WaitedFor string `json:"waitedFor,omitempty"`
}

// chainRun is a process of the last start that became ready or completed.
type chainRun struct {
	status        compose.ProcStatus
	started, done time.Time
}

// criticalChain computes the chain from the status of every process: it
// ends at the process ready (or completed) last, and goes back through
// the dependency each run waited for, as the engine recorded it when the
// run started. A run that waited for none (the first to start, or one
// restarted while its dependencies were up) begins the chain.
func criticalChain(list []compose.ProcStatus) startupChain {
	chain := startupChain{Links: []chainLink{}}
	runs := map[string]chainRun{}
	var last *chainRun
	for _, st := range list {
		if st.StartedAt == nil {
			continue
		}
		r, ok := finishedRun(st)
		if !ok {
			continue
		}
		runs[st.Name] = r
		if last == nil || r.done.After(last.done) {
			last = &r
		}
	}
	for r, ok := last, last != nil; ok; r, ok = waitedFor(runs, *r) {
		chain.Links = append([]chainLink{newLink(*r)}, chain.Links...)
	}
	if len(chain.Links) == 0 {
		return chain
	}
	first := chain.Links[0].StartedAt
	chain.FirstStart = &first
	for i := range chain.Links {
		chain.Links[i].OffsetMs = chain.Links[i].StartedAt.Sub(first).Milliseconds()
		if i > 0 {
			chain.Links[i].WaitedFor = chain.Links[i-1].Name
		}
	}
	return chain
}

// finishedRun returns the run of st if it became ready, or completed.
func finishedRun(st compose.ProcStatus) (chainRun, bool) {
	switch {
	case st.ReadyAt != nil:
		return chainRun{status: st, started: *st.StartedAt, done: *st.ReadyAt}, true
	case st.State == rules.StateCompleted:
		return chainRun{status: st, started: *st.StartedAt, done: st.Since}, true
	}
	return chainRun{}, false
}

// waitedFor returns the run of the dependency r waited for, if r waited
// and that run is still the one it waited for (not one started since).
func waitedFor(runs map[string]chainRun, r chainRun) (*chainRun, bool) {
	dep, ok := runs[r.status.WaitedFor]
	if !ok || dep.done.After(r.started) {
		return nil, false
	}
	return &dep, true
}

func newLink(r chainRun) chainLink {
	state := rules.StateReady
	if r.status.ReadyAt == nil {
		state = rules.StateCompleted
	}
	return chainLink{
		Name: r.status.Name, State: state, StartedAt: r.started, DoneAt: r.done,
		TookMs: r.done.Sub(r.started).Milliseconds(),
		Reason: r.status.Reason, Message: r.status.Message,
	}
}

// lines is the chain as procs analyze prints it, one line a process.
func (c startupChain) lines() []string {
	var out []string
	for _, l := range c.Links {
		line := fmt.Sprintf("+%dms %s %s in %dms", l.OffsetMs, l.Name, l.State, l.TookMs)
		if why := l.why(); why != "" {
			line += ": " + why
		}
		if l.WaitedFor != "" {
			line += fmt.Sprintf(" (waited for %s)", l.WaitedFor)
		}
		out = append(out, line)
	}
	return out
}

// why is the reason the process became ready, without repeating its state.
func (l chainLink) why() string {
	if l.Message != "" || string(l.Reason) == string(l.State) {
		return l.Message
	}
	return string(l.Reason)
}
