//go:build unix

package recorder

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/procsdev/procs/internal/capture"
)

// NewMeta fills the measured fields of a capture's meta.json from a result.
func NewMeta(server, scenario string, opts Options, res *Result) capture.Meta {
	m := capture.Meta{Server: server, Scenario: scenario, Mode: "pipe", Port: opts.Port,
		ReadyLineT: res.ReadyLineT, PortOpenT: res.PortOpenT, ExitCode: res.ExitCode,
		ExitT: res.ExitT, SignalAt: res.SignalAt, Chunks: len(res.Chunks), Truncated: res.Truncated}
	if opts.PTY {
		m.Mode = "pty"
	}
	if res.ReadyLineT != nil {
		line := res.ReadyLine
		m.ReadyLine = &line
	}
	if res.ExitSignal != "" {
		sig := res.ExitSignal
		m.ExitSignal = &sig
	}
	if res.Signal != "" {
		sig := res.Signal
		m.Signal = &sig
	}
	for _, c := range res.Chunks {
		m.Bytes += len(c.Data)
	}
	return m
}

// Write stores a capture in dir: chunks.jsonl, output.raw, meta.json and
// cmd.txt (the command preceded by comment lines on how it was run).
func Write(dir string, opts Options, res *Result, meta capture.Meta, setup string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write capture: %w", err)
	}
	var chunks, raw bytes.Buffer
	for _, c := range res.Chunks {
		line, err := json.Marshal(c)
		if err != nil {
			return fmt.Errorf("write capture: %w", err)
		}
		chunks.Write(line)
		chunks.WriteByte('\n')
		raw.Write(c.Data)
	}
	metaJSON, err := json.MarshalIndent(meta, "", "  ")
	if err != nil {
		return fmt.Errorf("write capture: %w", err)
	}
	files := map[string][]byte{
		"chunks.jsonl": chunks.Bytes(),
		"output.raw":   raw.Bytes(),
		"meta.json":    append(metaJSON, '\n'),
		"cmd.txt":      []byte(cmdText(opts, setup)),
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return fmt.Errorf("write capture: %w", err)
		}
	}
	return nil
}

func cmdText(opts Options, setup string) string {
	var b strings.Builder
	b.WriteString("# cwd: $TMP (a fresh temp dir for this capture)\n")
	if opts.PTY {
		b.WriteString("# mode: pty (stdin/stdout/stderr on one pty, 120x40, controlling tty)\n")
	} else {
		b.WriteString("# mode: pipe (stdin=/dev/null, stdout and stderr on separate pipes)\n")
	}
	b.WriteString("# env: only " + strings.Join(DefaultEnv, " ") + "\n")
	if len(opts.Env) > 0 {
		b.WriteString("# extra env: " + strings.Join(opts.Env, " ") + "\n")
	}
	if opts.User != "" {
		b.WriteString("# run as user: " + opts.User + "\n")
	}
	if setup != "" {
		b.WriteString("# setup: " + strings.ReplaceAll(setup, "\n", "; ") + "\n")
	}
	if opts.Occupy {
		fmt.Fprintf(&b, "# before start: the recorder listens on 127.0.0.1:%d (never accepts)\n", opts.Port)
	}
	if t := opts.Terminal; t != nil {
		b.WriteString("# terminal: the recorder answers cursor-position and device-attribute queries like a terminal\n")
		for _, st := range t.Steps {
			when := "at once"
			if st.When != nil {
				when = "when the screen matches /" + st.When.String() + "/"
			}
			fmt.Fprintf(&b, "# typed %s, %s after %s\n", strconv.Quote(st.Send), when, st.Delay)
		}
	}
	if opts.StopAfter > 0 {
		fmt.Fprintf(&b, "# stop: %s to the process group %s after ready\n", signalName(opts.Signal), opts.StopAfter)
	}
	b.WriteString(opts.Command + "\n")
	return b.String()
}
