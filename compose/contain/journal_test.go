//go:build unix

package contain

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestJournalStaysSmall starts and stops a group over and over, as a
// process that restarts all day does: the record keeps what is live, and
// its files stay small however many lines were appended.
func TestJournalStaysSmall(t *testing.T) {
	j, err := newJournal("I inst")
	require.NoError(t, err)
	defer j.close()
	j.append("C /sys/fs/cgroup/procs-inst")
	for pgid := 1000; pgid < 50_000; pgid++ {
		j.append(fmt.Sprintf("+%d", pgid))
		j.append(fmt.Sprintf("-%d", pgid))
	}
	j.append("+77")
	for _, f := range j.files {
		info, err := f.Stat()
		require.NoError(t, err)
		assert.LessOrEqual(t, info.Size(), int64(2*journalCompactFrom), "a file of the journal has grown to %d bytes", info.Size())
	}
	left := readLeftovers(bytes.NewReader(readJournal(j.files[:]...)))
	assert.Equal(t, "inst", left.instance)
	assert.Equal(t, []string{"/sys/fs/cgroup/procs-inst"}, left.cgroups)
	assert.Equal(t, map[int]bool{77: true}, liveGroups(left))
}

// TestJournalSurvivesAKilledRewrite: a procs killed while it rewrites the
// record (the new file's header not yet written) leaves the previous file
// as the record; a line it was killed while writing is not one.
func TestJournalSurvivesAKilledRewrite(t *testing.T) {
	j, err := newJournal("I inst")
	require.NoError(t, err)
	defer j.close()
	j.append("+42")
	next := j.files[1-j.active]
	require.NoError(t, next.Truncate(0))
	_, err = next.WriteAt([]byte("I inst\n+43\n"), journalHeaderLen)
	require.NoError(t, err)
	_, err = j.files[j.active].WriteAt([]byte("+4"), j.size)
	require.NoError(t, err)

	left := readLeftovers(bytes.NewReader(readJournal(j.files[:]...)))
	assert.Equal(t, map[int]bool{42: true}, liveGroups(left))
}

// liveGroups are the groups w would stop.
func liveGroups(w leftovers) map[int]bool {
	live := map[int]bool{}
	for pgid, ok := range w.groups {
		if ok {
			live[pgid] = true
		}
	}
	return live
}
