package lifecycle

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/rules"
)

// ARCHITECTURE.md §3 shows the legal edges; it must show exactly these.
func TestArchitectureShowsTheTransitions(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "ARCHITECTURE.md"))
	require.NoError(t, err)
	section := string(doc)
	start := strings.Index(section, "## 3.")
	require.GreaterOrEqual(t, start, 0, "ARCHITECTURE.md has no §3")
	section = section[start:]
	if end := strings.Index(section[5:], "\n## "); end >= 0 {
		section = section[:end+5]
	}
	documented := map[Edge]bool{}
	for _, line := range strings.Split(section, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 4 || strings.TrimSpace(cells[1]) == "from" || strings.HasPrefix(strings.TrimSpace(cells[1]), "---") {
			continue
		}
		for _, from := range statesIn(cells[1]) {
			for _, to := range statesIn(cells[2]) {
				if from != to {
					documented[Edge{from, to}] = true
				}
			}
		}
	}
	for edge := range Transitions() {
		assert.True(t, documented[edge], "ARCHITECTURE.md §3 lacks %s → %s", edge.From, edge.To)
	}
	for edge := range documented {
		assert.True(t, Legal(edge.From, edge.To), "ARCHITECTURE.md §3 shows %s → %s, which the machine refuses", edge.From, edge.To)
	}
}

// statesIn reads a cell of the table: states and "live", comma separated.
func statesIn(cell string) []rules.State {
	var out []rules.State
	for _, word := range strings.Split(cell, ",") {
		word = strings.TrimSpace(word)
		if word == "live" {
			out = append(out, alive...)
			continue
		}
		out = append(out, rules.State(word))
	}
	return out
}
