package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/compose/contain"
)

// warnUnenforcedLimits says, in one line, which resources: limits of cfg
// the kernel cannot enforce here: they are ignored, and procs does not
// pretend otherwise.
func warnUnenforcedLimits(w io.Writer, prefix string, cfg *config.Config) {
	r := cfg.LimitedResources()
	if r.IsZero() {
		return
	}
	if err := contain.LimitsAvailable(contain.Limits{Memory: int64(r.Memory), CPU: r.CPU, Pids: r.Pids}); err != nil {
		fmt.Fprintf(w, "%swarning: resources: %v\n", prefix, err)
	}
}

// limitsText says a process's resources: for procs detect: "memory
// 512MiB, cpu 1.5 cores, pids 200; a run held at its CPU limit says so in
// procs status", with what cannot be enforced here.
func limitsText(r config.Resources) string {
	if r.IsZero() {
		return ""
	}
	var parts []string
	if r.Memory != 0 {
		parts = append(parts, "memory "+r.Memory.String()+" (past it the kernel kills the run: reason memory-limit)")
	}
	if r.CPU != 0 {
		parts = append(parts, "cpu "+strconv.FormatFloat(r.CPU, 'f', -1, 64)+" cores (held there, not killed: procs status says when)")
	}
	if r.Pids != 0 {
		parts = append(parts, "pids "+strconv.Itoa(r.Pids)+" (a fork past it fails)")
	}
	text := strings.Join(parts, ", ")
	if err := contain.LimitsAvailable(contain.Limits{Memory: int64(r.Memory), CPU: r.CPU, Pids: r.Pids}); err != nil {
		text += "; " + err.Error()
	}
	return text
}
