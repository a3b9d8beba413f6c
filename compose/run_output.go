package compose

import (
	"slices"
	"strings"
	"time"

	"github.com/procsdev/procs/rules"
)

// handleOutput feeds one chunk to detection: its lines, then its bytes to
// the screen and to attached terminals. Classifying the screen waits until
// the burst of output is read (screenChanged).
func (l *runLoop) handleOutput(chunk outputChunk) {
	for _, line := range chunk.lines {
		l.handle(rules.Event{Kind: rules.EventLine, Time: line.Time, Line: line})
		l.answer(l.responder.line(line.Text, l.screen != nil))
	}
	recycleLines(chunk.lines)
	if l.screen == nil || len(chunk.raw) == 0 {
		return
	}
	_, _ = l.screen.Write(chunk.raw)
	if l.writer != nil { // only a writer can be waiting for an echo
		l.writer.outputRead()
	}
	l.lastRead = chunk.at
	l.screenDirty = true
	l.fanOut(chunk.raw)
	// The attached terminal answers queries itself; two answers would confuse.
	if replies := l.screen.TakeReplies(); replies != nil && len(l.clients) == 0 {
		l.input().reply(replies)
	}
}

// screenChanged classifies the screen after a burst of output (or a resize)
// and answers the dialogs it shows.
func (l *runLoop) screenChanged() {
	l.screenDirty = false
	at := l.lastRead
	if at.IsZero() {
		at = time.Now()
	}
	l.handle(rules.Event{Kind: rules.EventScreen, Time: at})
	l.watchDialogs()
}

// screenTail is the last non-blank rows of a PTY run's screen (nil for
// pipes), trimmed, for results.
func (l *runLoop) screenTail() []string {
	if l.screen == nil {
		return nil
	}
	var tail []string
	rows := l.screen.Rows()
	for i := len(rows) - 1; i >= 0 && len(tail) < rules.ResultLogLines; i-- {
		if row := strings.TrimSpace(rows[i]); row != "" {
			tail = append(tail, row)
		}
	}
	slices.Reverse(tail)
	return tail
}
