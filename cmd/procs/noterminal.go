package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/procsdev/procs/compose/control"
)

// terminalRefused is the error of attach or screen of name, which procs
// refused with err. A process that does not run in a terminal has none to
// show or attach to: its config is in the way, not its state, so it is a
// usage error (exit 2), as procs send --key of a key only a terminal
// reads; missing says what it lacks, instead what to use. Any other
// refusal (a process in a terminal that is not running) keeps its code.
func (a *app) terminalRefused(ctx context.Context, c *control.Client, name string, err error, missing, instead string) error {
	var apiErr *control.APIError
	if errors.As(err, &apiErr) && apiErr.Status == http.StatusConflict {
		if st, getErr := c.Get(ctx, name); getErr == nil && !st.PTY {
			return withCode(exitUsage, fmt.Errorf("%s does not run in a terminal, so %s: %s; set pty: true to run it in one", st.Name, missing, instead))
		}
	}
	return a.clientError(err)
}
