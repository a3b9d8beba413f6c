// Command floor measures the machine's floor for procs' 200-process rows
// (internal/floor) and prints them as markdown table rows, p50 over
// -repeat runs, to stand beside procs' and process-compose's figures taken
// in the same session (internal/floor/perf-table.sh).
package main

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/procsdev/procs/internal/floor"
)

func main() {
	n := flag.Int("n", 200, "children per run")
	repeat := flag.Int("repeat", 5, "runs per shape")
	flag.Parse()
	for _, shape := range []floor.Shape{floor.Tree, floor.Flat} {
		var ready, down []time.Duration
		for range *repeat {
			res, err := floor.Run(*n, shape)
			if err != nil {
				fmt.Fprintln(os.Stderr, "floor:", err)
				os.Exit(1)
			}
			ready, down = append(ready, res.AllReady), append(down, res.Down)
		}
		fmt.Printf("| floor: %d %s, fork → every first line read (ms) | %s |\n", *n, shape, p50(ready))
		fmt.Printf("| floor: %d %s, SIGTERM → every child reaped (ms) | %s |\n", *n, shape, p50(down))
	}
}

// p50 is the median of samples in milliseconds, with the count.
func p50(samples []time.Duration) string {
	slices.Sort(samples)
	return fmt.Sprintf("%.1f (N=%d)", float64(samples[(len(samples)-1)/2].Microseconds())/1000, len(samples))
}
