package tui

import (
	"slices"
	"strconv"
	"strings"

	"github.com/procsdev/procs/compose/wire"
)

// listRow is one row of the process list: a process, or the header of a
// replicated process above its instances, which is not a process and is
// never selected.
type listRow struct {
	// proc is the process's index in Model.procs; -1 for a header.
	proc int
	// group are the indexes of a header's instances.
	group []int
	// mark goes before an instance's name, drawing the tree under its
	// header: "├ " or, for the last, "└ ".
	mark string
}

// Tree marks of the instances under their header row.
const (
	instanceMark     = "├ "
	lastInstanceMark = "└ "
)

// gatherReplicas orders list so that every instance of a replicated
// process follows its first one, as procs status gathers them; the rest
// keeps the API's order. The list is then in the order rows are drawn.
func gatherReplicas(list []wire.ProcStatus) []wire.ProcStatus {
	return slices.Concat(wire.ReplicaGroups(list)...)
}

// listRows are the rows of the list, in order: each process, with a header
// row above the instances of a replicated process. m.procs is gathered
// (gatherReplicas), so the instances of one process are adjacent.
func (m *Model) listRows() []listRow {
	rows := make([]listRow, 0, len(m.procs))
	for i := 0; i < len(m.procs); i++ {
		of := m.procs[i].ReplicaOf
		if of == "" {
			rows = append(rows, listRow{proc: i})
			continue
		}
		end := i
		for end < len(m.procs) && m.procs[end].ReplicaOf == of {
			end++
		}
		header := listRow{proc: -1}
		for j := i; j < end; j++ {
			header.group = append(header.group, j)
		}
		rows = append(rows, header)
		for j := i; j < end; j++ {
			mark := instanceMark
			if j == end-1 {
				mark = lastInstanceMark
			}
			rows = append(rows, listRow{proc: j, mark: mark})
		}
		i = end - 1
	}
	return rows
}

// rowOfSelected is the list row of the selected process.
func (m *Model) rowOfSelected(rows []listRow) int {
	for r, row := range rows {
		if row.proc == m.selected {
			return r
		}
	}
	return 0
}

// groupCells are the cells of a header row, in the columns shown: the
// process's name, its instances' states, their CPU and memory together,
// their ports and restarts, and how many there are where the reason goes.
func (m *Model) groupCells(row listRow, cols []column, reason bool) []string {
	first := m.procs[row.group[0]]
	var portList []int
	restarts := 0
	for _, i := range row.group {
		portList = append(portList, m.procs[i].Ports...)
		restarts += m.procs[i].Restarts
	}
	slices.Sort(portList)
	cells := []string{"  "}
	for _, c := range cols {
		text := ""
		switch c.title {
		case "NAME":
			text = m.styles.title.Render(first.ReplicaOf)
		case "STATE":
			text = wire.ReplicaStates(m.groupStatuses(row.group), m.styles.state)
		case "PORTS":
			text = portRanges(portList)
		case "RESTARTS":
			text = strconv.Itoa(restarts)
		case "CPU":
			text = m.groupUsage(row.group).CPUText()
		case "MEM":
			text = m.groupUsage(row.group).MemoryText()
		}
		cells = append(cells, pad(text, c.width))
	}
	if reason {
		cells = append(cells, m.styles.faint.Render(wire.ReplicaCount(len(row.group))))
	}
	return cells
}

// portRanges writes sorted ports with each run of consecutive ones as a
// range, "8001-8003,9000": the instances of a process with a port have
// port+i-1, which a list would not fit in the column.
func portRanges(list []int) string {
	if len(list) == 0 {
		return "-"
	}
	var parts []string
	for i := 0; i < len(list); {
		end := i
		for end+1 < len(list) && list[end+1] == list[end]+1 {
			end++
		}
		part := strconv.Itoa(list[i])
		if end > i {
			part += "-" + strconv.Itoa(list[end])
		}
		parts = append(parts, part)
		i = end + 1
	}
	return strings.Join(parts, ",")
}

// groupStatuses are the statuses of the processes at the indexes group.
func (m *Model) groupStatuses(group []int) []wire.ProcStatus {
	out := make([]wire.ProcStatus, len(group))
	for i, at := range group {
		out[i] = m.procs[at]
	}
	return out
}
