package compose

import (
	"bytes"
	"io"
	"regexp"
	"strconv"
	"testing"

	"github.com/procsdev/procs/rules"
)

// The benchmarks of issue 18 items 3 and 4: the path of a line from a
// child's pipe to the log file, the ring, the bus and the terminal. Run
// them with
//
//	go test ./compose -run '^$' -bench 'LogPath|LongLine' -benchmem

// seqOutput is what `seq first last` prints.
func seqOutput(first, last int) []byte {
	var out []byte
	for i := first; i <= last; i++ {
		out = strconv.AppendInt(out, int64(i), 10)
		out = append(out, '\n')
	}
	return out
}

// chunkReader hands out data in reads of at most size bytes, as a pipe does.
type chunkReader struct {
	data []byte
	size int
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), r.size)], r.data)
	r.data = r.data[n:]
	return n, nil
}

func (r *chunkReader) Close() error { return nil }

// logPathBench runs data through one supervisor's reader (log file, ring,
// bus) to a Printer writing to io.Discard, as `procs up` does, and
// returns when the printer has printed every line.
func logPathBench(b *testing.B, data []byte, lines int) (skipped int) {
	b.Helper()
	logs, err := openLogFile(b.TempDir(), "seq", defaultLogLimit, 1)
	if err != nil {
		b.Fatal(err)
	}
	defer logs.Close()
	bus := NewBus()
	sub := bus.Subscribe(true)
	defer sub.Close()
	s := &supervisor{spec: runSpec{name: "seq", run: 1}, logs: logs, ring: rules.NewRing(1000), bus: bus}
	counter := &lineCounter{}
	printer := NewPrinter(counter, []string{"seq"}, true)
	stop, printed := make(chan struct{}), make(chan struct{})
	go func() { printer.Run(sub, stop); close(printed) }()
	chunks := make(chan outputChunk, 64)
	drained := make(chan struct{})
	go func() {
		for chunk := range chunks {
			recycleLines(chunk.lines) // as the run loop does
		}
		close(drained)
	}()
	s.readOutput(output{stream: rules.StreamStdout, r: &chunkReader{data: data, size: 64 << 10}}, chunks, false)
	close(chunks)
	<-drained
	close(stop)
	<-printed
	if counter.lines-counter.notes+counter.skipped != lines {
		b.Fatalf("printed %d lines and skipped %d of %d", counter.lines-counter.notes, counter.skipped, lines)
	}
	return counter.skipped
}

// lineCounter counts the lines written to it, and those a skip marker says
// were not shown.
type lineCounter struct{ lines, notes, skipped int }

var skipMarker = regexp.MustCompile(`(?m)^procs \| (\d+) lines of seq not shown`)

func (c *lineCounter) Write(p []byte) (int, error) {
	c.lines += bytes.Count(p, []byte{'\n'})
	if !bytes.Contains(p, []byte("not shown")) {
		return len(p), nil
	}
	for _, m := range skipMarker.FindAllSubmatch(p, -1) {
		n, _ := strconv.Atoi(string(m[1]))
		c.skipped += n
		c.notes++
	}
	return len(p), nil
}

// BenchmarkLogPath is the cost of one line of `seq` from the child's pipe
// to the terminal (ns/op and allocs/op are per line).
func BenchmarkLogPath(b *testing.B) {
	const lines = 1_000_000
	data := seqOutput(1, lines)
	b.ReportAllocs()
	skipped := 0
	for b.Loop() {
		skipped += logPathBench(b, data, lines)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*lines), "ns/line")
	b.ReportMetric(float64(skipped)/float64(b.N), "skipped/op")
}
