package rules

import (
	"sync"
	"time"
)

// Ring keeps the last lines of a process for `procs logs` and results. It
// is bounded and safe for concurrent use: the engine adds while API
// goroutines read. One mutex suffices; the critical sections are copies.
type Ring struct {
	mu    sync.Mutex
	lines []Line
	next  int // where the next line goes once full
	full  bool
}

// NewRing returns a ring holding the last n lines (at least 1).
func NewRing(n int) *Ring {
	return &Ring{lines: make([]Line, max(n, 1))}
}

// Add appends a line, dropping the oldest when full.
func (r *Ring) Add(l Line) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lines[r.next] = l
	r.next++
	if r.next == len(r.lines) {
		r.next, r.full = 0, true
	}
}

// Last returns up to n of the newest lines, oldest first.
func (r *Ring) Last(n int) []Line {
	r.mu.Lock()
	defer r.mu.Unlock()
	all := r.ordered()
	if n >= 0 && n < len(all) {
		all = all[len(all)-n:]
	}
	return all
}

// Since returns the lines with a Time at or after t, oldest first.
func (r *Ring) Since(t time.Time) []Line {
	r.mu.Lock()
	defer r.mu.Unlock()
	all := r.ordered()
	i := len(all)
	for i > 0 && !all[i-1].Time.Before(t) {
		i--
	}
	return all[i:]
}

// ordered returns a copy of the lines, oldest first. Callers hold mu.
func (r *Ring) ordered() []Line {
	if !r.full {
		return append([]Line(nil), r.lines[:r.next]...)
	}
	out := make([]Line, 0, len(r.lines))
	out = append(out, r.lines[r.next:]...)
	return append(out, r.lines[:r.next]...)
}
