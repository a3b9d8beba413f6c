package compose

// attachQueue is how many output chunks an attached terminal may fall
// behind before it is detached: a slow client never slows the child.
const attachQueue = 1024

// attachClient is one terminal attached to a PTY run.
type attachClient struct {
	// out carries the raw output; closed when the run ends, the client
	// detaches or falls too far behind.
	out chan []byte
}

// fanOut copies output to the attached terminals, detaching any that has
// fallen too far behind.
func (l *runLoop) fanOut(raw []byte) {
	for c := range l.clients {
		select {
		case c.out <- raw:
		default:
			delete(l.clients, c)
			close(c.out)
		}
	}
}

// detachAll ends every attachment when the run ends.
func (l *runLoop) detachAll() {
	for c := range l.clients {
		delete(l.clients, c)
		close(c.out)
	}
}

// resize changes the window of the run's terminal and of its screen.
func (l *runLoop) resize(cols, rows int) {
	if l.screen == nil {
		return
	}
	if c, r := l.screen.Size(); c == cols && r == rows {
		return
	}
	if err := l.c.Resize(cols, rows); err != nil {
		return // the terminal is gone: the run is ending
	}
	l.screen.Resize(cols, rows)
	l.screenDirty = true
}

// lastScreen is the screen a PTY run leaves as it ends; nil for pipes.
func (l *runLoop) lastScreen() *ScreenText {
	if l.screen == nil {
		return nil
	}
	cols, rows := l.screen.Size()
	return &ScreenText{Name: l.s.spec.name, Cols: cols, Rows: rows, Text: l.screen.Text(), Ended: true}
}
