package rules

import (
	"os/exec"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A command line goes into one line of a message, a status table's cell,
// a log line: one whose arguments hold newlines (python3 -c with a script)
// must not break them, and a shortened one must stay valid UTF-8.
func TestCommandLineIsOneLine(t *testing.T) {
	cmd := exec.Command("sh", "-c", "sleep 30\n\texit 0 # "+strings.Repeat("é", 80))
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	var line string
	require.Eventually(t, func() bool {
		line = CommandLine(cmd.Process.Pid)
		return strings.HasPrefix(line, "sh -c")
	}, 10*time.Second, 10*time.Millisecond)
	assert.Equal(t, "sh -c sleep 30 exit 0 # ", line[:len("sh -c sleep 30 exit 0 # ")])
	assert.NotContains(t, line, "\n")
	assert.NotContains(t, line, "\t")
	assert.True(t, utf8.ValidString(line), "%q", line)
	assert.True(t, strings.HasSuffix(line, "..."), "%q", line)
}
