package scaffold

import (
	"bufio"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/procsdev/procs/internal/lazyregexp"
)

// A README often says `make run` or `just dev`: the command it runs is
// the recipe of that target, in the Makefile or justfile beside it. init
// reads the recipe as if the README had written its lines, so that what
// the target starts is found (or recognised as found already).

// recipeFiles are the files that define make and just targets.
var recipeFiles = map[string][]string{
	"make": {"Makefile", "makefile", "GNUmakefile"},
	"just": {"justfile", "Justfile", ".justfile"},
}

// targetLine is the first line of a target: `run:`, `run build: deps`,
// `dev *ARGS:` (just's parameters).
var targetLine = lazyregexp.New(`^([A-Za-z0-9_.-]+(?:\s+[A-Za-z0-9_.*+$-]+)*)\s*:([^=]|$)`)

// activateStep is a recipe step that only enters the project's
// environment (. venv/bin/activate): the next step runs in it.
var activateStep = lazyregexp.New(`^(\.|source)\s+\S*activate$`)

// targetRecipe returns the command steps of target in rel's Makefile (for
// make) or justfile (for just), and the file read; ok is false when no
// such target is there.
func (pl *plan) targetRecipe(rel, tool, target string) (steps []string, file string, ok bool) {
	for _, name := range recipeFiles[tool] {
		text := readAll(filepath.Join(pl.abs(rel), name))
		if text == "" {
			continue
		}
		steps, ok := parseRecipe(text, target)
		return steps, name, ok
	}
	return nil, "", false
}

// parseRecipe reads the indented lines under target, continuation lines
// joined, split into steps; echo-suppressing @ and error-ignoring -
// prefixes and environment activation are left out.
func parseRecipe(text, target string) ([]string, bool) {
	text = strings.ReplaceAll(text, "\\\n", " ")
	scanner := bufio.NewScanner(strings.NewReader(text))
	found := false
	var steps []string
	for scanner.Scan() {
		line := scanner.Text()
		indented := strings.HasPrefix(line, "\t") || strings.HasPrefix(line, " ")
		switch {
		case found && indented:
			for _, step := range chainSplit.Regexp().Split(strings.TrimSpace(line), -1) {
				step = strings.TrimSpace(strings.TrimLeft(step, "@-"))
				if step != "" && !activateStep.MatchString(step) {
					steps = append(steps, step)
				}
			}
		case found && strings.TrimSpace(line) != "":
			return steps, true
		case !indented:
			if m := targetLine.FindStringSubmatch(line); m != nil {
				found = slices.Contains(strings.Fields(m[1]), target)
			}
		}
	}
	return steps, found
}

// readmeStep is one command of a README line, with where it came from.
type readmeStep struct {
	command, source string
}

// expandTarget is the steps a README's `make TARGET` or `just TARGET`
// runs, read from its recipe; the step itself when it is no such call or
// its recipe cannot be read (init then asks about it).
func (pl *plan) expandTarget(rel string, step readmeStep) []readmeStep {
	words := strings.Fields(step.command)
	if len(words) != 2 || (words[0] != "make" && words[0] != "just") {
		return []readmeStep{step}
	}
	recipe, file, ok := pl.targetRecipe(rel, words[0], words[1])
	if !ok || len(recipe) == 0 {
		return []readmeStep{step}
	}
	var out []readmeStep
	for _, command := range recipe {
		if w := strings.Fields(command); len(w) > 0 && (w[0] == "make" || w[0] == "just" || strings.HasPrefix(w[0], "$(MAKE")) {
			continue // a target of a target: its own README line names it, if it matters
		}
		out = append(out, readmeStep{command: command, source: fmt.Sprintf("%s, %s target %q: %s", step.source, file, words[1], command)})
	}
	return out
}
