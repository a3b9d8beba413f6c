//go:build unix

package recorder

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/procsdev/procs/rules"
)

// Terminal plays the part of a terminal and of the person at it while a PTY
// program is recorded: it keeps a screen (rules.Screen), answers the
// program's queries the way a terminal does (many TUIs wait for the answer
// before drawing anything), and types each Step once the screen shows what
// the step waits for. What it types is recorded too, as "input" chunks.
type Terminal struct {
	Cols, Rows int
	Steps      []Step
	// Screens receives the text of the screen when each step fires and at
	// the end (for people choosing patterns; not part of the capture).
	Screens []string
}

// Step is one input, typed once the screen matches When (at once when nil)
// and Delay has passed.
type Step struct {
	When  *regexp.Regexp
	Delay time.Duration
	Send  string
}

// ParseStep reads a step written as REGEX=>TEXT, with \r, \n, \t, \x1b
// escapes in TEXT, optionally prefixed by a delay: 500ms:REGEX=>TEXT.
func ParseStep(s string) (Step, error) {
	var st Step
	if i := strings.Index(s, ":"); i > 0 {
		if d, err := time.ParseDuration(s[:i]); err == nil {
			st.Delay, s = d, s[i+1:]
		}
	}
	when, send, ok := strings.Cut(s, "=>")
	if !ok {
		return st, fmt.Errorf("step %q: want REGEX=>TEXT", s)
	}
	if when != "" {
		re, err := regexp.Compile(when)
		if err != nil {
			return st, fmt.Errorf("step %q: %w", s, err)
		}
		st.When = re
	}
	st.Send = strings.NewReplacer(`\r`, "\r", `\n`, "\n", `\t`, "\t", `\x1b`, "\x1b", `\x03`, "\x03").Replace(send)
	return st, nil
}

// run reads the PTY until EOF, recording, answering and typing.
func (t *Terminal) run(rec *recording, ptmx *os.File) {
	screen := rules.NewScreen(t.Cols, t.Rows)
	steps := t.Steps
	var due <-chan time.Time
	type chunk struct {
		data []byte
		err  error
	}
	reads := make(chan chunk)
	go func() {
		for {
			buf := make([]byte, 32<<10)
			n, err := ptmx.Read(buf)
			reads <- chunk{buf[:n], err}
			if err != nil {
				return
			}
		}
	}()
	send := func(text string) {
		rec.add("input", []byte(text))
		_, _ = ptmx.Write([]byte(text))
	}
	for {
		select {
		case c := <-reads:
			if len(c.data) > 0 {
				rec.add("pty", c.data)
				_, _ = screen.Write(c.data)
				if replies := screen.TakeReplies(); replies != nil {
					_, _ = ptmx.Write(replies)
				}
			}
			if c.err != nil {
				t.Screens = append(t.Screens, screen.Text())
				return
			}
		case <-due:
			due = nil
			t.Screens = append(t.Screens, screen.Text())
			send(steps[0].Send)
			steps = steps[1:]
		}
		if due == nil && len(steps) > 0 && (steps[0].When == nil || screen.Matches(steps[0].When.String())) {
			due = time.After(steps[0].Delay)
		}
	}
}
