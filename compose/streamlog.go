package compose

import "bytes"

// streamLog writes one output stream of a run to the log: whole lines
// together, so stdout and stderr do not interleave inside a line. A line
// still open is held back up to maxLineBytes, then written as it is; the
// bytes are never changed.
type streamLog struct {
	log  *logFile
	held []byte
	// open: bytes of an unfinished line have been written.
	open bool
}

func (s *streamLog) Write(p []byte) {
	i := bytes.LastIndexByte(p, '\n')
	if i < 0 {
		s.held = append(s.held, p...)
		if len(s.held) >= maxLineBytes {
			s.log.Write(s.held)
			s.held, s.open = s.held[:0], true
		}
		return
	}
	if len(s.held) > 0 {
		// The held line is completed on its own: a second write costs less
		// than copying the whole read behind it.
		j := bytes.IndexByte(p, '\n')
		s.log.Write(append(s.held, p[:j+1]...))
		if j < i {
			s.log.Write(p[j+1 : i+1])
		}
	} else {
		s.log.Write(p[:i+1])
	}
	rest := p[i+1:]
	if cap(s.held) > heldKept && len(rest) <= heldKept {
		s.held = nil // keep no long line's buffer behind a short partial one
	}
	s.held, s.open = append(s.held[:0], rest...), false
}

// heldKept is the buffer a streamLog keeps between reads at most, unless
// the partial line it holds is longer.
const heldKept = 4 << 10

// Close writes what is held; a stream that ended inside a line gets a
// newline, so the next output starts a line of its own.
func (s *streamLog) Close() {
	if len(s.held) > 0 || s.open {
		s.log.Write(append(s.held, '\n'))
	}
	s.held, s.open = nil, false
}
