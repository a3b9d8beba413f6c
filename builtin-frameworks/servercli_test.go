package frameworks

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/rules"
)

// TestServerCLIsAreReadyOnlyOnceServing replays real runs of server CLIs
// whose app takes 2 s to import (hypercorn, waitress-serve): they bind,
// and say so, only once it has. With no preset such a command is ready
// after a second of running, while a client still cannot connect; it must
// be ready on the line that says it serves, once its port is open.
func TestServerCLIsAreReadyOnlyOnceServing(t *testing.T) {
	for _, name := range []string{"hypercorn/slow-start", "waitress/slow-start"} {
		t.Run(name, func(t *testing.T) {
			c := loadCapture(t, filepath.Join(ownCaptures, name))
			require.NotNil(t, c.Meta.ReadyLine)
			require.NotNil(t, c.Meta.PortOpenT)
			t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			d := rules.NewDetector(&rules.Spec{}, 1, t0) // what the engine runs with no preset
			if det, ok := Detect(c.Command, nil, t.TempDir()); ok {
				d = detectorFor(t, det.Preset, 0, t0)
			}
			var ready *timedVerdict
			for _, v := range replay(d, captureEvents(c, t0)) {
				if v.State == rules.StateReady {
					ready = &v
					break
				}
			}
			require.NotNil(t, ready, "never ready")
			assert.False(t, ready.at.Before(t0.Add(seconds(*c.Meta.PortOpenT))),
				"ready after %s (%s), before it listened at %.3fs", ready.at.Sub(t0), ready.Message, *c.Meta.PortOpenT)
			assert.Equal(t, *c.Meta.ReadyLine, ready.Line, "the deciding line")
		})
	}
}
