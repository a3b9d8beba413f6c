package rules

import (
	"bytes"
	"time"
	"unicode/utf8"
	"unsafe"
)

// Stream says which output of a process a line came from.
type Stream int

// The streams a line can come from. A PTY merges stdout and stderr.
const (
	StreamStdout Stream = iota
	StreamStderr
	StreamPTY
)

// String names the stream as logs and the API show it.
func (s Stream) String() string {
	switch s {
	case StreamStderr:
		return "stderr"
	case StreamPTY:
		return "pty"
	}
	return "stdout"
}

// DefaultMaxLine is the line size cap a caller should use when it has no
// reason to pick another: long enough for any log line a person reads, short
// enough that a child writing megabytes without a newline costs little.
const DefaultMaxLine = 64 << 10

// Line is one line of child output.
type Line struct {
	// Raw is the line as written, escapes kept, without its terminator and
	// without the text a bare \r redraw overwrote. Nobody modifies it: the
	// lines of one Write share one allocation, and Text may be Raw itself.
	Raw []byte
	// Text is Raw with ANSI escapes and control characters removed and
	// invalid UTF-8 replaced; it is what patterns match. For a plain line
	// (the usual case) it is Raw's own memory, so a line is kept once.
	Text   string
	Stream Stream
	Time   time.Time
	// Cut means the line reached the size cap; the rest follows as further
	// Lines (the last of which has Cut false).
	Cut bool
}

// Splitter turns a byte stream into Lines. It understands \n, \r\n and bare
// \r redraws (a progress bar redrawn in place yields only its last state),
// caps each line at a size and emits partial lines at EOF. Memory is bounded
// by the cap whatever the child writes. A Splitter is not safe for
// concurrent use: one goroutine reads one stream.
type Splitter struct {
	stream  Stream
	maxLine int
	emit    func(Line)
	now     func() time.Time

	buf []byte
	// text is scratch space for stripping, reused line after line.
	text []byte
	// arena holds the Raw bytes of the lines of the current Write: one
	// allocation per read instead of one per line. It is sized to the
	// complete lines of that Write, so a line kept alone pins no more
	// than the lines read with it.
	arena []byte
	// at is the time of the current Write: its lines arrived together.
	at time.Time
	// pendingCR is a \r whose meaning depends on the next byte: \n makes it
	// a line end, anything else a redraw. A write may end between the two.
	pendingCR bool
	// flushedQuiet says FlushQuiet emitted the partial line: a line end
	// that comes next ends that line, not an empty one.
	flushedQuiet bool
}

// NewSplitter returns a splitter that calls emit, synchronously from Write
// and Flush, for each line of stream. maxLine <= 0 means DefaultMaxLine.
func NewSplitter(stream Stream, maxLine int, emit func(Line)) *Splitter {
	if maxLine <= 0 {
		maxLine = DefaultMaxLine
	}
	// A cap below one UTF-8 rune could never make progress on a rune.
	maxLine = max(maxLine, utf8.UTFMax)
	return &Splitter{stream: stream, maxLine: maxLine, emit: emit, now: time.Now}
}

// SetClock replaces time.Now as the source of Line.Time; replays of captured
// output use it to give lines their recorded times.
func (s *Splitter) SetClock(now func() time.Time) { s.now = now }

// Write splits p into lines. It never fails and never blocks beyond emit.
func (s *Splitter) Write(p []byte) (int, error) {
	n := len(p)
	if s.flushedQuiet {
		s.flushedQuiet = false
		if bytes.HasPrefix(p, []byte("\r\n")) {
			p = p[2:]
		} else if len(p) > 0 && p[0] == '\n' {
			p = p[1:]
		}
	}
	s.at = s.now()
	s.arena = nil
	if end := max(bytes.LastIndexByte(p, '\n'), bytes.LastIndexByte(p, '\r')) + 1; end > 0 {
		s.arena = make([]byte, 0, min(len(s.buf)+end, arenaMax))
	}
	for len(p) > 0 {
		if s.pendingCR {
			if p[0] == '\r' {
				// \r\r\n (a PTY translating an already-\r\n line) is one line end.
				p = p[1:]
				continue
			}
			s.pendingCR = false
			if p[0] == '\n' {
				s.endLine()
				p = p[1:]
				continue
			}
			// A bare \r: the text after it overwrites the line so far.
			s.buf = s.buf[:0]
		}
		i := indexLineByte(p)
		if i < 0 {
			s.appendCapped(p)
			break
		}
		s.appendCapped(p[:i])
		if p[i] == '\n' {
			s.endLine()
		} else {
			s.pendingCR = true
		}
		p = p[i+1:]
	}
	return n, nil
}

