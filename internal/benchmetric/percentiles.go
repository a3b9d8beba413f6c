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

// ReportRatio reports the p50 of samples and of floor, the same work done
// by the machine alone in the same run, in milliseconds as "p50-NAME-ms"
// and "floor-NAME-ms", and their ratio as "NAME-x-floor".
func ReportRatio(b *testing.B, name string, samples, floor []time.Duration) {
	if len(samples) == 0 || len(floor) == 0 {
		return
	}
	p50 := func(s []time.Duration) float64 {
		slices.Sort(s)
		return float64(s[(len(s)-1)/2].Microseconds()) / 1000
	}
	mine, bare := p50(samples), p50(floor)
	b.ReportMetric(mine, "p50-"+name+"-ms")
	b.ReportMetric(bare, "floor-"+name+"-ms")
	if bare > 0 {
		b.ReportMetric(mine/bare, name+"-x-floor")
	}
}
