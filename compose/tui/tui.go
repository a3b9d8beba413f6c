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
	"sync"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
)

// Run shows the dashboard on the terminal until the user quits or ctx
// ends. It needs no procs to be running: it says so and keeps dialling.
func Run(ctx context.Context, opts Options, programOpts ...tea.ProgramOption) error {
	m := New(opts)
	programOpts = append([]tea.ProgramOption{tea.WithContext(ctx)}, programOpts...)
	if opts.NoColor {
		programOpts = append(programOpts, tea.WithColorProfile(colorprofile.Ascii))
	}
	p := tea.NewProgram(m, programOpts...)
	f := &feed{dir: opts.Dir, send: p.Send}
	feedCtx, stopFeed := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { f.run(feedCtx) })
	_, err := p.Run()
	stopFeed()
	wg.Wait()
	if err != nil && ctx.Err() == nil {
		return fmt.Errorf("tui: %w", err)
	}
	return nil
}
