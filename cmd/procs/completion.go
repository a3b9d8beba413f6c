package main

import (
	"context"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/compose/control"
	"github.com/procsdev/procs/compose/wire"
	"github.com/procsdev/procs/rules"
)

// completionTimeout bounds asking the running procs for names: a shell
// waits for completions, and the config file answers almost as well.
const completionTimeout = 300 * time.Millisecond

// nameArgs says, for each command whose arguments are process names, how
// many are (0: all of them), and whether only PTY processes fit.
var nameArgs = map[string]struct {
	count   int
	ptyOnly bool
}{
	"status": {}, "restart": {}, "start": {}, "stop": {}, "logs": {}, "wait": {}, "up": {},
	"send": {count: 1}, "pause": {count: 1}, "resume": {count: 1},
	"attach": {count: 1, ptyOnly: true}, "screen": {count: 1, ptyOnly: true},
}

// waitStates are the values of wait --for.
var waitStates = []rules.State{
	rules.StateReady, rules.StateCompleted, rules.StateStopped, rules.StateFailed,
	rules.StateBusy, rules.StateAwaitingInput, rules.StateAwaitingPermission,
}

// addCompletions gives the commands of root their completion of process
// names, here rather than in each command's file, so the list is one.
func (a *app) addCompletions(root *cobra.Command) {
	for _, cmd := range root.Commands() {
		if cmd.Name() == "scale" {
			cmd.ValidArgsFunction = a.completeScale
		}
		spec, ok := nameArgs[cmd.Name()]
		if !ok {
			continue
		}
		cmd.ValidArgsFunction = func(_ *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
			if spec.count > 0 && len(args) >= spec.count {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			return a.nameCompletions(args, toComplete, spec.ptyOnly), cobra.ShellCompDirectiveNoFileComp
		}
		if cmd.Name() == "wait" {
			_ = cmd.RegisterFlagCompletionFunc("for", completeStates)
		}
	}
}

// nameCompletions are the names starting with toComplete and not yet
// given: from the running procs, each with its state, or else from the
// config file.
func (a *app) nameCompletions(given []string, toComplete string, ptyOnly bool) []cobra.Completion {
	candidates, ok := a.runningNames(ptyOnly)
	if !ok {
		candidates = a.configNames()
	}
	var out []cobra.Completion
	for _, c := range candidates {
		name, _, _ := strings.Cut(c, "\t")
		if strings.HasPrefix(name, toComplete) && !slices.Contains(given, name) {
			out = append(out, c)
		}
	}
	return out
}

// runningNames lists the processes of the running procs as completions
// described by their state; ok is false when none answers in time.
func (a *app) runningNames(ptyOnly bool) (names []cobra.Completion, ok bool) {
	ctx, cancel := context.WithTimeout(context.Background(), completionTimeout)
	defer cancel()
	c, err := control.DialContext(ctx, a.projectDir())
	if err != nil {
		return nil, false
	}
	defer c.Close()
	list, err := c.List(ctx)
	if err != nil {
		return nil, false
	}
	for _, group := range wire.ReplicaGroups(list) {
		if group[0].ReplicaOf != "" && (!ptyOnly || group[0].PTY) {
			names = append(names, cobra.CompletionWithDesc(group[0].ReplicaOf, wire.ReplicaCount(len(group))))
		}
		for _, st := range group {
			if !ptyOnly || st.PTY {
				names = append(names, cobra.CompletionWithDesc(st.Name, string(st.State)))
			}
		}
	}
	return names, true
}

// completeScale completes procs scale's NAME= with the processes of the
// config file, replicated or not.
func (a *app) completeScale(_ *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	cfg, err := config.Load(config.LoadOptions{File: a.file, Environ: a.environ, Set: a.set})
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var out []cobra.Completion
	for _, name := range slices.Sorted(maps.Keys(cfg.Declared())) {
		given := slices.ContainsFunc(args, func(arg string) bool { return strings.HasPrefix(arg, name+"=") })
		if strings.HasPrefix(name+"=", toComplete) && !given {
			out = append(out, name+"=")
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
}

// configNames lists the processes of the config file, nothing when it
// cannot be loaded (completion is no place for its errors).
func (a *app) configNames() []cobra.Completion {
	cfg, err := config.Load(config.LoadOptions{File: a.file, Environ: a.environ, Set: a.set})
	if err != nil {
		return nil
	}
	names := cfg.Names()
	for _, name := range slices.Sorted(maps.Keys(cfg.Declared())) {
		if cfg.Procs[name] == nil {
			names = append(names, name) // a replicated process: all its instances
		}
	}
	return names
}

// completeStates completes wait --for, a comma-separated list: the states
// not yet in it, after what is already typed.
func completeStates(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	done, partial := "", toComplete
	if i := strings.LastIndex(toComplete, ","); i >= 0 {
		done, partial = toComplete[:i+1], toComplete[i+1:]
	}
	given := strings.Split(done, ",")
	var out []cobra.Completion
	for _, s := range waitStates {
		if strings.HasPrefix(string(s), partial) && !slices.Contains(given, string(s)) {
			out = append(out, done+string(s))
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}
