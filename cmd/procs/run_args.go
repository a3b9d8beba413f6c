package main

import (
	"fmt"
	"strings"
)

// parseArgFlags reads the --arg NAME=VALUE flags of procs run into the
// arguments of the task's run; nil when none is given (the run then joins
// a run going, as procs run always has). The values are checked by the
// running procs against the task's args:, in one place for every client.
func parseArgFlags(flags []string) (map[string]string, error) {
	if len(flags) == 0 {
		return nil, nil
	}
	args := make(map[string]string, len(flags))
	for _, flag := range flags {
		name, value, ok := strings.Cut(flag, "=")
		name = strings.TrimSpace(name)
		switch {
		case !ok || name == "":
			return nil, fmt.Errorf("--arg %q: write --arg NAME=VALUE, e.g. --arg filter=TestLogin", flag)
		case hasArg(args, name):
			return nil, fmt.Errorf("--arg %s is given twice: give each argument once", name)
		}
		args[name] = value
	}
	return args, nil
}

func hasArg(args map[string]string, name string) bool { _, ok := args[name]; return ok }
