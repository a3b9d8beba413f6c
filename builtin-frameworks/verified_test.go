package frameworks

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite VERIFIED.md from the presets, captures and e2e tests")

// The generated table sits between these lines of VERIFIED.md.
const (
	tableBegin = "<!-- BEGIN GENERATED TABLE: go test -run TestVerifiedTable -update -->"
	tableEnd   = "<!-- END GENERATED TABLE -->"
)

// TestVerifiedTable keeps VERIFIED.md true: for every preset, whether its
// patterns were checked on real output recorded here (which captures,
// which end-to-end tests) or come only from the program's source or docs.
// The table is generated from the presets, testdata/captures and the e2e
// test files, so it cannot claim what the tests do not show.
func TestVerifiedTable(t *testing.T) {
	want := verifiedTable(t)
	doc, err := os.ReadFile("VERIFIED.md")
	require.NoError(t, err)
	text := string(doc)
	begin, end := strings.Index(text, tableBegin), strings.Index(text, tableEnd)
	require.True(t, begin >= 0 && end > begin, "VERIFIED.md lacks the generated table markers")
	got := text[begin+len(tableBegin) : end]
	if *update {
		text = text[:begin+len(tableBegin)] + want + text[end:]
		require.NoError(t, os.WriteFile("VERIFIED.md", []byte(text), 0o644))
		return
	}
	assert.Equal(t, want, got, "VERIFIED.md is stale: go test -run TestVerifiedTable -update")
}

// verifiedTable renders one row per preset.
func verifiedTable(t *testing.T) string {
	t.Helper()
	e2e := e2eCoverage(t)
	var b strings.Builder
	b.WriteString("\n| preset | category | verified here | real runs recorded here (testdata/captures, testdata/screens) | end-to-end under procs | other sources |\n")
	b.WriteString("|---|---|---|---|---|---|\n")
	verified := 0
	for _, p := range All() {
		runs := captureSummary(t, p.Name)
		status := verifiedStatus(p, runs)
		if runs != "" {
			verified++
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", p.Name, p.Category, status,
			dashIfEmpty(runs), dashIfEmpty(strings.Join(e2e[p.Name], ", ")), dashIfEmpty(otherSources(p)))
	}
	fmt.Fprintf(&b, "\n%d of %d presets verified on real output recorded here.\n", verified, len(All()))
	return b.String()
}

// verifiedStatus says how far a preset's patterns were checked on real output.
func verifiedStatus(p *Preset, runs string) string {
	switch {
	case runs != "":
		return "**yes**"
	case len(p.ReadyPatterns)+len(p.ErrorPatterns)+len(p.NotReadyPatterns) == 0:
		return "n/a: no patterns"
	case slices.ContainsFunc(p.Sources, func(s string) bool { return strings.HasPrefix(s, "fixtures ") }):
		return "partly: a shared fixture"
	}
	return "no: source/docs only"
}

// captureSummary lists a preset's captures by what really happened, e.g.
// "ready: start, start-pty; error: bad-config".
func captureSummary(t *testing.T, preset string) string {
	t.Helper()
	byExpect := map[string][]string{}
	for _, dir := range findCaptures(t, ownCaptures) {
		c := loadCapture(t, dir)
		if c.Server == preset {
			byExpect[c.Meta.Expect] = append(byExpect[c.Meta.Expect], filepath.Base(dir))
		}
	}
	var parts []string
	for _, expect := range []string{"ready", "error", "hang", "not-ready"} {
		if names := byExpect[expect]; len(names) > 0 {
			sort.Strings(names)
			parts = append(parts, expect+": "+strings.Join(names, ", "))
		}
	}
	// Interactive programs are recorded as screens (testdata/screens).
	screens, err := filepath.Glob(filepath.Join("testdata", "screens", preset, "*"))
	require.NoError(t, err)
	if len(screens) > 0 {
		for i, s := range screens {
			screens[i] = filepath.Base(s)
		}
		parts = append(parts, "screens: "+strings.Join(screens, ", "))
	}
	return strings.Join(parts, "; ")
}

// e2eCoverage reads the e2e test files and returns, per preset, the tests
// that run its program under procs and what they assert of it.
func e2eCoverage(t *testing.T) map[string][]string {
	t.Helper()
	files, err := filepath.Glob("e2e_*_test.go")
	require.NoError(t, err)
	funcRe := regexp.MustCompile(`(?m)^func (TestE2E\w+)\(`)
	callRe := regexp.MustCompile(`require(ReadyBy|FailedNeverReady)\("[^"]*", "([\w-]+)"\)`)
	seen := map[string]map[string][]string{} // preset -> test -> outcomes
	for _, f := range files {
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		funcs := funcRe.FindAllSubmatchIndex(src, -1)
		for _, call := range callRe.FindAllSubmatchIndex(src, -1) {
			test := ""
			for _, fn := range funcs {
				if fn[0] < call[0] {
					test = string(src[fn[2]:fn[3]])
				}
			}
			outcome := map[string]string{"ReadyBy": "ready", "FailedNeverReady": "failed"}[string(src[call[2]:call[3]])]
			preset := string(src[call[4]:call[5]])
			if seen[preset] == nil {
				seen[preset] = map[string][]string{}
			}
			if !slices.Contains(seen[preset][test], outcome) {
				seen[preset][test] = append(seen[preset][test], outcome)
			}
		}
	}
	out := map[string][]string{}
	for preset, tests := range seen {
		_, ok := Lookup(preset)
		require.True(t, ok, "e2e tests name an unknown preset %q", preset)
		for test, outcomes := range tests {
			out[preset] = append(out[preset], fmt.Sprintf("%s (%s)", test, strings.Join(outcomes, ", ")))
		}
		sort.Strings(out[preset])
	}
	return out
}

// otherSources are the sources of a preset other than its own captures:
// shared fixtures, another preset's captures, source files, documentation.
func otherSources(p *Preset) string {
	var out []string
	for _, s := range p.Sources {
		if !strings.HasPrefix(s, "captures "+p.Name+"/") {
			out = append(out, s)
		}
	}
	return strings.ReplaceAll(strings.Join(out, "; "), "|", `\|`)
}

func dashIfEmpty(s string) string {
	if s == "" {
		return "–"
	}
	return s
}
