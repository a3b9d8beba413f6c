package control

import (
	"context"
	"fmt"
	"sync"
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
	var wg sync.WaitGroup
	// Cancel, then wait: every wait ends with its context, so WaitAll
	// leaves no goroutine behind.
	defer wg.Wait()
	defer cancel()
	type answer struct {
		place int
		res   rules.Result
		err   error
	}
	// One slot per wait: a wait can always deliver its answer and end, read
	// or not (oklog/run's rule), so no send pairs with a receive that left.
	answers := make(chan answer, len(list))
	waiting := 0
	for place, st := range list {
		if st.State == rules.StateStopped {
			continue
		}
		waiting++
		wg.Go(func() {
			res, err := c.Wait(ctx, st.Name, WaitOptions{Timeout: timeout})
			answers <- answer{place, res, err}
		})
	}
	for range waiting {
		var a answer
		select {
		case a = <-answers:
		case <-ctx.Done():
			return causeOf(ctx, fmt.Errorf("wait for every process: %w", ctx.Err()))
		}
		if a.err != nil {
			return a.err
		}
		if !each(a.place, a.res) {
			return nil
		}
	}
	return nil
}
