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

// columnGap is the space tabwriter leaves between columns.
const columnGap = 2

// minLastWidth is the narrowest LAST column worth cutting to: narrower, a
// reason says nothing, so the row may wrap instead.
const minLastWidth = 24

// printStatusTable writes one row per process. width is the terminal's
// width, to cut the LAST column to so each row stays one line; 0 shows it
// whole (piped output, a named process, -o wide).
func (a *app) printStatusTable(list []compose.ProcStatus, width int) {
	writeStatusTable(a.stdout, list, width)
}

// writeStatusTable is printStatusTable to w.
func writeStatusTable(w io.Writer, list []compose.ProcStatus, width int) {
	rows := statusRows(list)
	if width > 0 {
		fitLastColumn(rows, width)
	}
	tw := tabwriter.NewWriter(w, 0, 4, columnGap, ' ', 0)
	fmt.Fprintln(tw, strings.Join(statusHeader, "\t"))
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

// fitLastColumn cuts the last cell of each row so the row fits in width
// columns, as tabwriter will lay them out; the LAST column keeps at least
// minLastWidth, since a reason cut shorter says nothing.
func fitLastColumn(rows [][]string, width int) {
	used := 0
	for col := range len(statusHeader) - 1 {
		w := ansi.StringWidth(statusHeader[col])
		for _, row := range rows {
			w = max(w, ansi.StringWidth(row[col]))
		}
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
