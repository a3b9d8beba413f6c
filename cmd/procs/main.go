// Command procs is the local process composer: it starts the processes of a
// procs.yaml in dependency order, gates each on its dependencies being ready,
// and lets terminals, scripts and AI agents control them while they run.
package main

import (
	"os"

	"github.com/procsdev/procs/compose/contain"
)

func main() {
	// Once procs has died, its watchdog (an idle sh) executes procs in
	// the watchdog's mode to stop what it left; that mode never returns.
	contain.RunWatchdogIfRequested()
	os.Exit(run(os.Args[1:]))
}

// run executes one procs command line and returns its exit code.
func run(args []string) int {
	a := newApp(os.Stdin, os.Stdout, os.Stderr, os.Environ())
	return a.execute(args)
}
