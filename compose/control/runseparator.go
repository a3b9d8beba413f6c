package control

import "strconv"

// RunSeparators tells where, among lines of processes shown in the order
// they came, a new run of a process begins: procs logs and procs tui draw
// RunSeparator there, so a reader sees a restart in either the same way.
// The zero value is ready to use.
type RunSeparators struct {
	// last is the run of the last line seen of each process (0: not known).
	last map[string]int
}

// Line records a line of proc's run and reports whether a separator goes
// before it: a line of another known run of proc came before. A line of no
// known run (0: older than every run start procs kept) begins nothing and
// leaves the last known run as it was.
func (s *RunSeparators) Line(proc string, run int) bool {
	last, seen := s.last[proc]
	if !seen || run != 0 {
		s.remember(proc, run)
	}
	return seen && last != 0 && run != 0 && run != last
}

// Started records that run of proc begins here (a log file's note says
// so, lines or none) and reports whether a separator goes there: lines of
// proc came before it.
func (s *RunSeparators) Started(proc string, run int) bool {
	_, seen := s.last[proc]
	s.remember(proc, run)
	return seen
}

func (s *RunSeparators) remember(proc string, run int) {
	if s.last == nil {
		s.last = map[string]int{}
	}
	s.last[proc] = run
}

// RunSeparator is the line between two runs of proc: "── run N ──" where
// each line is prefixed by its process's name ("web | ── run 2 ──"), and
// "── web run 2 ──" where lines carry no name.
func RunSeparator(proc string, run int, prefixed bool) string {
	if prefixed {
		return "── run " + strconv.Itoa(run) + " ──"
	}
	return "── " + proc + " run " + strconv.Itoa(run) + " ──"
}
