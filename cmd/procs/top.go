package main

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/procsdev/procs/compose"
	"github.com/procsdev/procs/compose/control"
	"github.com/procsdev/procs/compose/wire"
	"github.com/procsdev/procs/internal/osproc"
)

func (a *app) topCommand() *cobra.Command {
	var every time.Duration
	cmd := &cobra.Command{
		Use:   "top",
		Short: "Show the CPU and memory of every process, busiest first, redrawn in place",
		Long: `Show every process of the running procs with the CPU (percent of one core)
and the memory of its whole process tree, the busiest first, redrawn in place
like top(1) every --interval until q or Ctrl-C. When the output is not a
terminal it prints the table once.

procs measures only while someone looks (procs top, status, a dashboard), so
an idle procs nobody looks at costs nothing.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if every < 500*time.Millisecond {
				return withCode(exitUsage, fmt.Errorf("--interval %s is too short: use 500ms or more", every))
			}
			sess, err := a.connect()
			if err != nil {
				return err
			}
			defer sess.close()
			in, inOK := a.stdin.(*os.File)
			out, outOK := a.stdout.(*os.File)
			if !inOK || !outOK || !term.IsTerminal(int(in.Fd())) || !term.IsTerminal(int(out.Fd())) {
				list, err := sess.client.ListUsage(sess.ctx)
				if err != nil {
					return a.clientError(err)
				}
				a.printStatusTable(busiestFirst(list), 0)
				return nil
			}
			return a.top(sess, in, out, every)
		},
	}
	cmd.Flags().DurationVarP(&every, "interval", "n", 2*time.Second, "time between two refreshes")
	return cmd
}

// top redraws the table on the alternate screen every interval until q,
// Ctrl-C or the end of procs, then gives the terminal back as it was.
func (a *app) top(sess *clientSession, in, out *os.File, every time.Duration) error {
	state, err := term.MakeRaw(int(in.Fd()))
	if err != nil {
		return withCode(exitFailure, fmt.Errorf("top: raw mode: %w", err))
	}
	fmt.Fprint(out, "\x1b[?1049h\x1b[?25l") // the alternate screen, no cursor
	defer func() {
		fmt.Fprint(out, "\x1b[?25h\x1b[?1049l")
		_ = term.Restore(int(in.Fd()), state)
	}()
	ctx, cancel := context.WithCancel(sess.ctx)
	defer cancel()
	quit := make(chan struct{})
	// A read on a terminal cannot be interrupted: this reader ends with
	// the command, which returns right after q.
	go func() {
		buf := make([]byte, 64)
		for {
			n, err := in.Read(buf)
			// Raw mode turns Ctrl-C into a byte, not a signal.
			if err != nil || bytes.ContainsAny(buf[:n], "qQ\x03") {
				close(quit)
				return
			}
		}
	}()
	winch := make(chan os.Signal, 1)
	osproc.NotifyResize(winch)
	defer signal.Stop(winch)
	ticker := time.NewTicker(every)
	defer ticker.Stop()
	for {
		if err := a.drawTop(ctx, sess.client, out, every); err != nil {
			return err
		}
		select {
		case <-quit:
			return nil
		case <-ctx.Done():
			return nil
		case <-ticker.C:
		case <-winch:
		}
	}
}

// drawTop draws one screen: a summary line, then the table, cut to the
// terminal.
func (a *app) drawTop(ctx context.Context, c *control.Client, out io.Writer, every time.Duration) error {
	list, err := c.ListUsage(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return a.clientError(err)
	}
	width, height := a.terminalSize()
	var table bytes.Buffer
	writeStatusTable(&table, busiestFirst(list), width)
	lines := append([]string{topSummary(list, every)}, strings.Split(strings.TrimSuffix(table.String(), "\n"), "\n")...)
	if height > 0 && len(lines) > height {
		lines = lines[:height]
	}
	var screen strings.Builder
	screen.WriteString("\x1b[H")
	for i, line := range lines {
		if width > 1 {
			line = ansi.Truncate(line, width-1, "…")
		}
		screen.WriteString(line + "\x1b[K")
		if i < len(lines)-1 {
			screen.WriteString("\r\n")
		}
	}
	screen.WriteString("\x1b[J")
	_, err = io.WriteString(out, screen.String())
	return err
}

// topSummary is the line above the table: how many run, what they use
// together, and how to leave.
func topSummary(list []compose.ProcStatus, every time.Duration) string {
	var total wire.Usage
	running := 0
	for _, st := range list {
		total = total.Plus(st.Usage)
		if st.PID != 0 {
			running++
		}
	}
	return fmt.Sprintf("procs top · %d of %d running · CPU %s · MEM %s · every %s · q quits",
		running, len(list), total.CPUText(), total.MemoryText(), every)
}

// busiestFirst orders list by CPU, the busiest first, then by memory; a
// replicated process's instances stay together, ordered by what they use
// together.
func busiestFirst(list []compose.ProcStatus) []compose.ProcStatus {
	groups := wire.ReplicaGroups(list)
	sum := func(group []compose.ProcStatus) wire.Usage {
		var u wire.Usage
		for _, st := range group {
			u = u.Plus(st.Usage)
		}
		return u
	}
	slices.SortStableFunc(groups, func(x, y []compose.ProcStatus) int {
		ux, uy := sum(x), sum(y)
		if c := -cmp.Compare(ux.CPUOrZero(), uy.CPUOrZero()); c != 0 {
			return c
		}
		return -cmp.Compare(ux.MemoryBytes, uy.MemoryBytes)
	})
	return slices.Concat(groups...)
}
