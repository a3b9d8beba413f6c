package wire

import "context"

// Attachment is a terminal connected to a PTY process (procs attach): it
// gets the current screen, then the raw output, and sends keystrokes and
// window sizes. Closing it leaves the process running.
type Attachment struct {
	// Screen redraws what the process shows now; write it to the terminal
	// before Output.
	Screen []byte
	// Output carries the process's output from the moment Screen was taken;
	// it is closed when the run ends or the terminal falls too far behind.
	Output <-chan []byte
	// Terminal takes the keystrokes and window sizes; the engine gives it.
	Terminal
}

// Terminal is where an attached terminal's keystrokes and window sizes go.
type Terminal interface {
	// Input writes keystrokes to the process, as typed: they never count
	// as a submitted prompt and are never refused.
	Input(ctx context.Context, data []byte) error
	// Resize changes the window of the process's terminal.
	Resize(cols, rows int) error
	// Close detaches the terminal; the process goes on. The last terminal
	// to detach gives the process back its configured window.
	Close()
}
