//go:build unix

package recorder

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseStep(t *testing.T) {
	st, err := ParseStep(`1.5s:Enter name=>bob\r`)
	require.NoError(t, err)
	assert.Equal(t, 1500*time.Millisecond, st.Delay)
	assert.Equal(t, "Enter name", st.When.String())
	assert.Equal(t, "bob\r", st.Send)
	st, err = ParseStep(`=>\x1b`)
	require.NoError(t, err)
	assert.Nil(t, st.When, "an empty regex types at once")
	assert.Equal(t, "\x1b", st.Send)
	_, err = ParseStep(`no arrow`)
	assert.Error(t, err)
	_, err = ParseStep(`(=>x`)
	assert.Error(t, err)
}

// TestTerminalAnswersAndTypes records a program that asks the terminal
// where its cursor is (and waits for the answer, as TUIs do), then asks a
// question the terminal types the answer to.
func TestTerminalAnswersAndTypes(t *testing.T) {
	step, err := ParseStep(`name\? $=>bob\r`)
	require.NoError(t, err)
	term := &Terminal{Cols: 80, Rows: 24, Steps: []Step{step}}
	script := `stty raw -echo; printf '\033[6n'; pos=$(dd bs=1 count=6 2>/dev/null); stty sane; printf 'at %s\nname? ' "$pos" | tr -d '\033'; read n; echo "hi $n"`
	res, err := Run(context.Background(), Options{Command: "sh -c '" + strings.ReplaceAll(script, "'", `'\''`) + "'",
		Dir: t.TempDir(), PTY: true, Terminal: term, Timeout: 20 * time.Second})
	require.NoError(t, err)
	var out, typed strings.Builder
	for _, c := range res.Chunks {
		map[string]*strings.Builder{"pty": &out, "input": &typed}[c.Stream].Write(c.Data)
	}
	assert.Contains(t, out.String(), "at [1;1R", "the cursor position query was answered")
	assert.Contains(t, out.String(), "hi bob")
	assert.Equal(t, "bob\r", typed.String())
	require.NotEmpty(t, term.Screens)
	assert.Contains(t, term.Screens[0], "name?")
}
