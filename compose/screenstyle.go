package compose

import (
	"context"
	"fmt"
)

// StyledScreen is what a PTY process shows now, with its colours: for the
// dashboards, which draw it as a terminal would.
type StyledScreen struct {
	ScreenText
	// Styled holds the rows of Text with their colours and attributes as
	// SGR escape sequences (rules.Screen.StyledRows); nil for the last
	// screen of a process that ended, which has only its text.
	Styled []string `json:"styled,omitempty"`
	// CursorCol and CursorRow say where the cursor is (from 0), when
	// CursorVisible.
	CursorCol     int  `json:"cursorCol"`
	CursorRow     int  `json:"cursorRow"`
	CursorVisible bool `json:"cursorVisible,omitempty"`
}

// StyledScreen returns what a running PTY process shows now, with its
// colours and cursor; for one that ended, its last screen as Screen does.
func (e *Engine) StyledScreen(ctx context.Context, name string) (StyledScreen, error) {
	sup, err := e.terminalOf(name)
	if err == nil {
		taken := make(chan StyledScreen, 1)
		err = sup.onLoop(ctx, func(l *runLoop) {
			out := StyledScreen{}
			out.Name = name
			out.Cols, out.Rows = l.screen.Size()
			out.Text = l.screen.Text()
			out.Styled = l.screen.StyledRows()
			out.CursorCol, out.CursorRow, out.CursorVisible = l.screen.Cursor()
			taken <- out
		})
		if err == nil {
			return <-taken, nil
		}
		if ctx.Err() != nil {
			return StyledScreen{}, fmt.Errorf("screen of %s: %w", name, err)
		}
	}
	// Not running (any more): Screen says why, or gives the last screen.
	st, err := e.Screen(ctx, name)
	return StyledScreen{ScreenText: st}, err
}
