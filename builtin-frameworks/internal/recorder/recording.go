//go:build unix

package recorder

import (
	"io"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/procsdev/procs/internal/capture"
)

// recording collects chunks from the output readers.
type recording struct {
	mu       sync.Mutex
	start    time.Time
	max      int
	bytes    int
	res      *Result
	ready    *regexp.Regexp
	partial  map[string][]byte
	readyHit chan struct{}
}

func (r *recording) since() float64 {
	return float64(time.Since(r.start).Microseconds()/1000) / 1000
}

func (r *recording) add(stream string, data []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	t := r.since()
	if r.bytes+len(data) > r.max {
		data = data[:max(0, r.max-r.bytes)]
		r.res.Truncated = true
	}
	if len(data) == 0 {
		return
	}
	r.bytes += len(data)
	r.res.Chunks = append(r.res.Chunks, capture.Chunk{T: t, Stream: stream, Data: append([]byte(nil), data...)})
	r.findReadyLine(stream, data, t)
}

// findReadyLine looks for the first line matching the ready regex.
func (r *recording) findReadyLine(stream string, data []byte, t float64) {
	if r.ready == nil || r.res.ReadyLineT != nil {
		return
	}
	buf := append(r.partial[stream], data...)
	for {
		i := indexEOL(buf)
		if i < 0 {
			break
		}
		line := stripANSI(string(buf[:i]))
		buf = buf[i+1:]
		if r.ready.MatchString(line) {
			r.res.ReadyLine, r.res.ReadyLineT = line, &t
			close(r.readyHit)
			return
		}
	}
	r.partial[stream] = buf
}

func indexEOL(b []byte) int {
	for i, c := range b {
		if c == '\n' {
			return i
		}
	}
	return -1
}

// stripANSI is a line as the ready line is matched against: without its
// escape sequences (the ansi package's decoder) and carriage returns.
func stripANSI(s string) string { return strings.ReplaceAll(ansi.Strip(s), "\r", "") }

// read records what r gives until it ends.
func (rec *recording) read(stream string, r io.Reader) {
	buf := make([]byte, 32<<10)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			rec.add(stream, buf[:n])
		}
		if err != nil {
			return
		}
	}
}
