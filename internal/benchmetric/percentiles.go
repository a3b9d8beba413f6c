// Package benchmetric reports latency percentiles from benchmarks: the
// figures (p50, p99) the project's performance goals are stated in.
package benchmetric

import (
	"slices"
	"testing"
	"time"
)

// ReportPercentiles adds p50 and p99 of samples, in milliseconds, to the
// output of b as "p50-UNIT" and "p99-UNIT" (unit "ms" gives p50-ms). It
// sorts samples; with none it reports nothing.
func ReportPercentiles(b *testing.B, unit string, samples []time.Duration) {
	if len(samples) == 0 {
		return
	}
	slices.Sort(samples)
	at := func(p float64) float64 {
		return float64(samples[int(p*float64(len(samples)-1))].Microseconds()) / 1000
	}
	b.ReportMetric(at(0.50), "p50-"+unit)
	b.ReportMetric(at(0.99), "p99-"+unit)
}
