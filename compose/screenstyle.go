package compose

// StyledScreen returns what a running PTY process shows now, with its
// colours and cursor; for one that ended, its last screen as Screen does.
func (e *Engine) StyledScreen(name string) (StyledScreen, error) {
	sup, err := e.terminalOf(name)
	if err == nil {
		var out StyledScreen
		err = sup.onLoop(func(l *runLoop) {
			out.Name = name
			out.Cols, out.Rows = l.screen.Size()
			out.Text = l.screen.Text()
			out.Styled = l.screen.StyledRows()
			out.CursorCol, out.CursorRow, out.CursorVisible = l.screen.Cursor()
		})
		if err == nil {
			return out, nil
		}
	}
	// Not running (any more): Screen says why, or gives the last screen.
	st, err := e.Screen(name)
	return StyledScreen{ScreenText: st}, err
}
