package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

// interruptedError ends a command that Ctrl-C or SIGTERM interrupted: it
// exits 128 plus the signal's number (130 for Ctrl-C, 143 for SIGTERM).
type interruptedError struct {
	sig syscall.Signal
	// done says what the command did about it ("stopped task1 (run 2)").
	done string
}

// Error says which signal interrupted the command and what it did.
func (e *interruptedError) Error() string {
	msg := "interrupted by " + signalName(e.sig)
	if e.done != "" {
		msg += "; " + e.done
	}
	return msg
}

// exitCode is 128 plus the signal's number, as a shell reports it.
func (e *interruptedError) exitCode() int { return 128 + int(e.sig) }

func signalName(sig syscall.Signal) string {
	if sig == syscall.SIGINT {
		return "Ctrl-C (SIGINT)"
	}
	return "SIG" + map[syscall.Signal]string{syscall.SIGTERM: "TERM", syscall.SIGHUP: "HUP", syscall.SIGQUIT: "QUIT"}[sig]
}

// withHangup is sigs and SIGHUP, unless procs was started ignoring the
// hangup (`nohup procs up &`): asking for it would install a handler in
// its place, and procs, and every process it starts, would then end when
// the terminal closes, which nohup was there to prevent.
func withHangup(sigs ...os.Signal) []os.Signal {
	if signal.Ignored(syscall.SIGHUP) {
		return sigs
	}
	return append(sigs, syscall.SIGHUP)
}

// signalContext is cancelled by Ctrl-C or SIGTERM, with an
// *interruptedError as its cause, so commands that wait or follow a stream
// end at once and can say why. SIGHUP (its terminal closed, unless
// ignored: withHangup) and SIGQUIT too, which would otherwise end the
// command where it stands: an attach would leave its terminal raw. stop
// releases the signals and waits for the watcher to end.
func signalContext() (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, withHangup(os.Interrupt, syscall.SIGTERM, syscall.SIGQUIT)...)
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		select {
		case sig := <-sigs:
			s, _ := sig.(syscall.Signal)
			cancel(&interruptedError{sig: s})
		case <-ctx.Done():
		}
	}()
	return ctx, func() { signal.Stop(sigs); cancel(nil); <-ended }
}

// interruption returns how a signal interrupted ctx, or nil.
func interruption(ctx context.Context) *interruptedError {
	if ctx == nil {
		return nil
	}
	var ie *interruptedError
	if errors.As(context.Cause(ctx), &ie) {
		return ie
	}
	return nil
}

// interrupted replaces the error of a command a signal interrupted (a
// transport error, "not ready in time") with one saying so, unless the
// command already said what it did about it.
func (a *app) interrupted(err error) error {
	ie := interruption(a.signals)
	if ie == nil {
		return err
	}
	var own *interruptedError
	if errors.As(err, &own) {
		return err
	}
	return ie
}

// interruptedWhile is the interruption of ctx with what the command did.
func interruptedWhile(ctx context.Context, format string, args ...any) error {
	ie := interruption(ctx)
	if ie == nil {
		return nil
	}
	return &interruptedError{sig: ie.sig, done: fmt.Sprintf(format, args...)}
}
