package rules

import (
	"sync"
	"time"
	"unsafe"
)

// DefaultRingBytes is the memory a Ring holds at most for its lines' bytes
// unless told otherwise: plenty for the last screenfuls of a process,
// little next to a 64 MiB line (which arrives as 64 KiB pieces).
const DefaultRingBytes = 256 << 10

// Ring keeps the last lines of a process for `procs logs` and results. It
// is bounded by a number of lines and by their bytes, and grows only as
// lines arrive, so a quiet process costs next to nothing. It is safe for
// concurrent use: the engine adds while API goroutines read. One mutex
// suffices; the critical sections are copies.
type Ring struct {
	mu       sync.Mutex
	maxLines int
	maxBytes int
	// lines is a circular buffer: count lines from head, wrapping around.
	lines []Line
	head  int
	count int
	bytes int
	// dropped counts the lines let go to keep within the bounds.
	dropped int
}

// NewRing returns a ring holding the last n lines (at least 1), within
// DefaultRingBytes.
func NewRing(n int) *Ring {
	return NewRingSized(n, DefaultRingBytes)
}

// NewRingSized returns a ring holding the last lines, at most maxLines of
// them (at least 1) and at most maxBytes of their bytes; the newest line is
// kept even when it alone is bigger.
func NewRingSized(maxLines, maxBytes int) *Ring {
	return &Ring{maxLines: max(maxLines, 1), maxBytes: maxBytes}
}

// lineSize is the memory a line holds: its bytes, once when Text is Raw.
func lineSize(l *Line) int {
	if len(l.Raw) > 0 && len(l.Text) == len(l.Raw) && unsafe.StringData(l.Text) == unsafe.SliceData(l.Raw) {
		return len(l.Raw)
	}
	return len(l.Raw) + len(l.Text)
}

// Add appends a line, dropping the oldest ones past the bounds.
func (r *Ring) Add(l Line) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.add(l)
}

// AddAll appends lines in order, as Add does for each.
func (r *Ring) AddAll(lines []Line) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, l := range lines {
		r.add(l)
	}
}

// add appends l. Callers hold mu.
func (r *Ring) add(l Line) {
	size := lineSize(&l)
	for r.count > 0 && (r.count == r.maxLines || r.bytes+size > r.maxBytes) {
		r.dropOldest()
	}
	if r.count == len(r.lines) {
		r.grow()
	}
	r.lines[(r.head+r.count)%len(r.lines)] = l
	r.count++
	r.bytes += size
}

func (r *Ring) dropOldest() {
	r.bytes -= lineSize(&r.lines[r.head])
	r.lines[r.head] = Line{} // the bytes go with it
	r.head = (r.head + 1) % len(r.lines)
	r.count--
	r.dropped++
}

// Dropped is how many lines the ring has let go, oldest first, to keep
// within its bounds: lines only the log file still has.
func (r *Ring) Dropped() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.dropped
}

// grow doubles the buffer, up to maxLines slots.
func (r *Ring) grow() {
	lines := make([]Line, min(max(2*len(r.lines), 16), r.maxLines))
	r.copyOrdered(lines)
	r.lines, r.head = lines, 0
}

// copyOrdered copies the lines into dst, oldest first. Callers hold mu.
func (r *Ring) copyOrdered(dst []Line) {
	n := copy(dst, r.lines[r.head:min(r.head+r.count, len(r.lines))])
	copy(dst[n:r.count], r.lines)
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
	if r.count == 0 {
		return nil
	}
	out := make([]Line, r.count)
	r.copyOrdered(out)
	return out
}
