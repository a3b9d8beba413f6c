package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"testing"

	"github.com/creack/pty"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/procsdev/procs/compose"
	"github.com/procsdev/procs/compose/control"
	"github.com/procsdev/procs/internal/fakeagent"
	"github.com/procsdev/procs/internal/testenv"
	"github.com/procsdev/procs/rules"
)

// agentDeadline bounds every wait of the agent scripts: generous, for a
// shared machine.
const agentDeadline = 30 * time.Second

// TestAgentScripts runs the interactive-process scripts, testdata/agent_*.txtar:
// procs up -d with the fake agent CLI ($FAKEAGENT), then send, wait, attach,
// pause and resume like a user or an orchestrator would.
func TestAgentScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Files:     globFiles(t, "testdata/agent_*.txtar"),
		Condition: testenv.ScriptCondition,
		Setup: func(env *testscript.Env) error {
			env.Setenv("XDG_RUNTIME_DIR", env.WorkDir)
			env.Setenv("FAKEAGENT", fakeagent.Script())
			standin, err := filepath.Abs("testdata/agentjson_standin.py")
			if err != nil {
				return err
			}
			env.Setenv("AGENTJSON", standin)
			return stopLeftoverAtEnd(env)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"attachpty": cmdAttachPTY,
			"waitevent": cmdWaitEvent,
		},
	})
}

// cmdAttachPTY runs `procs attach NAME` on a real terminal and plays the
// person at it: attachpty NAME STEP..., each step expect:TEXT (wait until
// the screen shows TEXT), send:TEXT (type it; \r and \x1d understood) or
// resize:COLSxROWS. It waits for attach to end and writes the final screen
// and attach's messages to stdout. Negated (! attachpty NAME), attach must
// fail: it writes exit=CODE and what attach wrote, as written (a message
// longer than the screen is wide stays one line).
func cmdAttachPTY(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 1 || neg && len(args) > 1 {
		ts.Fatalf("usage: attachpty NAME STEP..., or ! attachpty NAME")
	}
	cmd := exec.Command("procs", "attach", args[0])
	cmd.Dir = ts.MkAbs(".")
	cmd.Env = append(os.Environ(), "PATH="+ts.Getenv("PATH"), "XDG_RUNTIME_DIR="+ts.Getenv("XDG_RUNTIME_DIR"))
	term, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: 100, Rows: 30})
	ts.Check(err)
	defer term.Close()
	screen := rules.NewScreen(100, 30)
	var written strings.Builder
	chunks := make(chan []byte)
	go func() {
		defer close(chunks)
		buf := make([]byte, 32<<10)
		for {
			n, err := term.Read(buf)
			if n > 0 {
				chunks <- append([]byte(nil), buf[:n]...)
			}
			if err != nil {
				return
			}
		}
	}()
	deadline := time.After(agentDeadline)
	for _, step := range args[1:] {
		kind, text, _ := strings.Cut(step, ":")
		switch kind {
		case "expect":
			for !screen.Contains(text) {
				select {
				case data, ok := <-chunks:
					if !ok {
						ts.Fatalf("attach ended before %q showed; screen:\n%s", text, screen.Text())
					}
					_, _ = screen.Write(data)
				case <-deadline:
					ts.Fatalf("no %q on the attached screen; screen:\n%s", text, screen.Text())
				}
			}
		case "send":
			_, err := term.Write([]byte(strings.NewReplacer(`\r`, "\r", `\x1d`, "\x1d").Replace(text)))
			ts.Check(err)
		case "resize":
			cols, rows, _ := strings.Cut(text, "x")
			c, _ := strconv.Atoi(cols)
			r, _ := strconv.Atoi(rows)
			ts.Check(pty.Setsize(term, &pty.Winsize{Cols: uint16(c), Rows: uint16(r)}))
		default:
			ts.Fatalf("unknown step %q", step)
		}
	}
	// attach has ended once it exited and its last words are read (the
	// terminal reports EOF once it is gone).
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	for exited := false; !exited || chunks != nil; {
		select {
		case data, ok := <-chunks:
			if !ok {
				chunks = nil
				continue
			}
			_, _ = screen.Write(data)
			written.Write(data)
		case err := <-done:
			if neg {
				var exit *exec.ExitError
				if !errors.As(err, &exit) {
					ts.Fatalf("attach did not fail: %v", err)
				}
				fmt.Fprintf(ts.Stdout(), "exit=%d\n", exit.ExitCode())
			} else {
				ts.Check(err)
			}
			exited, done = true, nil
		case <-deadline:
			ts.Fatalf("attach did not end; screen:\n%s", screen.Text())
		}
	}
	if neg {
		fmt.Fprintf(ts.Stdout(), "%s\n", strings.ReplaceAll(written.String(), "\r\n", "\n"))
		return
	}
	fmt.Fprintf(ts.Stdout(), "%s\n", screen.Text())
}

// errFound ends an event stream once the awaited event came.
var errFound = errors.New("found")

// cmdWaitEvent waits for an event of a process whose message matches a
// regex: waitevent NAME REGEX. Kept state and info events count, so an
// event that came before the command does too.
func cmdWaitEvent(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: waitevent NAME REGEX")
	}
	re, err := regexp.Compile(args[1])
	ts.Check(err)
	c, err := control.Dial(ts.MkAbs("."))
	ts.Check(err)
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), agentDeadline)
	defer cancel()
	err = c.Events(ctx, control.EventsOptions{Procs: []string{args[0]}, After: 0}, func(ev compose.Event) error {
		if re.MatchString(ev.Message) {
			fmt.Fprintf(ts.Stdout(), "%s %s\n", ev.Type, ev.Message)
			return errFound
		}
		return nil
	})
	if !errors.Is(err, errFound) {
		ts.Fatalf("no event of %s matching /%s/ (%v)", args[0], args[1], err)
	}
}
