package main

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// globFiles lists the scripts matching pattern, failing if there are none.
func globFiles(t *testing.T, pattern string) []string {
	t.Helper()
	files, err := filepath.Glob(pattern)
	require.NoError(t, err)
	require.NotEmpty(t, files, "no scripts match %s", pattern)
	return files
}
