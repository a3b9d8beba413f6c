package compose

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestKeysOnly(t *testing.T) {
	assert.True(t, keysOnly([]byte("\x1b[A\x03\r")), "keys are never refused")
	assert.False(t, keysOnly([]byte("ls\r")))
}
