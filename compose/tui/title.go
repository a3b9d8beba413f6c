package tui

import (
	"io"

	"github.com/charmbracelet/x/ansi"
)

// windowTitle is the terminal's title while the dashboard shows (View),
// so a tab or window says what runs in it.
const windowTitle = "procs"

// The xterm title stack (XTWINOPS 22 and 23; 0: the icon and the window
// title): bubbletea sets the title from the view but, on leaving, only
// clears it, so the title the terminal had (a shell's, tmux's) is pushed
// before bubbletea starts and popped after it ends, as vim and neovim do.
// A terminal without the stack ignores both.
var (
	pushTitle = ansi.WindowOp(22, 0)
	popTitle  = ansi.WindowOp(23, 0)
)

// keepingTitle runs show, which sets the terminal's title, and gives the
// terminal out its own title back afterwards, however show ends.
func keepingTitle(out io.Writer, show func() error) error {
	// A write that fails now fails bubbletea's too, which says why.
	_, _ = io.WriteString(out, pushTitle)
	defer func() { _, _ = io.WriteString(out, popTitle) }()
	return show()
}
