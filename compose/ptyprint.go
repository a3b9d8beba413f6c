package compose

import "github.com/procsdev/procs/internal/lazyregexp"

// terminalControl matches what a program on a PTY writes to move the cursor,
// clear the screen, set modes or titles: CSI sequences (SGR colours kept by
// keepColors), OSC strings, other escapes and control characters.
var terminalControl = lazyregexp.New(`\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)?|\x1b[P_^X][^\x1b]*(\x1b\\)?|\x1b[()#%][0-9A-Za-z@]|\x1b[ -~]|[\x00-\x08\x0b-\x1f\x7f]`)

// keepColors returns a line of output as the terminal printer may show it
// among other processes' lines: colours kept, but nothing that moves the
// cursor, clears the screen or changes modes, which a TUI (an agent CLI)
// writes all the time, and some reporters on a pipe too, and which would
// wreck the shared terminal.
func keepColors(raw []byte) []byte {
	return terminalControl.ReplaceAllFunc(raw, func(seq []byte) []byte {
		if len(seq) > 2 && seq[1] == '[' && seq[len(seq)-1] == 'm' {
			return seq
		}
		if seq[0] == '\t' {
			return seq
		}
		return nil
	})
}
