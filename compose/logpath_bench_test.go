package compose

import (
	"bytes"
	"io"
	"regexp"
	"runtime"
	"runtime/metrics"
	"strconv"
	"testing"
	"time"

	"github.com/procsdev/procs/compose/contain"
	"github.com/procsdev/procs/rules"
)

// The benchmarks of the log path: the path of a line from a
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
	logs, err := openedLogFile(b.TempDir(), "seq")
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
	s.readOutput(contain.Output{Stream: rules.StreamStdout, Reader: &chunkReader{data: data, size: 64 << 10}}, chunks, false)
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

// BenchmarkLogPath is the cost of one line of `seq 1 1000000` (and of
// 200-byte lines) from the child's pipe to the terminal: ns/line, and
// lines the terminal skipped (it is not paced by a run loop here).
func BenchmarkLogPath(b *testing.B) {
	const lines = 1_000_000
	for _, bc := range []struct {
		name string
		data []byte
	}{{"seq", seqOutput(1, lines)}, {"200-byte", padded(seqOutput(1, lines), 199)}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			skipped := 0
			for b.Loop() {
				skipped += logPathBench(b, bc.data, lines)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*lines), "ns/line")
			b.ReportMetric(float64(skipped)/float64(b.N), "skipped/op")
		})
	}
}

// padded left-pads every line of out with zeros to width bytes, as
// `seq -f %0199.0f` prints.
func padded(out []byte, width int) []byte {
	res := make([]byte, 0, bytes.Count(out, []byte{'\n'})*(width+1))
	for line := range bytes.Lines(out) {
		res = append(res, bytes.Repeat([]byte{'0'}, width-len(line)+1)...)
		res = append(res, line...)
	}
	return res
}

// BenchmarkLongLine sends one 64 MiB line without a newline (then "ready")
// through the log path and reports the most heap it took while it passed
// (peak-MiB, sampled) and what it keeps once written (kept-MiB, after a GC):
// the peak should stay under 16 MiB and what is kept next to nothing.
func BenchmarkLongLine(b *testing.B) {
	var peak, kept float64
	for b.Loop() {
		runtime.GC()
		before := heapBytes()
		stop, sampled := make(chan struct{}), make(chan uint64)
		go func() {
			most := uint64(0)
			for {
				select {
				case <-stop:
					sampled <- most
					return
				case <-time.After(time.Millisecond):
					most = max(most, heapBytes())
				}
			}
		}()
		logs, err := openedLogFile(b.TempDir(), "long")
		if err != nil {
			b.Fatal(err)
		}
		bus := NewBus()
		sub := bus.Subscribe(true)
		s := &supervisor{spec: runSpec{name: "long", run: 1}, logs: logs, ring: rules.NewRing(1000), bus: bus}
		printed, done := make(chan struct{}), make(chan struct{})
		go func() { NewPrinter(io.Discard, []string{"long"}, true).Run(sub, done); close(printed) }()
		chunks := make(chan outputChunk, 64)
		go func() {
			for chunk := range chunks {
				recycleLines(chunk.lines)
			}
		}()
		s.readOutput(contain.Output{Stream: rules.StreamStdout, Reader: &longLineReader{left: 64 << 20}}, chunks, false)
		close(chunks)
		close(done)
		<-printed
		logs.Close()
		close(stop)
		most := <-sampled
		peak = max(peak, float64(most-min(before, most))/(1<<20))
		runtime.GC()
		kept = float64(max(heapBytes(), before)-before) / (1 << 20)
		runtime.KeepAlive(s)
	}
	b.ReportMetric(peak, "peak-MiB")
	b.ReportMetric(kept, "kept-MiB")
}

// longLineReader reads as left bytes of x, then "\nready\n", in 64 KiB
// reads; it holds none of it, so the heap measured is procs' alone.
type longLineReader struct {
	left int
	end  bool
}

func (r *longLineReader) Read(p []byte) (int, error) {
	if r.left == 0 {
		if r.end {
			return 0, io.EOF
		}
		r.end = true
		return copy(p, "\nready\n"), nil
	}
	n := min(len(p), r.left, 64<<10)
	for i := range n {
		p[i] = 'x'
	}
	r.left -= n
	return n, nil
}

func (r *longLineReader) Close() error { return nil }

// heapBytes is the heap taken by live and not yet swept objects.
func heapBytes() uint64 {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(sample)
	return sample[0].Value.Uint64()
}
