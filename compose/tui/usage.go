package tui

import (
	"cmp"
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/procsdev/procs/compose/wire"
)

// usagePriority is the priority of the CPU and MEM columns: a narrow
// terminal drops them first (visibleColumns).
const usagePriority = 5

// listOrder is the order of the process list, which o cycles through.
type listOrder int

const (
	orderStart  listOrder = iota // procs' start order
	orderCPU                     // the busiest first
	orderMemory                  // the largest first
)

// String names the order for the status line.
func (o listOrder) String() string {
	switch o {
	case orderCPU:
		return "CPU"
	case orderMemory:
		return "memory"
	}
	return "start order"
}

// cycleOrder sorts the list by the next order: start, CPU, memory. The
// list is read again, which gives the start order back.
func (m *Model) cycleOrder() tea.Cmd {
	m.order = (m.order + 1) % 3
	m.setProcs(m.procs)
	m.setStatus("sorted by "+m.order.String()+" (o changes it)", false)
	return m.refreshList()
}

// sortedBy orders list (gathered: the instances of a replicated process
// adjacent) by what its processes use, the most first, the instances of a
// replicated process kept together and ranked by what they use together.
// In start order it is left as it is.
func sortedBy(list []wire.ProcStatus, order listOrder) []wire.ProcStatus {
	if order == orderStart {
		return list
	}
	var groups [][]wire.ProcStatus
	for i := 0; i < len(list); {
		end := i + 1
		for of := list[i].ReplicaOf; of != "" && end < len(list) && list[end].ReplicaOf == of; end++ {
		}
		groups = append(groups, list[i:end])
		i = end
	}
	key := func(group []wire.ProcStatus) float64 {
		var used wire.Usage
		for _, p := range group {
			used = used.Plus(p.Usage)
		}
		if order == orderCPU {
			return used.CPUOrZero()
		}
		return float64(used.MemoryBytes)
	}
	slices.SortStableFunc(groups, func(x, y []wire.ProcStatus) int { return cmp.Compare(key(y), key(x)) })
	return slices.Concat(groups...)
}

// usageTitle is a usage column's title, marked when the list is sorted by it.
func (m *Model) usageTitle(title string) string {
	if m.order == orderCPU && title == "CPU" || m.order == orderMemory && title == "MEM" {
		return title + "↓"
	}
	return title
}

// groupUsage is what the instances of a replicated process use together.
func (m *Model) groupUsage(group []int) wire.Usage {
	var used wire.Usage
	for _, i := range group {
		used = used.Plus(m.procs[i].Usage)
	}
	return used
}
