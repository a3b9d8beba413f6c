package compose

import (
	"context"
	"fmt"
)

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
