package main

import (
	"fmt"
	"slices"

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
		group[0].ReplicaOf, wire.ReplicaStates(group, func(s rules.State) string { return string(s) }), "", "", used.CPUText(), used.MemoryText(), formatPorts(ports), "", fmt.Sprint(restarts),
		wire.ReplicaCount(len(group)),
	}
}
