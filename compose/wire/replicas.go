package wire

import (
	"fmt"
	"strings"

	"github.com/procsdev/procs/rules"
)

// ReplicaGroups splits list into the rows the views show together: a
// process alone, or every instance of a replicated process (ReplicaOf),
// gathered where its first instance is. The rest keeps list's order.
func ReplicaGroups(list []ProcStatus) [][]ProcStatus {
	var groups [][]ProcStatus
	at := map[string]int{}
	for _, st := range list {
		if st.ReplicaOf == "" {
			groups = append(groups, []ProcStatus{st})
			continue
		}
		i, seen := at[st.ReplicaOf]
		if !seen {
			i = len(groups)
			at[st.ReplicaOf] = i
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], st)
	}
	return groups
}

// ReplicaCount says how many instances a replicated process runs:
// "1 replica", "3 replicas".
func ReplicaCount(n int) string {
	if n == 1 {
		return "1 replica"
	}
	return fmt.Sprintf("%d replicas", n)
}

// ReplicaStates says in which states a group's instances are, each state
// written by word: the state when all agree ("ready"), else each with its
// count in the order first seen ("2 ready, 1 stopped").
func ReplicaStates(group []ProcStatus, word func(rules.State) string) string {
	count := map[rules.State]int{}
	var order []rules.State
	for _, st := range group {
		if count[st.State] == 0 {
			order = append(order, st.State)
		}
		count[st.State]++
	}
	if len(order) == 1 {
		return word(order[0])
	}
	parts := make([]string, len(order))
	for i, state := range order {
		parts[i] = fmt.Sprintf("%d %s", count[state], word(state))
	}
	return strings.Join(parts, ", ")
}
