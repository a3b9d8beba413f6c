package compose

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/rules"
)

// slowWriter stands for a terminal that cannot keep up.
type slowWriter struct{ writes int }

func (w *slowWriter) Write(p []byte) (int, error) {
	w.writes++
	time.Sleep(2 * time.Millisecond)
	return len(p), nil
}

// TestLogFileIsLosslessUnderASlowTerminal sends a million lines through one
// child while the terminal printer is deliberately slow: the log file must
// hold every line, in order, and the child must not be held back.
func TestLogFileIsLosslessUnderASlowTerminal(t *testing.T) {
	const lines = 1_000_000
	te := startEngine(t, `
procs:
  chatty:
    kind: task
    command: [python3, -c, "import sys\nfor i in range(1000000): sys.stdout.write('line %d\\n' % i)"]
`, Options{NoWatchdog: true})
	te.limit = 3 * time.Minute // a million lines under the race detector
	printer := NewPrinter(&slowWriter{}, []string{"chatty"}, true)
	sub := te.Bus().Subscribe(true)
	stop := make(chan struct{})
	printed := make(chan struct{})
	go func() { printer.Run(sub, stop); close(printed) }()

	te.waitState("chatty", rules.StateCompleted)
	close(stop)
	<-printed

	f, err := os.Open(filepath.Join(te.dir, ".procs", "logs", "chatty.log"))
	require.NoError(t, err)
	defer f.Close()
	count := countFileLines(t, f)
	assert.Equal(t, lines, count)
}

func countFileLines(t *testing.T, r io.Reader) int {
	t.Helper()
	s := bufio.NewScanner(r)
	n := 0
	for s.Scan() {
		n++
	}
	require.NoError(t, s.Err())
	return n
}

// TestLogFileRotatesAtItsLimit: past LogLimit the log moves to NAME.log.1
// and a new one starts, so a chatty process cannot fill the disk, and the
// two files together end with the newest lines, in order, none split.
func TestLogFileRotatesAtItsLimit(t *testing.T) {
	const limit = 10 << 10
	te := startEngine(t, `
procs:
  chatty:
    kind: task
    command: [python3, -c, "for i in range(3000): print('line %05d' % i)"]
`, Options{NoWatchdog: true, LogLimit: limit})
	te.waitState("chatty", rules.StateCompleted)

	current := filepath.Join(te.dir, ".procs", "logs", "chatty.log")
	var all []string
	for _, path := range []string{current + ".1", current} {
		info, err := os.Stat(path)
		require.NoError(t, err)
		assert.LessOrEqual(t, info.Size(), int64(limit), path)
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		all = append(all, strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")...)
	}
	require.NotEmpty(t, all)
	assert.Equal(t, "line 02999", all[len(all)-1], "the newest line is last")
	first, err := strconv.Atoi(strings.TrimPrefix(all[0], "line "))
	require.NoError(t, err, "every line whole: %q", all[0])
	for i, line := range all {
		assert.Equal(t, fmt.Sprintf("line %05d", first+i), line, "in order, none lost between the files")
	}
}

// logs: {maxSize, keep} sets the retention, at the top
// level and per process: keep rotated files are kept, newest .1, and
// together with NAME.log they end with the newest lines, in order; keep 0
// keeps NAME.log alone.
func TestLogRetentionIsASetting(t *testing.T) {
	te := startEngine(t, `
logs: {maxSize: 4KiB, keep: 3}
procs:
  chatty:
    kind: task
    command: [python3, -c, "for i in range(3000): print('line %05d' % i)"]
  alone:
    kind: task
    command: [python3, -c, "for i in range(3000): print('line %05d' % i)"]
    logs: {keep: 0}
`, Options{NoWatchdog: true})
	te.waitOutcome() // both tasks have ended, their logs closed
	dir := filepath.Join(te.dir, ".procs", "logs")

	chatty := filepath.Join(dir, "chatty.log")
	all := readLogs(t, 4<<10, chatty+".3", chatty+".2", chatty+".1", chatty)
	assert.NoFileExists(t, chatty+".4", "no more than keep rotated files")
	assertNewestInOrder(t, all)
	assert.Greater(t, len(all), 3*300, "the rotated files hold lines too")

	alone := filepath.Join(dir, "alone.log")
	assert.NoFileExists(t, alone+".1", "keep 0: no rotated file")
	assertNewestInOrder(t, readLogs(t, 4<<10, alone))
}

// readLogs reads the lines of the files in order, checking each is at most
// limit bytes.
func readLogs(t *testing.T, limit int64, paths ...string) []string {
	t.Helper()
	var all []string
	for _, path := range paths {
		info, err := os.Stat(path)
		require.NoError(t, err)
		assert.LessOrEqual(t, info.Size(), limit, path)
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		all = append(all, strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")...)
	}
	return all
}

// assertNewestInOrder checks that lines are "line N" for consecutive N
// ending with the last line the test programs print.
func assertNewestInOrder(t *testing.T, lines []string) {
	t.Helper()
	require.NotEmpty(t, lines)
	assert.Equal(t, "line 02999", lines[len(lines)-1], "the newest line is last")
	first, err := strconv.Atoi(strings.TrimPrefix(lines[0], "line "))
	require.NoError(t, err, "every line whole: %q", lines[0])
	for i, line := range lines {
		if !assert.Equal(t, fmt.Sprintf("line %05d", first+i), line, "in order, none lost between the files") {
			return
		}
	}
}
