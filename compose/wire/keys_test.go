package wire

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestKeySequence(t *testing.T) {
	for name, want := range map[string]string{"ctrl-c": "\x03", "Ctrl-D": "\x04", "esc": "\x1b", "Escape": "\x1b", "enter": "\r", "up": "\x1b[A"} {
		got, err := KeySequence(name)
		require.NoError(t, err, name)
		assert.Equal(t, want, got, name)
	}
	_, err := KeySequence("ctrl-1")
	assert.ErrorContains(t, err, "unknown key")
}
