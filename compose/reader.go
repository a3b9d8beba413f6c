package compose

import (
	"errors"
	"io"
	"os"
	"runtime"
	"sync"
	"syscall"
	"time"

	"github.com/procsdev/procs/compose/contain"
	"github.com/procsdev/procs/rules"
)

// outputChunksQueued is how many reads a run's readers may be ahead of its
// loop: each holds all the lines of a read, so a few dozen absorb a burst,
// and an idle run's channel costs little.
const outputChunksQueued = 32

// outputChunk is what one read of a child's output produced: its complete
// lines and, for a PTY run, the bytes as read, for the screen.
type outputChunk struct {
	lines []rules.Line
	raw   []byte
	at    time.Time
}

// readOutput reads one stream to EOF. The bytes go to the log file as they
// are; split into lines, they go to the ring and the bus here, all the
// lines of one read at once, and to the run loop with the raw bytes when
// keepRaw (the loop draws them on the run's screen).
func (s *supervisor) readOutput(o contain.Output, chunks chan<- outputChunk, keepRaw bool) {
	stream := streamName(o.Stream)
	var lines []rules.Line
	var events []Event // reused read after read: the bus copies them
	logw := &streamLog{log: s.logs}
	split := rules.NewSplitter(o.Stream, maxLineBytes, func(l rules.Line) {
		if lines == nil {
			lines = takeLines()
		}
		lines = append(lines, l)
	})
	publish := func(at time.Time, raw []byte) {
		s.ring.AddAll(lines)
		events = events[:0]
		for _, l := range lines {
			events = append(events, Event{Type: EventLine, Time: l.Time, Proc: s.spec.name, Run: s.spec.run, Line: l.Text, Raw: l.Raw, Stream: stream})
		}
		if s.bus.PublishLines(events) {
			// A subscriber (the terminal) lags: let it run before reading
			// more, rather than make it skip lines. Yielding never blocks.
			runtime.Gosched()
		}
		clear(events) // hold no line bytes until the next read
		chunks <- outputChunk{lines: lines, raw: raw, at: at}
		lines = nil
	}
	var buf readBuffer
	defer buf.release()
	quiet := quietLineEnd(o)
	for {
		n, err := o.Reader.Read(buf.next())
		if n > 0 {
			at := time.Now()
			logw.Write(buf.got(n))
			_, _ = split.Write(buf.got(n))
			var raw []byte
			if keepRaw {
				raw = append([]byte(nil), buf.got(n)...)
			}
			publish(at, raw)
		}
		buf.done(n)
		if quiet != nil && errors.Is(err, os.ErrDeadlineExceeded) {
			split.FlushQuiet()
			if len(lines) > 0 {
				publish(time.Now(), nil)
			}
			err = nil
		}
		if quiet != nil && err == nil {
			quiet.arm(split.Holding())
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
		publish(time.Now(), nil)
	}
}

// quietLineGrace is how long a pipe's output stays quiet with a line left
// unterminated before that line counts as one.
const quietLineGrace = 200 * time.Millisecond

// quietDeadline ends a read of a pipe once its output has been quiet for
// quietLineGrace with a partial line held: a program that prints its
// banner without a newline and waits would otherwise never have it seen.
type quietDeadline struct {
	file  interface{ SetReadDeadline(time.Time) error }
	armed bool
}

// quietLineEnd returns the deadline of o's reads, nil for a PTY (its
// screen shows what waits unterminated: a prompt) or a reader without
// deadlines.
func quietLineEnd(o contain.Output) *quietDeadline {
	file, ok := o.Reader.(interface{ SetReadDeadline(time.Time) error })
	if !ok || o.Stream == rules.StreamPTY {
		return nil
	}
	return &quietDeadline{file: file}
}

// arm sets the deadline while a partial line is held (again after each
// read: the output is quiet from the last one), and clears it otherwise.
func (q *quietDeadline) arm(holding bool) {
	switch {
	case holding:
		q.armed = q.file.SetReadDeadline(time.Now().Add(quietLineGrace)) == nil
	case q.armed:
		_ = q.file.SetReadDeadline(time.Time{})
		q.armed = false
	}
}

// lineSlices holds the line slices of chunks the run loop is done with, for
// the readers to fill again: a burst of output then does not allocate a
// slice, and regrow it, for every read.
var lineSlices = sync.Pool{New: func() any { return new([]rules.Line) }}

// takeLines returns an empty slice to collect the lines of one read in.
func takeLines() []rules.Line {
	return (*lineSlices.Get().(*[]rules.Line))[:0]
}

// recycleLines gives back the slice of a handled chunk; the lines were
// copied where they are kept.
func recycleLines(lines []rules.Line) {
	if cap(lines) == 0 {
		return
	}
	clear(lines)
	lineSlices.Put(&lines)
}

// Read buffer sizes: a reader starts with a small buffer, which is what an
// idle process's reader holds while it waits, and takes a big one from a
// shared pool while reads fill the small one.
const (
	smallReadBuffer = 1 << 10
	bigReadBuffer   = 32 << 10
)

var bigReadBuffers = sync.Pool{New: func() any { b := make([]byte, bigReadBuffer); return &b }}

// readBuffer is the buffer one output stream is read into.
type readBuffer struct {
	small []byte
	big   *[]byte
}

// next is the buffer for the next read.
func (b *readBuffer) next() []byte {
	if b.big != nil {
		return *b.big
	}
	if b.small == nil {
		b.small = make([]byte, smallReadBuffer)
	}
	return b.small
}

// got is what the last read put in the buffer.
func (b *readBuffer) got(n int) []byte { return b.next()[:n] }

// done picks the buffer for the next read after one of n bytes: the big one
// while reads fill the small one (a burst), the small one again after a
// read the small one would have held.
func (b *readBuffer) done(n int) {
	switch {
	case b.big == nil && n == len(b.small):
		b.big = bigReadBuffers.Get().(*[]byte)
	case b.big != nil && n < smallReadBuffer:
		b.release()
	}
}

// release gives the big buffer back to the pool.
func (b *readBuffer) release() {
	if b.big != nil {
		bigReadBuffers.Put(b.big)
		b.big = nil
	}
}
