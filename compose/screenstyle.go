package compose

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
