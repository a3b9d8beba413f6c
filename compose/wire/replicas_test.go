package wire

import (
	"testing"

	"github.com/procsdev/procs/rules"
	"github.com/stretchr/testify/assert"
)

func TestReplicaGroupsGatherInstancesWhereTheFirstIs(t *testing.T) {
	list := []ProcStatus{
		{Name: "w-1", ReplicaOf: "w", Replica: 1}, {Name: "api"}, {Name: "w-2", ReplicaOf: "w", Replica: 2}, {Name: "db"},
	}
	var names [][]string
	for _, group := range ReplicaGroups(list) {
		var row []string
		for _, st := range group {
			row = append(row, st.Name)
		}
		names = append(names, row)
	}
	assert.Equal(t, [][]string{{"w-1", "w-2"}, {"api"}, {"db"}}, names)
}

func TestReplicaStatesAndCount(t *testing.T) {
	plain := func(s rules.State) string { return string(s) }
	ready := []ProcStatus{{State: rules.StateReady}, {State: rules.StateReady}}
	assert.Equal(t, "ready", ReplicaStates(ready, plain))
	mixed := append(ready, ProcStatus{State: rules.StateStopped})
	assert.Equal(t, "2 ready, 1 stopped", ReplicaStates(mixed, plain))
	assert.Equal(t, "1 replica", ReplicaCount(1))
	assert.Equal(t, "3 replicas", ReplicaCount(3))
}
