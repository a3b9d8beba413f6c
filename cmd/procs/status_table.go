package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/charmbracelet/x/ansi"

	"github.com/procsdev/procs/compose"
	"github.com/procsdev/procs/compose/wire"
)

// statusHeader names the columns of procs status.
var statusHeader = []string{"NAME", "STATE", "RUN", "PID", "CPU", "MEM", "PORTS", "UPTIME", "RESTARTS", "LAST"}

// columnPriority orders the columns a narrow terminal keeps, lower first,
// as procs tui orders its own (compose/tui/table.go); NAME, STATE and LAST
// are always kept.
var columnPriority = map[string]int{
	"NAME": 0, "STATE": 0, "LAST": 0, "RUN": 1, "UPTIME": 2, "PID": 3, "PORTS": 3, "RESTARTS": 4,
	"CPU": usageColumnPriority, "MEM": usageColumnPriority,
}

// usageColumnPriority is the priority of CPU and MEM: they are kept only
// when no other column is dropped, as in procs tui.
const usageColumnPriority = 5

// columnGap is the space tabwriter leaves between columns.
const columnGap = 2

// wantedLastWidth is how much of LAST a narrow terminal drops columns to
// show: less hardly says why.
const wantedLastWidth = 20

// minLastWidth is the narrowest LAST is cut to, when NAME and STATE leave
// less: then the row wraps.
const minLastWidth = 8

// printStatusTable writes one row per process. width is the terminal's
// width, which no row may reach: the least useful columns are dropped and
// LAST is cut to fit; 0 shows every column and LAST whole (piped output,
// a named process, -o wide).
func (a *app) printStatusTable(list []compose.ProcStatus, width int) {
	header, rows := statusHeader, statusRows(list)
	if width > 0 {
		header, rows = fitColumns(header, rows, width)
		fitLastColumn(header, rows, width)
	}
	writeTable(a.stdout, header, rows)
}

// writeStatusTable writes every column of the table, LAST cut to width
// (procs top, which cuts its lines itself).
func writeStatusTable(w io.Writer, list []compose.ProcStatus, width int) {
	rows := statusRows(list)
	if width > 0 {
		fitLastColumn(statusHeader, rows, width)
	}
	writeTable(w, statusHeader, rows)
}

// writeTable aligns the header and the rows in columns.
func writeTable(w io.Writer, header []string, rows [][]string) {
	tw := tabwriter.NewWriter(w, 0, 4, columnGap, ' ', 0)
	fmt.Fprintln(tw, strings.Join(header, "\t"))
	for _, row := range rows {
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	tw.Flush()
}

// statusRows are the cells of each process's row, LAST whole. The
// instances of a replicated process follow a row of their own for it,
// indented under it.
func statusRows(list []compose.ProcStatus) [][]string {
	rows := make([][]string, 0, len(list))
	for _, group := range wire.ReplicaGroups(list) {
		name := ""
		if len(group) > 1 || group[0].ReplicaOf != "" {
			rows = append(rows, groupRow(group))
			name = "  "
		}
		for _, st := range group {
			rows = append(rows, []string{
				name + st.Name, string(st.State), fmt.Sprint(st.Run), dashIfZero(st.PID),
				st.Usage.CPUText(), st.Usage.MemoryText(), formatPorts(st.Ports),
				formatUptime(st.UptimeMs), fmt.Sprint(st.Restarts), lastWord(st),
			})
		}
	}
	return rows
}

// columnWidths are the widths of the columns as tabwriter lays them out,
// without the gap after each.
func columnWidths(header []string, rows [][]string) []int {
	widths := make([]int, len(header))
	for col, title := range header {
		widths[col] = ansi.StringWidth(title)
		for _, row := range rows {
			widths[col] = max(widths[col], ansi.StringWidth(row[col]))
		}
	}
	return widths
}

// fitColumns keeps the columns that fit in width beside LAST, at least
// wantedLastWidth of it (less when no cell of it is wider), as procs tui
// chooses its own: by priority, a column of a lower priority first, a
// column that does not fit dropped while those after it may still fit.
func fitColumns(header []string, rows [][]string, width int) ([]string, [][]string) {
	widths := columnWidths(header, rows)
	last := len(header) - 1
	// The terminal's last column is left free: a line exactly as wide
	// as the terminal wraps on some terminals.
	used := min(widths[last], wantedLastWidth) + 1
	keep := make([]bool, len(header))
	keep[last] = true
	dropped := false
	for priority := 0; priority <= usageColumnPriority; priority++ {
		for col, title := range header[:last] {
			if columnPriority[title] != priority {
				continue
			}
			fits := used+widths[col]+columnGap <= width || priority == 0
			if fits && !(priority == usageColumnPriority && dropped) {
				used += widths[col] + columnGap
				keep[col] = true
			} else {
				dropped = true
			}
		}
	}
	return keptCells(header, keep), keptRows(rows, keep)
}

// keptRows are the rows with the cells of the kept columns only.
func keptRows(rows [][]string, keep []bool) [][]string {
	kept := make([][]string, len(rows))
	for i, row := range rows {
		kept[i] = keptCells(row, keep)
	}
	return kept
}

// keptCells are the cells of the kept columns.
func keptCells(cells []string, keep []bool) []string {
	kept := make([]string, 0, len(cells))
	for col, cell := range cells {
		if keep[col] {
			kept = append(kept, cell)
		}
	}
	return kept
}

// fitLastColumn cuts the last cell of each row so the row fits in width
// columns, as tabwriter will lay them out: LAST gets what is left, at
// least minLastWidth.
func fitLastColumn(header []string, rows [][]string, width int) {
	used := 0
	widths := columnWidths(header, rows)
	for _, w := range widths[:len(widths)-1] {
		used += w + columnGap
	}
	// The terminal's last column is left free: a line exactly as wide
	// as the terminal wraps on some terminals.
	room := max(width-used-1, minLastWidth)
	for _, row := range rows {
		last := len(row) - 1
		if ansi.StringWidth(row[last]) > room {
			row[last] = ansi.Truncate(row[last], room, "…")
		}
	}
}
