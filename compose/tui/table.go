package tui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/procsdev/procs/compose/wire"
	"github.com/procsdev/procs/rules"
)

// column is one column of the process list.
type column struct {
	title string
	width int
	// priority orders the columns kept on a narrow terminal: lower first.
	priority int
	cell     func(m *Model, p wire.ProcStatus) string
}

// columns of the process list, left to right; REASON takes what is left.
var columns = []column{
	{title: "NAME", width: 14, priority: 0, cell: func(_ *Model, p wire.ProcStatus) string { return p.Name }},
	{title: "STATE", width: 19, priority: 0, cell: func(m *Model, p wire.ProcStatus) string { return m.styles.state(p.State) }},
	{title: "RUN", width: 4, priority: 1, cell: func(_ *Model, p wire.ProcStatus) string { return strconv.Itoa(p.Run) }},
	{title: "PID", width: 8, priority: 3, cell: func(_ *Model, p wire.ProcStatus) string { return pid(p.PID) }},
	{title: "CPU", width: 7, priority: usagePriority, cell: func(_ *Model, p wire.ProcStatus) string { return p.Usage.CPUText() }},
	{title: "MEM", width: 6, priority: usagePriority, cell: func(_ *Model, p wire.ProcStatus) string { return p.Usage.MemoryText() }},
	{title: "PORTS", width: 12, priority: 3, cell: func(_ *Model, p wire.ProcStatus) string { return ports(p.Ports) }},
	{title: "UPTIME", width: 8, priority: 2, cell: func(m *Model, p wire.ProcStatus) string { return m.uptime(p) }},
	{title: "RESTARTS", width: 9, priority: 4, cell: func(_ *Model, p wire.ProcStatus) string { return strconv.Itoa(p.Restarts) }},
}

// reasonMinWidth is the narrowest REASON column worth showing.
const reasonMinWidth = 12

// visibleColumns are the columns that fit the width, hiding the least
// useful first, so no row ever wraps; reason says whether REASON fits.
func (m *Model) visibleColumns() (cols []column, reason bool) {
	nameWidth := 4
	for _, p := range m.procs {
		// An instance's name is drawn under its header, after a tree mark.
		nameWidth = max(nameWidth, len(p.Name)+2*boolInt(p.ReplicaOf != ""))
	}
	width := 2 // the selection mark
	keep := map[string]bool{}
	dropped := false
	for prio := 0; prio <= usagePriority; prio++ {
		for _, c := range columns {
			if c.priority != prio {
				continue
			}
			w := c.width
			if c.title == "NAME" {
				w = min(nameWidth, 24) + 1
			}
			// The usage columns come only when no other is hidden.
			if (width+w <= m.width || prio == 0) && !(prio == usagePriority && dropped) {
				width += w
				keep[c.title] = true
			} else {
				dropped = true
			}
		}
	}
	for _, c := range columns {
		if keep[c.title] {
			if c.title == "NAME" {
				c.width = min(nameWidth, 24) + 1
			}
			cols = append(cols, c)
		}
	}
	return cols, m.width-width >= reasonMinWidth
}

// renderTable draws the column titles and the visible rows: processes,
// and the header rows of replicated processes (groups.go).
func (m *Model) renderTable() []string {
	cols, reason := m.visibleColumns()
	titles := []string{"  "}
	for _, c := range cols {
		titles = append(titles, pad(m.usageTitle(c.title), c.width))
	}
	if reason {
		titles = append(titles, "REASON")
	}
	out := []string{m.fit(m.styles.faint.Render(strings.Join(titles, "")))}
	rows := m.listRows()
	first := m.firstRow()
	for r := first; r < len(rows) && r < first+m.visibleRows(); r++ {
		if rows[r].proc < 0 {
			out = append(out, m.fit(strings.Join(m.groupCells(rows[r], cols, reason), "")))
			continue
		}
		i := rows[r].proc
		p := m.procs[i]
		cells := []string{"  "}
		if i == m.selected {
			cells[0] = "> "
		}
		for _, c := range cols {
			text := c.cell(m, p)
			if c.title == "NAME" {
				text = rows[r].mark + text
			}
			cells = append(cells, pad(text, c.width))
		}
		if reason {
			cells = append(cells, m.reasonOf(p))
		}
		row := m.fit(strings.Join(cells, ""))
		if i == m.selected {
			// Inner colours would end the reverse video part-way.
			row = ansi.Strip(row)
			row = m.styles.selected.Render(row + strings.Repeat(" ", max(0, m.width-lipgloss.Width(row))))
		}
		out = append(out, row)
	}
	return out
}

// reasonOf is the reason of a state and its message, when it has them,
// after when a scheduled task runs next, and before what an agent in its
// JSON mode has spent.
func (m *Model) reasonOf(p wire.ProcStatus) string {
	text := p.Reason.With(p.Message)
	if next := p.Schedule.NextRunText(m.now()); next != "" {
		text = strings.TrimSuffix(next+" · "+text, " · ") // first, so a cut keeps it
	}
	if spent := p.Agent.SpentText(); spent != "" {
		text = strings.TrimPrefix(text+" · "+spent, " · ")
	}
	return text
}

// uptime is how long the current run has been running, "-" when none.
// A failed run may still run (an error line, a readiness timeout): its
// pid says so, procs clearing it when the run ends.
func (m *Model) uptime(p wire.ProcStatus) string {
	endedFailed := p.State == rules.StateFailed && p.PID == 0
	if p.StartedAt == nil || runsNothing(p.State) || endedFailed {
		return "-"
	}
	return shortDuration(m.now().Sub(*p.StartedAt))
}

// shortDuration prints a duration the way a person reads an uptime.
func shortDuration(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
	}
	return fmt.Sprintf("%dd", int(d.Hours()/24))
}

// pid is a run's process id, "-" when none runs.
func pid(n int) string {
	if n == 0 {
		return "-"
	}
	return strconv.Itoa(n)
}

func ports(ps []int) string {
	if len(ps) == 0 {
		return "-"
	}
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = strconv.Itoa(p)
	}
	return strings.Join(parts, ",")
}

// pad fits s, which may hold colours, to exactly width cells.
func pad(s string, width int) string {
	if lipgloss.Width(s) > width-1 && width > 1 {
		s = ansi.Truncate(s, width-1, "…")
	}
	if w := lipgloss.Width(s); w < width {
		s += strings.Repeat(" ", width-w)
	}
	return s
}

// fit cuts a line to the terminal's width, so nothing wraps.
func (m *Model) fit(s string) string {
	if lipgloss.Width(s) > m.width {
		return ansi.Truncate(s, m.width, "…")
	}
	return s
}

// visibleRows is how many rows the list shows, header rows included: all
// of them, up to half the screen.
func (m *Model) visibleRows() int {
	return max(1, min(len(m.listRows()), (m.height-6)/2))
}

// firstRow is the first row shown, keeping the selection in view.
func (m *Model) firstRow() int {
	rows := m.visibleRows()
	selected := m.rowOfSelected(m.listRows())
	if selected < rows {
		return 0
	}
	return selected - rows + 1
}
