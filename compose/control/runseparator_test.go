package control

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRunSeparators(t *testing.T) {
	type line struct {
		proc string
		run  int
		sep  bool
	}
	for _, tc := range []struct {
		name  string
		lines []line
	}{
		{"one run", []line{{"web", 1, false}, {"web", 1, false}}},
		{"a restart", []line{{"web", 1, false}, {"web", 2, true}, {"web", 2, false}}},
		{"each process its own runs", []line{{"web", 1, false}, {"db", 3, false}, {"web", 1, false}, {"db", 4, true}}},
		{"an unknown run keeps the last known", []line{{"web", 1, false}, {"web", 0, false}, {"web", 2, true}}},
		{"unknown first: no known start to compare", []line{{"web", 0, false}, {"web", 2, false}, {"web", 3, true}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s RunSeparators
			for i, l := range tc.lines {
				assert.Equal(t, l.sep, s.Line(l.proc, l.run), "line %d", i)
			}
		})
	}

	var s RunSeparators
	assert.False(t, s.Started("web", 1), "nothing shown before the first run")
	assert.False(t, s.Line("web", 1))
	assert.True(t, s.Started("web", 2))
	assert.False(t, s.Line("web", 2), "the start already drew it")
}

func TestRunSeparator(t *testing.T) {
	assert.Equal(t, "── run 2 ──", RunSeparator("web", 2, true))
	assert.Equal(t, "── web run 2 ──", RunSeparator("web", 2, false))
}
