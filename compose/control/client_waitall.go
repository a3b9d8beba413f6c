package control

import (
	"context"
	"time"

	"github.com/procsdev/procs/rules"
)

// WaitAll waits, in parallel, for every process procs runs or will run to
// be ready (or completed, for a task), each for at most timeout. It calls
// each with every result as it arrives, and the process's place in start
// order, on the caller's goroutine, and stops
// waiting for the others when each returns false. Stopped processes
// (disabled, or not asked for by `procs up NAME...`) are left out. It
// returns the first error of a wait.
func (c *Client) WaitAll(ctx context.Context, timeout time.Duration, each func(place int, res rules.Result) bool) error {
	list, err := c.List(ctx)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type answer struct {
		place int
		res   rules.Result
		err   error
	}
	answers := make(chan answer)
	waiting := 0
	for place, st := range list {
		if st.State == rules.StateStopped {
			continue
		}
		waiting++
		go func() {
			res, err := c.Wait(ctx, st.Name, WaitOptions{Timeout: timeout})
			select {
			case answers <- answer{place, res, err}:
			case <-ctx.Done():
			}
		}()
	}
	for range waiting {
		a := <-answers
		if a.err != nil {
			return a.err
		}
		if !each(a.place, a.res) {
			return nil
		}
	}
	return nil
}
