package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/procsdev/procs/compose"
	"github.com/procsdev/procs/compose/wire"
	"github.com/procsdev/procs/rules"
)

// groupRow is the row of a replicated process above its instances: how
// many are in which state, their CPU and memory together, and their ports.
func groupRow(group []compose.ProcStatus) []string {
	var ports []int
	restarts := 0
	var used wire.Usage
	for _, st := range group {
		ports = append(ports, st.Ports...)
		restarts += st.Restarts
		used = used.Plus(st.Usage)
	}
	slices.Sort(ports)
	return []string{
		group[0].ReplicaOf, replicaStates(group), "", "", used.CPUText(), used.MemoryText(), formatPorts(ports), "", fmt.Sprint(restarts),
		replicaCount(len(group)),
	}
}

// replicaCount says how many instances a replicated process runs.
func replicaCount(n int) string {
	if n == 1 {
		return "1 replica"
	}
	return fmt.Sprintf("%d replicas", n)
}

// replicaStates says in which states the instances are: "ready" when all
// are, else each state with its count, such as "2 ready, 1 failed".
func replicaStates(group []compose.ProcStatus) string {
	count := map[rules.State]int{}
	var order []rules.State
	for _, st := range group {
		if count[st.State] == 0 {
			order = append(order, st.State)
		}
		count[st.State]++
	}
	if len(order) == 1 {
		return string(order[0])
	}
	parts := make([]string, len(order))
	for i, state := range order {
		parts[i] = fmt.Sprintf("%d %s", count[state], state)
	}
	return strings.Join(parts, ", ")
}
