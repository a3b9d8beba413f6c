package main

import (
	"context"
	"slices"

	"github.com/procsdev/procs/compose/control"
	"github.com/procsdev/procs/compose/wire"
)

// instancesOf resolves names given on the command line against the
// processes of a running procs: the name of a replicated process stands
// for its instances (worker: worker-1, worker-2...), in their order; any
// other name is kept, for procs to answer.
func instancesOf(list []wire.ProcStatus, names []string) []string {
	var out []string
	for _, name := range names {
		var instances []string
		if !slices.ContainsFunc(list, func(st wire.ProcStatus) bool { return st.Name == name }) {
			for _, st := range list {
				if st.ReplicaOf == name {
					instances = append(instances, st.Name)
				}
			}
		}
		if len(instances) == 0 {
			instances = []string{name}
		}
		out = append(out, instances...)
	}
	return out
}

// resolveInstances asks the running procs for its processes when names
// may hold a replicated process's name, and resolves them (instancesOf).
// When the list cannot be had, names are kept: the request that follows
// says why.
func resolveInstances(ctx context.Context, c *control.Client, names []string) []string {
	if len(names) == 0 {
		return names
	}
	list, err := c.List(ctx)
	if err != nil {
		return names
	}
	return instancesOf(list, names)
}
