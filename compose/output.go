package compose

import (
	"errors"
	"io"
	"os"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/procsdev/procs/rules"
)

// outputChunk is what one read of a child's output produced: its complete
// lines and, for a PTY run, the bytes as read, for the screen.
type outputChunk struct {
	lines []rules.Line
	raw   []byte
	at    time.Time
}

// readOutput reads one stream to EOF. The bytes go to the log file as they
// are; split into lines, they go to the ring and the bus here, and to the
// run loop with the raw bytes when keepRaw (the loop draws them on the
// run's screen).
func (s *supervisor) readOutput(o output, chunks chan<- outputChunk, keepRaw bool) {
	stream := streamName(o.stream)
	var lines []rules.Line
	logw := &streamLog{log: s.logs}
	split := rules.NewSplitter(o.stream, maxLineBytes, func(l rules.Line) {
		s.ring.Add(l)
		s.bus.Publish(Event{Type: EventLine, Time: l.Time, Proc: s.spec.name, Run: s.spec.run, Line: l.Text, Raw: l.Raw, Stream: stream})
		lines = append(lines, l)
	})
	buf := make([]byte, 32<<10)
	for {
		n, err := o.r.Read(buf)
		if n > 0 {
			at := time.Now()
			logw.Write(buf[:n])
			_, _ = split.Write(buf[:n])
			chunk := outputChunk{lines: lines, at: at}
			if keepRaw {
				chunk.raw = append([]byte(nil), buf[:n]...)
			}
			lines = nil
			chunks <- chunk
		}
		if err != nil {
			// A PTY master reports EIO once the last slave holder closes: that is EOF.
			if !errors.Is(err, io.EOF) && !errors.Is(err, syscall.EIO) && !errors.Is(err, os.ErrClosed) {
				s.bus.Publish(Event{Type: EventInfo, Proc: s.spec.name, Run: s.spec.run, Message: "read output: " + err.Error()})
			}
			break
		}
	}
	logw.Close()
	split.Flush()
	if len(lines) > 0 {
		chunks <- outputChunk{lines: lines, at: time.Now()}
	}
}

// handleOutput feeds one chunk to detection: its lines, then its bytes to
// the screen and to attached terminals. Classifying the screen waits until
// the burst of output is read (screenChanged).
func (l *runLoop) handleOutput(chunk outputChunk) {
	for _, line := range chunk.lines {
		l.handle(rules.Event{Kind: rules.EventLine, Time: line.Time, Line: line})
		l.answer(l.responder.line(line.Text, l.screen != nil))
	}
	if l.screen == nil || len(chunk.raw) == 0 {
		return
	}
	_, _ = l.screen.Write(chunk.raw)
	l.writer.outputRead()
	l.lastRead = chunk.at
	l.screenDirty = true
	l.fanOut(chunk.raw)
	// The attached terminal answers queries itself; two answers would confuse.
	if replies := l.screen.TakeReplies(); replies != nil && len(l.clients) == 0 {
		l.writer.reply(replies)
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
