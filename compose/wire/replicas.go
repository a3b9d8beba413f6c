package wire

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