// Holding reports whether a partial line waits for its end.
func (s *Splitter) Holding() bool { return s.pendingCR || len(s.buf) > 0 }

// FlushQuiet emits the partial last line, if any, while the stream goes
// on: the output has been quiet with a line left unterminated (a banner
// printed without a newline, a prompt), and what it says counts now. A
// line end that comes next ends that line, not an empty one; other text
// is a line of its own.
func (s *Splitter) FlushQuiet() {
	if !s.Holding() {
		return
	}
	s.at = s.now()
	s.pendingCR = false
	s.endLine()
	s.flushedQuiet = true
}

// Flush emits the partial last line, if any. Call it at EOF.
func (s *Splitter) Flush() {
	if s.pendingCR || len(s.buf) > 0 {
		s.at = s.now()
		s.pendingCR = false
		s.endLine()
	}
}

// indexLineByte finds the first \n or \r.
func indexLineByte(p []byte) int {
	for i, b := range p {
		if b == '\n' || b == '\r' {
			return i
		}
	}
	return -1
}

// appendCapped adds p to the current line, emitting cut lines whenever the
// cap is reached, so the buffer never grows beyond maxLine.
func (s *Splitter) appendCapped(p []byte) {
	for len(p) > 0 {
		room := s.maxLine - len(s.buf)
		if len(p) < room {
			s.buf = append(s.grow(len(p)), p...)
			return
		}
		s.buf = append(s.grow(room), p[:room]...)
		p = p[room:]
		s.cut()
	}
}

// grow makes room for n more bytes without ever exceeding the cap, which
// plain append would: it rounds capacities up.
func (s *Splitter) grow(n int) []byte {
	need := len(s.buf) + n
	if need <= cap(s.buf) {
		return s.buf
	}
	size := min(max(need, 2*cap(s.buf), 256), s.maxLine)
	buf := make([]byte, len(s.buf), size)
	copy(buf, s.buf)
	return buf
}

// cut emits the full buffer as a cut line, keeping back an incomplete rune
// at its end so the rune is not split between two lines.
func (s *Splitter) cut() {
	keep := incompleteRuneTail(s.buf)
	head := s.buf[:len(s.buf)-keep]
	s.emitLine(head, true)
	n := copy(s.buf, s.buf[len(head):])
	s.buf = s.buf[:n]
}

// incompleteRuneTail returns how many bytes at the end of b start a UTF-8
// rune that is not complete yet (0 when b ends on a rune boundary or in
// bytes that are invalid anyway).
func incompleteRuneTail(b []byte) int {
	for k := 1; k < utf8.UTFMax && k <= len(b); k++ {
		c := b[len(b)-k]
		if c < utf8.RuneSelf {
			return 0
		}
		if utf8.RuneStart(c) {
			if !utf8.FullRune(b[len(b)-k:]) {
				return k
			}
			return 0
		}
	}
	return 0
}

func (s *Splitter) endLine() {
	s.emitLine(s.buf, false)
	s.buf = s.buf[:0]
}

// arenaMax bounds the arena of one Write; longer lines get their own
// allocation.
const arenaMax = 64 << 10

// own copies b into the arena (or, when it does not fit, an allocation of
// its own) and returns the copy, capped so that no append can reach the
// next line's bytes.
func (s *Splitter) own(b []byte) []byte {
	if len(b) > cap(s.arena)-len(s.arena) {
		return append([]byte(nil), b...)
	}
	start := len(s.arena)
	s.arena = append(s.arena, b...)
	return s.arena[start:len(s.arena):len(s.arena)]
}

func (s *Splitter) emitLine(b []byte, cut bool) {
	raw := s.own(b)
	text := ""
	if isPlain(raw) {
		// raw is never modified, so the text can be the same bytes.
		text = unsafe.String(unsafe.SliceData(raw), len(raw))
	} else {
		s.text = stripANSI(s.text[:0], raw)
		text = string(s.text)
		if cap(s.text) > 4096 {
			s.text = nil // keep no huge scratch after a huge line
		}
	}
	s.emit(Line{Raw: raw, Text: text, Stream: s.stream, Time: s.at, Cut: cut})
}
