package contain

import (
	"errors"
	"runtime"
)

// errNoPTY is the start failure of a PTY process where procs has no
// pseudo-terminals (Windows): it says what to change.
var errNoPTY = errors.New("PTY processes are not supported on " + runtime.GOOS +
	": set `pty: false` and `interactive: false` for this process (it then runs with pipes)")
