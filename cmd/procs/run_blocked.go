package main

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/procsdev/procs/compose"
	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/compose/control"
	"github.com/procsdev/procs/rules"
)

// blockedHint says, for a task whose run is blocked, which dependency is in
// the way (the one at the root of a chain of blocked ones), why it will not
// come by itself, and what brings it; "" when procs cannot be asked. The
// task keeps waiting for it: once it is there, the task runs.
func blockedHint(ctx context.Context, c *control.Client, task string) string {
	list, err := c.List(ctx)
	if err != nil {
		return ""
	}
	byName := make(map[string]compose.ProcStatus, len(list))
	for _, st := range list {
		byName[st.Name] = st
	}
	root, ok := blockingRoot(byName, task)
	if !ok {
		return ""
	}
	command, verb := "procs start "+root.Name, "starts"
	if root.Kind == config.KindTask {
		command, verb = "procs run "+root.Name, "runs"
	}
	if root.State == rules.StateFailed {
		if slices.Contains(byName[task].DependsOn, root.Name) {
			// The blocked message says it failed, and why.
			return fmt.Sprintf(": fix %s, then `%s`, and %s after it", root.Name, command, task)
		}
		return fmt.Sprintf("; %s failed: fix it, then `%s`, and %s after it", root.Name, command, task)
	}
	why, also := stoppedCause(ctx, c, root)
	return fmt.Sprintf("; %s: `%s` %s it, and %s after it%s", why, command, verb, task, also)
}

// blockingRoot follows the dependencies of name that block it, through
// the blocked ones, to the first that is stopped or failed: what has to
// come for name to run.
func blockingRoot(byName map[string]compose.ProcStatus, name string) (compose.ProcStatus, bool) {
	seen := map[string]bool{name: true}
	for {
		dep, ok := firstBlocking(byName, byName[name].DependsOn)
		switch {
		case !ok || seen[dep.Name]:
			return compose.ProcStatus{}, false
		case dep.State != rules.StateBlocked:
			return dep, true
		}
		seen[dep.Name], name = true, dep.Name
	}
}

// firstBlocking is the first of deps that blocks its dependents, as procs
// names it: stopped, failed (and not retrying by itself) or blocked.
func firstBlocking(byName map[string]compose.ProcStatus, deps []string) (compose.ProcStatus, bool) {
	for _, name := range deps {
		st, ok := byName[name]
		switch {
		case !ok:
		case st.State == rules.StateStopped, st.State == rules.StateBlocked,
			st.State == rules.StateFailed && !(st.Recoverable && st.PID != 0):
			return st, true
		}
	}
	return compose.ProcStatus{}, false
}

// stoppedCause says why a stopped dependency stays stopped, and, for one
// of profiles, the other way to start it.
func stoppedCause(ctx context.Context, c *control.Client, dep compose.ProcStatus) (why, also string) {
	switch dep.Reason {
	case rules.ReasonDisabled:
		return dep.Name + " is disabled", " (or remove its disabled: true, then `procs reload`)"
	case rules.ReasonProfile:
		profiles := profilesOf(ctx, c, dep.Name)
		if len(profiles) == 0 {
			return dep.Name + " is of a profile not active", ""
		}
		word := "profile"
		if len(profiles) > 1 {
			word = "profiles"
		}
		return fmt.Sprintf("%s is of %s %s, not active", dep.Name, word, strings.Join(profiles, ", ")),
			fmt.Sprintf(" (or `procs up --profile %s`)", profiles[0])
	case rules.ReasonNotStarted:
		return dep.Name + " was not started by procs up", ""
	case rules.ReasonScheduled:
		return dep.Name + " waits for its schedule", ""
	}
	return dep.Name + " was stopped", ""
}

// profilesOf reads the profiles of name from the config procs runs; nil
// when it cannot.
func profilesOf(ctx context.Context, c *control.Client, name string) []string {
	raw, err := c.Config(ctx)
	if err != nil {
		return nil
	}
	var cfg struct {
		Procs map[string]struct {
			Profiles []string `json:"profiles"`
		} `json:"procs"`
	}
	if json.Unmarshal(raw, &cfg) != nil {
		return nil
	}
	return cfg.Procs[name].Profiles
}
