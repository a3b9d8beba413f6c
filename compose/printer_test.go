package compose

import (
	"bytes"
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
