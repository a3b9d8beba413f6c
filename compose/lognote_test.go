package compose

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// logFileLines is the text of the log of name in dir, line by line.
func logFileLines(t *testing.T, dir, name string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, name+".log"))
	require.NoError(t, err)
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

// TestLogFileNotesWhereARunBegins: a run that starts on a log holding
// output (an earlier run's, or an earlier procs') writes a note first, on
// a line of its own; a run starting on an empty log writes none, so a
// single run's log holds its bytes alone.
func TestLogFileNotesWhereARunBegins(t *testing.T) {
	dir := t.TempDir()
	l := newLogFile(dir, "web", defaultLogLimit, 1)
	l.openForRun(1)
	l.Write([]byte("first run\nno newline"))
	l.openForRun(2)
	l.Write([]byte("second run\n"))
	require.NoError(t, l.Close())

	lines := logFileLines(t, dir, "web")
	require.Len(t, lines, 4)
	assert.Equal(t, []string{"first run", "no newline"}, lines[:2])
	note, ok := ParseLogNote(lines[2])
	require.True(t, ok, "a note: %q", lines[2])
	assert.Equal(t, 2, note.Run)
	assert.Equal(t, "run 2", note.Text)
	assert.False(t, note.Time.IsZero())
	assert.Equal(t, "second run", lines[3])

	// A new procs starting run 1 on the same file: the note says so too.
	again := newLogFile(dir, "web", defaultLogLimit, 1)
	again.openForRun(1)
	require.NoError(t, again.Close())
	lines = logFileLines(t, dir, "web")
	note, ok = ParseLogNote(lines[len(lines)-1])
	require.True(t, ok)
	assert.Equal(t, 1, note.Run)
}

// TestParseLogNoteTakesOnlyNotes: a process's own line that looks a bit
// like a note stays a line of the process.
func TestParseLogNoteTakesOnlyNotes(t *testing.T) {
	for _, line := range []string{
		"[procs] run 2",
		"[procs yesterday] run 2",
		"[procs 2025-06-01T10:00:00.123Z]run 2",
		"procs | run 2",
		"",
	} {
		_, ok := ParseLogNote(line)
		assert.False(t, ok, line)
	}
	note, ok := ParseLogNote("[procs 2025-06-01T10:00:00.123Z] 3 lines lost (write x: no space left on device)")
	require.True(t, ok)
	assert.Zero(t, note.Run)
	assert.Equal(t, "3 lines lost (write x: no space left on device)", note.Text)
}

// TestLogFileNotesTheLinesAFullDiskLost fills a 1 MiB file system under a
// log: the lines written meanwhile are lost, and once space is freed the
// log says how many and why, on a line of its own, before the next line.
func TestLogFileNotesTheLinesAFullDiskLost(t *testing.T) {
	dir := t.TempDir()
	mountSmallFS(t, dir)
	l, err := openedLogFile(filepath.Join(dir, "logs"), "web")
	require.NoError(t, err)
	defer l.Close()
	var resumed []logLoss
	l.onResume = func(loss logLoss) { resumed = append(resumed, loss) }
	l.Write([]byte("before\n"))

	filler := filepath.Join(dir, "filler")
	fillDisk(t, filler)
	// What fits in the page "before" began is written; the rest is lost.
	l.Write([]byte(strings.Repeat("lost line\n", 1000)))
	l.Write([]byte("half a line"))
	require.NotEmpty(t, l.health().Error, "the disk is full")

	require.NoError(t, os.Remove(filler))
	l.Write([]byte("after\n"))
	lines := logFileLines(t, filepath.Join(dir, "logs"), "web")
	require.GreaterOrEqual(t, len(lines), 3)
	assert.Equal(t, "before", lines[0])
	assert.Equal(t, "after", lines[len(lines)-1])
	note, ok := ParseLogNote(lines[len(lines)-2])
	require.True(t, ok, "the note of the loss: %q", lines[len(lines)-2])
	assert.Regexp(t, `^\d+ lines lost \(write .*web\.log: no space left on device\)$`, note.Text)
	require.Len(t, resumed, 1)
	assert.Positive(t, resumed[0].lines)
	assert.Equal(t, resumed[0].String(), note.Text)
}
