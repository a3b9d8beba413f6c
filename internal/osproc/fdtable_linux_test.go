package osproc

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/procsdev/procs/internal/testenv"
)

// TestReserveFDsGrowsTheTableOnceAndOpensNothing: the table holds the
// descriptors asked for afterwards (FDSize in /proc/self/status is its
// size), no descriptor is left open, and an open one just below the size
// asked for is untouched.
func TestReserveFDsGrowsTheTableOnceAndOpensNothing(t *testing.T) {
	before := testenv.FDTableSize(t)
	f, err := os.Create(filepath.Join(t.TempDir(), "kept"))
	require.NoError(t, err)
	defer f.Close()
	_, err = f.WriteString("kept")
	require.NoError(t, err)
	open := testenv.OpenFDs(t)

	want := 4 * max(before, int(f.Fd())+1)
	ReserveFDs(want)
	assert.GreaterOrEqual(t, testenv.FDTableSize(t), want)
	assert.Equal(t, open, testenv.OpenFDs(t), "a descriptor was left open")
	data, err := os.ReadFile(f.Name())
	require.NoError(t, err)
	assert.Equal(t, "kept", string(data))
	_, err = f.Seek(0, 0)
	require.NoError(t, err, "the open file was replaced")
}

// TestReserveFDsStopsAtTheLimit: asking for more than RLIMIT_NOFILE grows
// the table to the limit, not beyond, and does not fail.
func TestReserveFDsStopsAtTheLimit(t *testing.T) {
	var limit unix.Rlimit
	require.NoError(t, unix.Getrlimit(unix.RLIMIT_NOFILE, &limit))
	ReserveFDs(1 << 30)
	assert.LessOrEqual(t, uint64(testenv.FDTableSize(t)), max(limit.Cur, 64)*2)
}
