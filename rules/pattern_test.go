package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCompilePatternsCompilesEachSourceOnce: the processes of a config
// share their patterns' compiled form, and a bad pattern is still named
// in the error, each time it is asked for.
func TestCompilePatternsCompilesEachSourceOnce(t *testing.T) {
	first, err := CompilePatterns([]string{`ready on port \d+`, `^listening`})
	require.NoError(t, err)
	again, err := CompilePatterns([]string{`^listening`, `ready on port \d+`})
	require.NoError(t, err)
	assert.Same(t, first[0].Re, again[1].Re)
	assert.Same(t, first[1].Re, again[0].Re)
	assert.Equal(t, `^listening`, again[0].Source)
	assert.True(t, again[1].Re.MatchString("ready on port 8080"))

	for range 2 {
		_, err = CompilePatterns([]string{`fine`, `broken(`})
		require.Error(t, err)
		assert.Contains(t, err.Error(), `compile pattern "broken("`)
	}
}
