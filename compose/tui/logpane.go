package tui

import (
	"regexp"
	"strings"

	"charm.land/bubbles/v2/viewport"

	"github.com/procsdev/procs/compose/control"
)

// syncLog puts the selected process's lines (or, for a running PTY
// process, its screen) in the log pane; reset scrolls back to following.
func (m *Model) syncLog(reset bool) {
	cur, ok := m.current()
	if !ok {
		m.log.SetContentLines(nil)
		m.logFor = ""
		return
	}
	if reset || m.logFor != cur.Name {
		m.follow = true
	}
	m.logFor = cur.Name
	if screen, isScreen := m.screenOf(cur.Name); isScreen {
		m.log.LeftGutterFunc = viewport.NoGutter
		m.log.SetContentLines(squeezeBlank(screen))
	} else {
		kept := m.buffer(cur.Name).recent()
		if m.allLogs {
			kept = m.all.recent()
		}
		lines, stderr := m.paneLines(kept, m.allLogs)
		m.log.LeftGutterFunc = m.streamGutter(stderr)
		m.log.SetContentLines(lines)
	}
	m.highlight()
	if m.follow {
		m.log.GotoBottom()
	}
}

// screenOf is what a running PTY process shows, when it has been read.
func (m *Model) screenOf(name string) (string, bool) {
	cur, ok := m.current()
	if m.allLogs || !ok || cur.Name != name || !cur.PTY || cur.State.Terminal() {
		return "", false
	}
	screen, ok := m.screens[name]
	return screen, ok
}

// paneLines are the kept lines as the pane shows them, with the line
// procs logs draws where a process's run changes (control.RunSeparator),
// and which of them came on stderr; named prefixes each with its
// process's name, as the log of every process does.
func (m *Model) paneLines(kept []logLine, named bool) (lines []string, stderr []bool) {
	width := 0
	if named {
		for _, p := range m.procs {
			width = max(width, len(p.Name))
		}
	}
	prefix := func(proc string) string {
		if !named {
			return ""
		}
		return m.styles.title.Render(proc+strings.Repeat(" ", max(0, width-len(proc)))) + " | "
	}
	var runs control.RunSeparators
	lines, stderr = make([]string, 0, len(kept)), make([]bool, 0, len(kept))
	for _, l := range kept {
		if runs.Line(l.proc, l.run) {
			lines = append(lines, prefix(l.proc)+m.styles.faint.Render(control.RunSeparator(l.proc, l.run, named)))
			stderr = append(stderr, false)
		}
		lines = append(lines, prefix(l.proc)+l.text)
		stderr = append(stderr, l.stderr)
	}
	return lines, stderr
}

// streamGutter marks each line's stream: "! " for stderr.
func (m *Model) streamGutter(stderr []bool) viewport.GutterFunc {
	mark := m.styles.stderr.Render("! ")
	return func(g viewport.GutterContext) string {
		if !g.Soft && g.Index < len(stderr) && stderr[g.Index] {
			return mark
		}
		return "  "
	}
}

// setSearch highlights every match of text (case-insensitive) in the log
// pane and jumps to the nearest; empty clears.
func (m *Model) setSearch(text string) {
	m.search = text
	m.highlight()
	if text != "" {
		m.follow = false
	}
}

// highlight marks the search's matches in the pane's content.
func (m *Model) highlight() {
	m.log.ClearHighlights()
	if m.search == "" {
		return
	}
	re := regexp.MustCompile("(?i)" + regexp.QuoteMeta(m.search))
	m.log.SetHighlights(re.FindAllStringIndex(m.log.GetContent(), -1))
}

// matchCount is how many lines of the pane match the search.
func (m *Model) matchCount() int {
	if m.search == "" {
		return 0
	}
	return strings.Count(strings.ToLower(m.log.GetContent()), strings.ToLower(m.search))
}

// squeezeBlank splits a screen into rows, keeping one of each run of blank
// rows, so a tall screen's text fits a shorter pane.
func squeezeBlank(screen string) []string {
	var out []string
	blank := false
	for _, row := range strings.Split(screen, "\n") {
		row = strings.TrimRight(row, " ")
		if row == "" && blank {
			continue
		}
		blank = row == ""
		out = append(out, row)
	}
	return out
}
