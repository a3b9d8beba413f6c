package rules

import (
	"bytes"
	"regexp"
)

// misreadQueries are terminal queries vt10x takes for commands: the kitty
// keyboard protocol's CSI ? u (and CSI > flags u, CSI < u, CSI = flags u)
// ends in 'u', which vt10x runs as "restore cursor", and XTVERSION's
// CSI > q. A terminal that does not know them ignores them, as tmux does;
// the screen drops them. Claude Code 2.1.330 sends both at start-up: its
// cursor then jumped to the top left, and its first-run screens were
// never wholly erased.
var misreadQueries = regexp.MustCompile(`\x1b\[[<=>?][0-9;:]*[uq]`)

// dropMisreadQueries returns p without the queries vt10x misreads.
func dropMisreadQueries(p []byte) []byte {
	if !bytes.Contains(p, []byte("\x1b[")) {
		return p
	}
	return misreadQueries.ReplaceAll(p, nil)
}

// openSequenceTail returns how many bytes at the end of p are an escape
// sequence not yet ended (a read may end in the middle of one), to keep
// for the next write so that it is filtered whole.
func openSequenceTail(p []byte) int {
	if i := bytes.LastIndex(p, appStateOSC); i >= 0 && len(p)-i <= appStateMax &&
		bytes.IndexByte(p[i:], '\a') < 0 && !bytes.Contains(p[i:], []byte("\x1b\\")) {
		return len(p) - i // an announcement (noteAppState) not yet ended
	}
	i := bytes.LastIndexByte(p, 0x1b)
	if i < 0 || len(p)-i > 32 {
		return 0
	}
	rest := p[i+1:]
	if len(rest) == 0 {
		return 1
	}
	if rest[0] != '[' {
		return 0
	}
	for _, c := range rest[1:] {
		// Parameter and intermediate bytes; a final byte ends it.
		if c < 0x20 || c > 0x3f {
			return 0
		}
	}
	return len(p) - i
}
