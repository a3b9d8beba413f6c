package config

import (
	"testing"
	"time"
)

// FuzzScheduleCron feeds the cron parser what a user may write: it must
// answer with a schedule or an error, never panic (the parser it wraps
// panics on "CRON_TZ=UTC" alone, which compile catches first).
func FuzzScheduleCron(f *testing.F) {
	for _, seed := range []string{"0 2 * * *", "@daily", "CRON_TZ=UTC", "TZ=UTC 0 2 * * *", "*/0 * * * *", "1-70 * * * *", "@every 5m", "0 0 30 2 *", "MON-FRI * * * *"} {
		f.Add(seed, "")
	}
	f.Add("0 2 * * *", "Europe/Paris")
	at := time.Date(2026, 3, 1, 14, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, expr, zone string) {
		s := &Schedule{Cron: expr, Timezone: zone}
		if times, err := s.compile(); err == nil {
			times.Next(at)
		}
	})
}
