package rules

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// split feeds writes to a splitter and returns the lines it emitted.
func split(maxLine int, writes ...string) []Line {
	var lines []Line
	s := NewSplitter(StreamPTY, maxLine, func(l Line) { lines = append(lines, l) })
	for _, w := range writes {
		n, err := s.Write([]byte(w))
		if err != nil || n != len(w) {
			panic("short write")
		}
	}
	s.Flush()
	return lines
}

func texts(lines []Line) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = l.Text
	}
	return out
}

func TestSplitter(t *testing.T) {
	tests := []struct {
		name   string
		writes []string
		want   []string
	}{
		{"newlines", []string{"a\nb\n"}, []string{"a", "b"}},
		{"crlf", []string{"a\r\nb\r\n"}, []string{"a", "b"}},
		{"crlf split across writes", []string{"a\r", "\nb\r", "\n"}, []string{"a", "b"}},
		{"cr cr lf is one line end", []string{"a\r\r\nb\n"}, []string{"a", "b"}},
		{"partial last line at EOF", []string{"a\npart"}, []string{"a", "part"}},
		{"trailing cr at EOF", []string{"a\r"}, []string{"a"}},
		{"progress redraw keeps the last state", []string{"10%\r50%\r100%\n"}, []string{"100%"}},
		{"redraw split across writes", []string{"10%\r", "50%\r", "done\r\n"}, []string{"done"}},
		{"redraw from column 0", []string{"\rdownloading 1/3\rdownloading 3/3\nnext\n"}, []string{"downloading 3/3", "next"}},
		{"empty lines kept", []string{"\n\r\n\n"}, []string{"", "", ""}},
		{"ansi stripped for text", []string{"\x1b[32mready\x1b[0m in \x1b[1m12\x1b[22m ms\n"}, []string{"ready in 12 ms"}},
		{"screen clear", []string{"\r\n\r\n\x1b[1;1H\x1b[0J\r\n  VITE ready\r\n"}, []string{"", "", "", "  VITE ready"}},
		{"utf-8 rune split across writes", []string{"caf\xc3", "\xa9 \xe2\x9e", "\x9c ok\n"}, []string{"café ➜ ok"}},
		{"invalid utf-8 replaced", []string{"bad \xff\xfe byte\n"}, []string{"bad \uFFFD byte"}},
		{"controls dropped, tab kept", []string{"a\tb\x07c\bd\n"}, []string{"a\tbcd"}},
		{"no output", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lines := split(0, tt.writes...)
			if tt.want == nil {
				assert.Empty(t, lines)
				return
			}
			assert.Equal(t, tt.want, texts(lines))
			for _, l := range lines {
				assert.Equal(t, StreamPTY, l.Stream)
				assert.False(t, l.Cut)
				assert.False(t, l.Time.IsZero())
			}
		})
	}
}

func TestSplitterKeepsRawBytes(t *testing.T) {
	lines := split(0, "\x1b[31merror\x1b[0m\r\n")
	require.Len(t, lines, 1)
	assert.Equal(t, []byte("\x1b[31merror\x1b[0m"), lines[0].Raw)
	assert.Equal(t, "error", lines[0].Text)
}

// A child writing 1 MiB without a newline costs at most the cap in memory
// and yields capped lines, the last of them not cut.
func TestSplitterHugeLineIsBounded(t *testing.T) {
	const maxLine = 64 << 10
	huge := bytes.Repeat([]byte("x"), 1<<20)
	var lines []Line
	s := NewSplitter(StreamStdout, maxLine, func(l Line) { lines = append(lines, l) })
	for chunk := huge; len(chunk) > 0; {
		n := min(len(chunk), 32<<10)
		_, _ = s.Write(chunk[:n])
		chunk = chunk[n:]
		assert.LessOrEqual(t, cap(s.buf), maxLine, "buffer grew beyond the cap")
	}
	_, _ = s.Write([]byte("\nafter\n"))
	s.Flush()

	total, longest := 0, 0
	for i, l := range lines[:len(lines)-1] {
		total += len(l.Raw)
		longest = max(longest, len(l.Raw))
		assert.Equal(t, i < len(lines)-2, l.Cut, "line %d", i)
	}
	assert.Equal(t, 1<<20, total, "no byte lost")
	assert.LessOrEqual(t, longest, maxLine)
	assert.Equal(t, "after", lines[len(lines)-1].Text)
}

