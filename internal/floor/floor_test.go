//go:build unix

package floor

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/internal/benchmetric"
	"github.com/procsdev/procs/internal/osproc"
)

// TestRunEndsEveryChild: both shapes fork every child, read its first
// line and leave none behind.
func TestRunEndsEveryChild(t *testing.T) {
	for _, shape := range []Shape{Flat, Tree} {
		t.Run(shape.String(), func(t *testing.T) {
			children := make([]*child, 15)
			require.NoError(t, launch(children, shape))
			pids := make([]int, len(children))
			for i, c := range children {
				require.NotNil(t, c, "child %d", i)
				pids[i] = c.cmd.Process.Pid
			}
			if shape == Tree {
				stopTree(children)
			} else {
				stopAll(children)
			}
			for _, pid := range pids {
				assert.False(t, osproc.Alive(pid), "child %d outlived the floor", pid)
			}
		})
	}
}

// BenchmarkFloor200 is the floor itself: 200 children as a tree and flat.
func BenchmarkFloor200(b *testing.B) {
	for _, shape := range []Shape{Tree, Flat} {
		b.Run(shape.String(), func(b *testing.B) {
			var ready, down []time.Duration
			for b.Loop() {
				res, err := Run(200, shape)
				require.NoError(b, err)
				ready, down = append(ready, res.AllReady), append(down, res.Down)
			}
			benchmetric.ReportPercentiles(b, "ready-ms", ready)
			benchmetric.ReportPercentiles(b, "down-ms", down)
		})
	}
}
