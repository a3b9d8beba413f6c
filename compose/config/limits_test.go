package config

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// configErrors loads text as procs.yaml in a fresh folder and returns its
// config errors.
func loadText(t *testing.T, text []byte) (*Config, error) {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "procs.yaml"), text, 0o644))
	return Load(LoadOptions{Dir: dir, Environ: []string{}})
}

func requireOneError(t *testing.T, err error) *ConfigError {
	t.Helper()
	var errs ConfigErrors
	require.True(t, errors.As(err, &errs), "want config errors, got %v", err)
	require.Len(t, errs, 1, "%v", err)
	return errs[0]
}

// TestDeepNestingIsRefused is the repro of a command of 100 000 nested
// flow sequences, which took gigabytes and many seconds before its error.
func TestDeepNestingIsRefused(t *testing.T) {
	for _, depth := range []int{100, 8000, 100_000} {
		text := "procs:\n  a:\n    command: " + strings.Repeat("[", depth) + strings.Repeat("]", depth) + "\n"
		_, err := loadText(t, []byte(text))
		e := requireOneError(t, err)
		assert.Equal(t, 3, e.Line, "depth %d", depth)
		assert.Contains(t, e.Msg, "nested more than 64 levels", "depth %d", depth)
	}
}

func TestDeepBlockNestingIsRefused(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("procs:\n  a:\n    command: sleep 1\n    env:\n")
	for i := range 80 {
		b.WriteString(strings.Repeat("  ", i+3) + "k:\n")
	}
	_, err := loadText(t, b.Bytes())
	e := requireOneError(t, err)
	assert.Contains(t, e.Msg, "nested more than 64 levels")
	_, err = loadText(t, []byte("procs:\n  a:\n    command:\n      "+strings.Repeat("- ", 70)+"x\n"))
	assert.Contains(t, requireOneError(t, err).Msg, "nested more than 64 levels")
}

func TestHugeConfigIsRefused(t *testing.T) {
	text := []byte("procs:\n  a:\n    command: sleep 1\n# " + strings.Repeat("x", maxConfigBytes) + "\n")
	_, err := loadText(t, text)
	e := requireOneError(t, err)
	assert.Equal(t, 1, e.Line)
	assert.Contains(t, e.Msg, "larger than 1024 KiB")
}

// TestOrdinaryConfigsPassTheLimits keeps brackets in quotes, comments and
// words from counting, and a realistic deep config accepted.
func TestOrdinaryConfigsPassTheLimits(t *testing.T) {
	text := `# [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[
procs:
  a:
    command: echo "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\" {{"
    readyPatterns: ['[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[x]']
    env: {A: "don't", B: '{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{''{'}
  b:
    command: [sh, -c, "echo it's [fine]"]
    dependsOn:
      a:
        condition: started
`
	cfg, err := loadText(t, []byte(text))
	require.NoError(t, err)
	assert.Len(t, cfg.Procs, 2)
}
