package control

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/procsdev/procs/rules"
)

// WaitAll waits, in parallel, for every process procs runs or will run to
// be ready (or completed, for a task), each for at most timeout. It calls
// each with every result as it arrives, and the process's place in start
// order, on the caller's goroutine, and stops
// waiting for the others when each returns false. Stopped processes
// (disabled, or not asked for by `procs up NAME...`) are left out. It
// returns the first error of a wait. The waits share one request, so one
// connection, whatever the number of processes.
func (c *Client) WaitAll(ctx context.Context, timeout time.Duration, each func(place int, res rules.Result) bool) error {
	list, err := c.List(ctx)
	if err != nil {
		return err
	}
	var names []string
	var places []int
	for place, st := range list {
		if st.State != rules.StateStopped {
			names = append(names, st.Name)
			places = append(places, place)
		}
	}
	return c.waitEach(ctx, names, WaitOptions{Timeout: timeout}, func(i int, res rules.Result, err error) error {
		if err != nil {
			return err
		}
		if !each(places[i], res) {
			return errStopWaiting
		}
		return nil
	})
}

// WaitMany waits, in parallel and on one connection, for each of names as
// Wait does, and returns the results and errors in the order of names.
func (c *Client) WaitMany(ctx context.Context, names []string, opts WaitOptions) ([]rules.Result, []error) {
	results := make([]rules.Result, len(names))
	errs := make([]error, len(names))
	err := c.waitEach(ctx, names, opts, func(i int, res rules.Result, err error) error {
		results[i], errs[i] = res, err
		return nil
	})
	if err != nil {
		// The answers that did not come share why.
		for i := range names {
			if errs[i] == nil && results[i].Name == "" {
				errs[i] = err
			}
		}
	}
	return results, errs
}

// errStopWaiting is what a callback of waitEach returns to stop early,
// which is not an error of the wait.
var errStopWaiting = errors.New("stop waiting")

// waitEach sends one GET /v1/wait for names and calls fn, on the caller's
// goroutine, with each process's index in names and its result or error
// as its wait ends. It stops at fn's first error, returned (but for
// errStopWaiting), and returns why the answers stopped before all came.
func (c *Client) waitEach(ctx context.Context, names []string, opts WaitOptions, fn func(i int, res rules.Result, err error) error) error {
	if len(names) == 0 {
		return nil
	}
	ctx, stop := c.watch(ctx)
	defer stop()
	resp, err := c.do(ctx, http.MethodGet, "/v1/wait", waitQuery(names, opts), nil)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	dec := json.NewDecoder(resp.Body)
	for range names {
		var line WaitLine
		if err := dec.Decode(&line); err != nil {
			return c.waitCut(ctx, err)
		}
		if line.Place < 0 || line.Place >= len(names) {
			return fmt.Errorf("wait: answer for place %d of %d processes", line.Place, len(names))
		}
		res, lineErr := lineResult(line)
		if err := fn(line.Place, res, lineErr); errors.Is(err, errStopWaiting) {
			return nil
		} else if err != nil {
			return err
		}
	}
	return nil
}

// lineResult is a line's result, or its refusal as the *APIError a single
// wait would have returned.
func lineResult(line WaitLine) (rules.Result, error) {
	if line.Result != nil {
		return *line.Result, nil
	}
	eb := ErrorBody{Error: "no result"}
	if line.Error != nil {
		eb = *line.Error
	}
	return rules.Result{}, &APIError{Status: line.Status, Message: eb.Error, State: eb.State, StateMessage: eb.StateMessage, Known: eb.Known}
}

// waitCut says why the answers of a wait stopped coming: procs ended, or
// stopped answering, when a ping says so, else the read's own error.
func (c *Client) waitCut(ctx context.Context, err error) error {
	if ctx.Err() == nil {
		if pingErr := c.ping(ctx); pingErr != nil {
			return pingErr
		}
	}
	return causeOf(ctx, fmt.Errorf("GET /v1/wait: read answer: %w", err))
}

// waitQuery is the query of a wait for names (none: the process of the
// request's path).
func waitQuery(names []string, opts WaitOptions) url.Values {
	query := url.Values{}
	if len(names) > 0 {
		query.Set("proc", strings.Join(names, ","))
	}
	if len(opts.For) > 0 {
		parts := make([]string, len(opts.For))
		for i, st := range opts.For {
			parts[i] = string(st)
		}
		query.Set("for", strings.Join(parts, ","))
	}
	if opts.Run > 0 {
		query.Set("run", strconv.Itoa(opts.Run))
	}
	if opts.Timeout > 0 {
		query.Set("timeout", opts.Timeout.String())
	}
	return query
}
