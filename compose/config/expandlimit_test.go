package config

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// allocatedBy returns the bytes the Go heap handed out while f ran.
func allocatedBy(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// expansionBomb is a procs.yaml whose env value of valueBytes is expanded
// count times, each in a process's command: the shape of issue 28's
// 440 KB file that took procs check to 4 GB.
func expansionBomb(valueBytes, count int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "env:\n  BIG: %s\nprocs:\n", strings.Repeat("x", valueBytes))
	for i := range count {
		fmt.Fprintf(&b, "  p%d:\n    command: echo ${BIG}\n", i)
	}
	return b.String()
}

// TestExpansionTotalIsBounded is a scaled-down repro of issue 28 item 2: a
// 100 KiB value expanded 400 times would build 40 MiB of config; it is
// refused at the value that crosses the bound, without building the rest.
func TestExpansionTotalIsBounded(t *testing.T) {
	text := expansionBomb(100<<10, 400)
	var err error
	used := allocatedBy(func() { _, err = loadText(t, []byte(text)) })
	e := requireOneError(t, err)
	assert.Contains(t, e.Msg, "expanded config is larger than 16 MiB")
	assert.Regexp(t, `^procs\.p\d+\.command$`, e.Path)
	assert.Greater(t, e.Line, 3)
	assert.Equal(t, 14, e.Col)
	assert.Less(t, used, uint64(64<<20), "bytes allocated by the load")
}

// TestExpandedValueIsBounded refuses one value whose expansion alone is
// over the bound, from a tiny file: ${BIG} 20 times over a 100 KiB value.
func TestExpandedValueIsBounded(t *testing.T) {
	text := "env:\n  BIG: " + strings.Repeat("x", 100<<10) + "\nprocs:\n  a:\n    command: echo " + strings.Repeat("${BIG}", 20) + "\n"
	var err error
	used := allocatedBy(func() { _, err = loadText(t, []byte(text)) })
	e := requireOneError(t, err)
	assert.Equal(t, "procs.a.command", e.Path)
	assert.Equal(t, 5, e.Line)
	assert.Equal(t, 14, e.Col)
	assert.Contains(t, e.Msg, "expands to more than 1024 KiB")
	assert.Less(t, used, uint64(16<<20), "bytes allocated by the load")
}

// TestExpansionFromDotEnvIsBounded is the second repro: the value comes
// from .env, the references from procs.yaml.
func TestExpansionFromDotEnvIsBounded(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".env"), []byte("BIG="+strings.Repeat("y", 100<<10)+"\n"), 0o600))
	var b strings.Builder
	b.WriteString("procs:\n")
	for i := range 400 {
		fmt.Fprintf(&b, "  p%d:\n    command: echo ${BIG}\n", i)
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "procs.yaml"), []byte(b.String()), 0o600))
	var err error
	used := allocatedBy(func() { _, err = Load(LoadOptions{Dir: dir, Environ: []string{}}) })
	e := requireOneError(t, err)
	assert.Contains(t, e.Msg, "expanded config is larger than 16 MiB")
	assert.Less(t, used, uint64(64<<20), "bytes allocated by the load")
}

// TestHugeEnvFilesAreRefused caps .env and envFile like procs.yaml, naming
// the file and, for envFile, the line of the key that names it.
func TestHugeEnvFilesAreRefused(t *testing.T) {
	huge := []byte("A=" + strings.Repeat("z", maxEnvFileBytes) + "\n")
	t.Run("envFile", func(t *testing.T) {
		dir := t.TempDir()
		require.NoError(t, os.WriteFile(filepath.Join(dir, "big.env"), huge, 0o600))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "procs.yaml"), []byte("procs:\n  a:\n    command: sleep 1\n    envFile: big.env\n"), 0o600))
		_, err := Load(LoadOptions{Dir: dir, Environ: []string{}})
		e := requireOneError(t, err)
		assert.Equal(t, "procs.a.envFile", e.Path)
		assert.Equal(t, 4, e.Line)
		assert.Equal(t, 14, e.Col)
		assert.Contains(t, e.Msg, "env file big.env is larger than 1024 KiB")
	})
	t.Run(".env", func(t *testing.T) {
		dir := t.TempDir()
		require.NoError(t, os.WriteFile(filepath.Join(dir, ".env"), huge, 0o600))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "procs.yaml"), []byte("procs:\n  a:\n    command: sleep 1\n"), 0o600))
		_, err := Load(LoadOptions{Dir: dir, Environ: []string{}})
		e := requireOneError(t, err)
		assert.Equal(t, 1, e.Line)
		assert.Contains(t, e.Msg, "larger than 1024 KiB")
		assert.Contains(t, e.Msg, ".env")
	})
}

// TestOrdinaryExpansionPassesTheBounds keeps a realistic use of a large
// value (a 64 KiB certificate in 50 processes) accepted.
func TestOrdinaryExpansionPassesTheBounds(t *testing.T) {
	cfg, err := loadText(t, []byte(expansionBomb(64<<10, 50)))
	require.NoError(t, err)
	assert.Len(t, cfg.Procs["p49"].Command.Shell, 64<<10+len("echo "))
}

// TestDotEnvExpansionIsBounded is godotenv's own expansion inside a
// dotenv file, a doubling per line: 31 lines ask for terabytes; here 12
// lines of 1000 bytes doubled ask for 2 MiB, refused before it is built.
func TestDotEnvExpansionIsBounded(t *testing.T) {
	var env strings.Builder
	env.WriteString("V0=" + strings.Repeat("x", 1000) + "\n")
	for i := 1; i <= 11; i++ {
		fmt.Fprintf(&env, "V%d=${V%d}${V%d}\n", i, i-1, i-1)
	}
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "big.env"), []byte(env.String()), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "procs.yaml"), []byte("envFile: big.env\nprocs:\n  a:\n    command: sleep 1\n"), 0o600))
	_, err := Load(LoadOptions{Dir: dir, Environ: []string{}})
	e := requireOneError(t, err)
	assert.Equal(t, "envFile", e.Path)
	assert.Equal(t, 1, e.Line)
	assert.Equal(t, 10, e.Col)
	assert.Contains(t, e.Msg, "env file big.env is too large once expanded: V11 would expand to more than 1024 KiB")
}

// TestDotEnvExpansionStillWorks keeps godotenv's own expansion as it was
// for a file within the bounds.
func TestDotEnvExpansionStillWorks(t *testing.T) {
	vars, err := readDotEnvText(t, "A=1\nB=${A}x # note\nC='${A}'\nD=\"\\${A} ${B}\"\nexport E: $A$A\n")
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"A": "1", "B": "1x", "C": "${A}", "D": "${A} 1x", "E": "11"}, vars)
}

// readDotEnvText reads text as a dotenv file.
func readDotEnvText(t *testing.T, text string) (map[string]string, error) {
	t.Helper()
	file := filepath.Join(t.TempDir(), ".env")
	require.NoError(t, os.WriteFile(file, []byte(text), 0o600))
	return readDotEnv(file)
}
