package compose

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestKeysOnly(t *testing.T) {
	assert.True(t, keysOnly([]byte("\x1b[A\x03\r")), "keys are never refused")
	assert.False(t, keysOnly([]byte("ls\r")))
	assert.True(t, keysOnly([]byte("\x1b[1;5A\x7f\n")), "Ctrl-Up, Backspace, Enter")
	assert.False(t, keysOnly([]byte("\x1b[Aé")), "an arrow and a letter")
	assert.False(t, keysOnly([]byte("\t")), "a tab completes: it is input")
}
