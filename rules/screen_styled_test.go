package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A coloured prompt keeps its colours (vt10x shows bold green as bright
// green, as xterm does); a row keeps the blanks with a background.
func TestStyledRows(t *testing.T) {
	s := NewScreen(40, 5)
	_, _ = s.Write([]byte("plain line\r\n\x1b[1;32muser@host\x1b[0m:\x1b[34m~\x1b[0m$ \x1b[41m  \x1b[0m\r\n\x1b[38;5;208morange\x1b[0m\r\n"))
	rows := s.StyledRows()
	require.Len(t, rows, 3)
	assert.Equal(t, "plain line", rows[0], "no escapes where nothing is styled")
	assert.Equal(t, "\x1b[0;1;92muser@host\x1b[0m:\x1b[0;34m~\x1b[0m$ \x1b[0;41m  \x1b[0m", rows[1])
	assert.Equal(t, "\x1b[0;38;5;208morange\x1b[0m", rows[2])
	assert.Equal(t, "plain line\nuser@host:~$\norange", s.Text())
}
