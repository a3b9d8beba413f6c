// Package tui is procs' terminal dashboard: a client of the control API
// and its event stream that shows every process, its state and reason,
// the selected one's log or screen, and acts on them with single keys.
//
// It is a client of the API: it reaches a running procs only through compose/control's client, and
// imports compose and rules for their exported types alone, never to run an engine.
package tui

import (
	"context"
	"fmt"
	"io"
	"sync"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
)

// Run shows the dashboard on the terminal whose input is in and output
// out until the user quits or ctx ends, and leaves that terminal's title
// as it found it. It needs no procs to be running: it says so and keeps
// dialling.
func Run(ctx context.Context, opts Options, in io.Reader, out io.Writer, programOpts ...tea.ProgramOption) error {
	m := New(opts)
	programOpts = append([]tea.ProgramOption{tea.WithContext(ctx), tea.WithInput(in), tea.WithOutput(out)}, programOpts...)
	if opts.NoColor {
		programOpts = append(programOpts, tea.WithColorProfile(colorprofile.Ascii))
	}
	p := tea.NewProgram(m, programOpts...)
	f := &feed{dir: opts.Dir, send: p.Send}
	feedCtx, stopFeed := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { f.run(feedCtx) })
	err := keepingTitle(out, func() error {
		_, err := p.Run()
		return err
	})
	stopFeed()
	wg.Wait()
	if err != nil && ctx.Err() == nil {
		return fmt.Errorf("tui: %w", err)
	}
	return nil
}
