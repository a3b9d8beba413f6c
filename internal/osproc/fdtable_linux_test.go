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
// size), and no descriptor is left open. (Run again in one process, the
// table may be at the limit already: then the size asked for is the limit.)
func TestReserveFDsGrowsTheTableOnceAndOpensNothing(t *testing.T) {
	var limit unix.Rlimit
	require.NoError(t, unix.Getrlimit(unix.RLIMIT_NOFILE, &limit))
	open := testenv.OpenFDs(t)
	want := int(min(4*uint64(testenv.FDTableSize(t)), limit.Cur))
	ReserveFDs(want)
	assert.GreaterOrEqual(t, testenv.FDTableSize(t), want)
	assert.Equal(t, open, testenv.OpenFDs(t), "a descriptor was left open")
}

// TestReserveFDsReplacesNoOpenDescriptor: asked for the size whose last
// slot is taken, ReserveFDs leaves the descriptor there as it was.
func TestReserveFDsReplacesNoOpenDescriptor(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "kept"))
	require.NoError(t, err)
	defer f.Close()
	var limit unix.Rlimit
	require.NoError(t, unix.Getrlimit(unix.RLIMIT_NOFILE, &limit))
	// The table may be larger than the limit (it grows by doubling); no
	// descriptor can be numbered at or above the limit.
	top := int(min(uint64(testenv.FDTableSize(t)), limit.Cur)) - 1
	for ; top > int(f.Fd()); top-- {
		if _, err := unix.FcntlInt(uintptr(top), unix.F_GETFD, 0); err != nil {
			break // free
		}
	}
	require.Greater(t, top, int(f.Fd()), "no free descriptor above the file's")
	require.NoError(t, unix.Dup3(int(f.Fd()), top, unix.O_CLOEXEC))
	defer unix.Close(top)

	ReserveFDs(top + 1)
	var kept, there unix.Stat_t
	require.NoError(t, unix.Fstat(int(f.Fd()), &kept))
	require.NoError(t, unix.Fstat(top, &there), "the descriptor at the top was closed")
	assert.Equal(t, kept.Ino, there.Ino, "the descriptor at the top was replaced")
}

// TestReserveFDsStopsAtTheLimit: asking for more than RLIMIT_NOFILE grows
// the table to the limit, not beyond, and does not fail.
func TestReserveFDsStopsAtTheLimit(t *testing.T) {
	var limit unix.Rlimit
	require.NoError(t, unix.Getrlimit(unix.RLIMIT_NOFILE, &limit))
	ReserveFDs(1 << 30)
	assert.LessOrEqual(t, uint64(testenv.FDTableSize(t)), max(limit.Cur, 64)*2)
}
