package wire

// ScreenText is what a PTY process shows now.
type ScreenText struct {
	Name string `json:"name"`
	Cols int    `json:"cols"`
	Rows int    `json:"rows"`
	// Text is the screen's rows, without the blank rows at the bottom.
	Text string `json:"text"`
	// Ended marks the last screen of a process that is no longer running.
	Ended bool `json:"ended,omitempty"`
}

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
