package wire

import (
	"testing"

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