// A cut never splits a rune: each piece is valid UTF-8.
func TestSplitterCutKeepsRunesWhole(t *testing.T) {
	lines := split(10, strings.Repeat("é", 20)+"\n")
	var joined strings.Builder
	for _, l := range lines {
		assert.True(t, utf8.Valid(l.Raw), "%q", l.Raw)
		assert.LessOrEqual(t, len(l.Raw), 10)
		joined.Write(l.Raw)
	}
	assert.Equal(t, strings.Repeat("é", 20), joined.String())
}

func FuzzSplitter(f *testing.F) {
	f.Add([]byte("a\r\nb\rc\n"), 7, 3)
	f.Add([]byte("\x1b[1;1H\x1b[0J\r\n\xc3\xa9\xff"), 4, 1)
	f.Add(bytes.Repeat([]byte("progress\r"), 20), 16, 5)
	f.Fuzz(func(t *testing.T, data []byte, maxLine, chunk int) {
		maxLine = 4 + abs(maxLine)%200
		chunk = 1 + abs(chunk)%64
		var lines []Line
		s := NewSplitter(StreamStdout, maxLine, func(l Line) { lines = append(lines, l) })
		for p := data; len(p) > 0; {
			n := min(len(p), chunk)
			_, _ = s.Write(p[:n])
			p = p[n:]
		}
		s.Flush()
		whole := split(maxLine, string(data))
		if len(whole) != len(lines) {
			t.Fatalf("chunked writes gave %d lines, one write %d", len(lines), len(whole))
		}
		for i, l := range lines {
			if len(l.Raw) > maxLine {
				t.Fatalf("line %d is %d bytes, cap %d", i, len(l.Raw), maxLine)
			}
			if bytes.ContainsAny(l.Raw, "\r\n") {
				t.Fatalf("line %d keeps a terminator: %q", i, l.Raw)
			}
			if !utf8.ValidString(l.Text) {
				t.Fatalf("line %d text is not UTF-8: %q", i, l.Text)
			}
			if !bytes.Equal(l.Raw, whole[i].Raw) {
				t.Fatalf("line %d differs by chunking: %q vs %q", i, l.Raw, whole[i].Raw)
			}
		}
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// The lines of one Write cost one allocation together,
// and a plain line's Text is its Raw bytes, not a second copy.
func TestSplitterAllocatesPerWriteNotPerLine(t *testing.T) {
	var got []Line
	split := NewSplitter(StreamStdout, 0, func(l Line) { got = append(got, l) })
	chunk := []byte(strings.Repeat("a plain line of output\n", 100))
	got = make([]Line, 0, 100)
	allocs := testing.AllocsPerRun(10, func() {
		got = got[:0]
		_, _ = split.Write(chunk)
	})
	assert.LessOrEqual(t, allocs, 1.0)
	require.Equal(t, 100, len(got))
	assert.Equal(t, "a plain line of output", got[99].Text)
	assert.Equal(t, unsafe.StringData(got[0].Text), unsafe.SliceData(got[0].Raw), "Text shares Raw's bytes")
	assert.Equal(t, 22, cap(got[0].Raw), "a line's Raw cannot be appended into the next line")
}

// A partial line flushed because the output went quiet is a line; the line
// end that follows ends it, not an empty line; other text is a new line.
func TestSplitterFlushQuiet(t *testing.T) {
	var got []string
	s := NewSplitter(StreamStdout, 0, func(l Line) { got = append(got, l.Text) })
	_, _ = s.Write([]byte("ready to accept connections"))
	require.True(t, s.Holding())
	s.FlushQuiet()
	assert.False(t, s.Holding())
	_, _ = s.Write([]byte("\nnext\nName: "))
	s.FlushQuiet()
	_, _ = s.Write([]byte("bob\r\n"))
	s.FlushQuiet() // nothing held: nothing emitted
	_, _ = s.Write([]byte("\n"))
	assert.Equal(t, []string{"ready to accept connections", "next", "Name: ", "bob", ""}, got)
}
