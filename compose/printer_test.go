package compose

import (
	"sync"
	"time"

	"bytes"
	"github.com/procsdev/procs/rules"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The printer's pre-rendered prefixes print what it printed before: the
// padded, coloured name; a process it was not told of (a reload added it)
// gets the next colour. Lines it could not show are counted per process,
// with the file that has them.
func TestPrinterPrefixes(t *testing.T) {
	var out bytes.Buffer
	p := NewPrinter(&out, []string{"web", "database"}, false)
	p.print([]Event{
		{Type: EventLine, Proc: "web", Raw: []byte("GET /")},
		{Type: EventLine, Proc: "new", Raw: []byte("hello")},
		{Type: EventInfo, Message: "all ready"},
	}, map[string]int{"web": 2, "database": 1})
	assert.Equal(t, "\x1b[1mprocs    | \x1b[22m1 line of database not shown (output too fast for this terminal); all are in .procs/logs/database.log\n"+
		"\x1b[1mprocs    | \x1b[22m2 lines of web not shown (output too fast for this terminal); all are in .procs/logs/web.log\n"+
		"\x1b[36mweb      | \x1b[0mGET /\n"+
		"\x1b[32mnew      | \x1b[0mhello\n"+
		"\x1b[1mprocs    | \x1b[22mall ready\n", out.String())

	out.Reset()
	p = NewPrinter(&out, []string{"web"}, true)
	p.print([]Event{{Type: EventLine, Proc: "web", Raw: []byte("\x1b[32mok\x1b[0m")}}, nil)
	assert.Equal(t, "web   | \x1b[32mok\x1b[0m\n", out.String(), "plain: no colour of procs', the child's kept")
}

// Some programs move the cursor on a pipe too: Gatsby 5's reporter starts
// each line by erasing the one above ("\x1b[2K\x1b[1A\x1b[2K\x1b[G"). Among
// other processes' lines, under a prefix, that erased the previous line
// and printed this one without its prefix: the printer keeps a pipe's
// colours and drops the rest, as it does a terminal's. Gatsby 5.16.1's bytes.
func TestPrinterDropsCursorMovesOfPipeOutput(t *testing.T) {
	var out bytes.Buffer
	p := NewPrinter(&out, []string{"web"}, true)
	p.print([]Event{
		{Type: EventLine, Proc: "web", Stream: "stdout", Raw: []byte("\x1b[2K\x1b[1A\x1b[2K\x1b[G\x1b[32msuccess\x1b[39m Building development bundle - 20.954s")},
		{Type: EventLine, Proc: "web", Stream: "stderr", Raw: []byte("plain\tline")},
	}, nil)
	assert.Equal(t, "web   | \x1b[32msuccess\x1b[39m Building development bundle - 20.954s\n"+
		"web   | plain\tline\n", out.String())
}

// TestPrinterWidensForALongerNameAdded: a process a reload adds with a
// name longer than any before widens every prefix from its first line
// on, procs' own included, so the columns line up again.
func TestPrinterWidensForALongerNameAdded(t *testing.T) {
	var out bytes.Buffer
	p := NewPrinter(&out, []string{"web", "db"}, true)
	p.print([]Event{
		{Type: EventLine, Proc: "web", Raw: []byte("before")},
		{Type: EventLine, Proc: "background-worker", Raw: []byte("hello")},
		{Type: EventLine, Proc: "web", Raw: []byte("after")},
		{Type: EventLine, Proc: "db", Raw: []byte("after")},
		{Type: EventLine, Proc: "api", Raw: []byte("short and new")},
		{Type: EventInfo, Message: "all ready"},
	}, nil)
	assert.Equal(t, "web   | before\n"+
		"background-worker | hello\n"+
		"web               | after\n"+
		"db                | after\n"+
		"api               | short and new\n"+
		"procs             | all ready\n", out.String())
}

// TestPrinterTellsAProcessNamedProcsFromProcs: with a process named procs,
// procs' own lines are labelled (procs), so the two never look alike; a
// reload that adds such a process changes the label from then on.
func TestPrinterTellsAProcessNamedProcsFromProcs(t *testing.T) {
	var out bytes.Buffer
	p := NewPrinter(&out, []string{"web", "procs"}, true)
	p.print([]Event{
		{Type: EventLine, Proc: "procs", Raw: []byte("i am a process")},
		{Type: EventInfo, Message: "all ready"},
	}, nil)
	assert.Equal(t, "procs   | i am a process\n"+
		"(procs) | all ready\n", out.String())

	out.Reset()
	p = NewPrinter(&out, []string{"web"}, true)
	p.print([]Event{
		{Type: EventInfo, Message: "started"},
		{Type: EventLine, Proc: "procs", Raw: []byte("added by a reload")},
		{Type: EventInfo, Message: "all ready"},
	}, nil)
	assert.Equal(t, "procs | started\n"+
		"procs   | added by a reload\n"+
		"(procs) | all ready\n", out.String())
}

// An error that makes a ready process unhealthy is printed once, with
// the line that explains it, below the error: detection first quotes the
// error's first line (a Traceback's), then a better one as the burst goes
// on. Flask's reloader, as it printed an edit's SyntaxError (Flask 3.1).
func TestPrinterPrintsAnUnhealthyErrorOnceExplained(t *testing.T) {
	var out bytes.Buffer
	p := NewPrinter(&out, []string{"web"}, true)
	unhealthy := func(msg string) Event {
		return Event{Type: EventState, Proc: "web", From: rules.StateReady, To: rules.StateUnhealthy, Reason: rules.ReasonError, Message: msg}
	}
	line := func(text string) Event { return Event{Type: EventLine, Proc: "web", Raw: []byte(text)} }
	p.print([]Event{line("Traceback (most recent call last):"),
		unhealthy(`error line "Traceback (most recent call last):"`)}, nil)
	p.print([]Event{line(`  File "/app/app.py", line 6`), line("SyntaxError: invalid syntax"),
		unhealthy(`error line "SyntaxError: invalid syntax" at /app/app.py, line 6`)}, nil)
	assert.Equal(t, "web   | Traceback (most recent call last):\n"+
		"web   |   File \"/app/app.py\", line 6\n"+
		"web   | SyntaxError: invalid syntax\n", out.String(), "nothing said while the error's burst goes on")

	p.printHeld(time.Now())
	assert.NotContains(t, out.String(), "unhealthy", "not before the burst has been quiet")
	p.printHeld(time.Now().Add(rules.FailureQuiet))
	assert.Equal(t, "web   | Traceback (most recent call last):\n"+
		"web   |   File \"/app/app.py\", line 6\n"+
		"web   | SyntaxError: invalid syntax\n"+
		"procs | web unhealthy: error line \"SyntaxError: invalid syntax\" at /app/app.py, line 6\n", out.String())
}

// A held unhealthy line is never lost: news of the process that follows
// it (a recovery) prints it first, and so does the printer's end.
func TestPrinterPrintsAHeldUnhealthyLineBeforeWhatFollows(t *testing.T) {
	var out bytes.Buffer
	p := NewPrinter(&out, []string{"web", "api"}, true)
	p.print([]Event{
		{Type: EventState, Proc: "web", To: rules.StateUnhealthy, Reason: rules.ReasonError, Message: "error line \"Error: boom\""},
		{Type: EventState, Proc: "api", To: rules.StateUnhealthy, Reason: rules.ReasonError, Message: "error line \"Error: bang\""},
		{Type: EventState, Proc: "web", From: rules.StateUnhealthy, To: rules.StateReady, Reason: rules.ReasonRecovered, Message: "recovered: matched \"ok\""},
	}, nil)
	assert.Equal(t, "procs | web unhealthy: error line \"Error: boom\"\n"+
		"procs | web ready (recovered: matched \"ok\")\n", out.String())

	bus := NewBus()
	sub := bus.Subscribe(false)
	stop := make(chan struct{})
	close(stop)
	p.Run(sub, stop)
	assert.Equal(t, "procs | web unhealthy: error line \"Error: boom\"\n"+
		"procs | web ready (recovered: matched \"ok\")\n"+
		"procs | api unhealthy: error line \"Error: bang\"\n", out.String(), "printed at the printer's end")
}

// The held line is printed by the printer's own timer, with no more
// events to wake it.
func TestPrinterPrintsAHeldUnhealthyLineWhenQuiet(t *testing.T) {
	var out syncBuffer
	p := NewPrinter(&out, []string{"web"}, true)
	bus := NewBus()
	sub := bus.Subscribe(false)
	stop, done := make(chan struct{}), make(chan struct{})
	go func() { p.Run(sub, stop); close(done) }()
	bus.Publish(Event{Type: EventState, Proc: "web", To: rules.StateUnhealthy, Reason: rules.ReasonError, Message: "error line \"Error: boom\""})
	assert.Eventually(t, func() bool { return out.String() == "procs | web unhealthy: error line \"Error: boom\"\n" },
		10*time.Second, 10*time.Millisecond)
	close(stop)
	<-done
}

// syncBuffer is a bytes.Buffer a test reads while a printer writes it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
