package contain

import (
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/procsdev/procs/internal/benchmetric"
)

// Run it with
//
//	go test ./compose/contain -run '^$' -bench Spawn -benchtime 10x

// benchProcs is how many processes BenchmarkSpawn starts per iteration.
const benchProcs = 200

// BenchmarkSpawn measures starting benchProcs children at once, each from
// a goroutine of its own as supervisors do, until every one has been
// forked and has executed its program (launch returns after the exec).
func BenchmarkSpawn(b *testing.B) {
	var took []time.Duration
	for b.Loop() {
		children := make([]*Process, benchProcs)
		errs := make(chan error, benchProcs)
		began := time.Now()
		for i := range children {
			go func() {
				c, err := launch(Spec{Argv: []string{"sleep", "300"}, Env: os.Environ()})
				children[i] = c
				errs <- err
			}()
		}
		for range children {
			if err := <-errs; err != nil {
				b.Fatal(err)
			}
		}
		took = append(took, time.Since(began))
		b.StopTimer()
		for _, c := range children {
			c.Signal(syscall.SIGKILL)
			c.Wait()
			c.CloseIO()
		}
		b.StartTimer()
	}
	benchmetric.ReportPercentiles(b, "spawn-ms", took)
}

// BenchmarkFindMarked measures one look through every process's
// environment for a marker, the last look of a clean shutdown (and each
// stop's look where there is no cgroup). Its cost grows with the machine's
// process count, not procs'.
func BenchmarkFindMarked(b *testing.B) {
	for b.Loop() {
		FindMarked("no-such-instance:")
	}
}
