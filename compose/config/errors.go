package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/procsdev/procs/internal/typo"
)

// ErrUnknownProcess is returned for a process name not in the config.
var ErrUnknownProcess = errors.New("unknown process")

// UnknownProcessError is a name that is no process of the config, with
// the names that are, so a client can show them (a list, in JSON) or
// complete them. errors.Is(err, ErrUnknownProcess) holds for it.
type UnknownProcessError struct {
	Name string
	// Known are the process names of the config, in its order.
	Known []string
}

// Error names the process, or says the pattern matched none (worker-*),
// and lists the known ones, with the one likely meant.
func (e *UnknownProcessError) Error() string {
	if strings.ContainsAny(e.Name, "*?[") {
		return fmt.Sprintf("%v: no process matches %q (known: %s)", ErrUnknownProcess, e.Name, strings.Join(e.Known, ", "))
	}
	return fmt.Sprintf("%v %q%s (known: %s)", ErrUnknownProcess, e.Name, didYouMean(e.Name, e.Known), strings.Join(e.Known, ", "))
}

// Is makes errors.Is(err, ErrUnknownProcess) true.
func (e *UnknownProcessError) Is(target error) bool { return target == ErrUnknownProcess }

// ErrNoConfig is returned (wrapped) by Load when no procs.yaml is found.
var ErrNoConfig = errors.New("no procs.yaml found")

// ConfigError is one problem in a config, located in its source: a file
// position, or the environment variable or --set flag that supplied the value.
type ConfigError struct {
	// File is the file name, or the variable or flag the value came from.
	File string
	// Line and Col are 1-based; both are 0 when the source is not a file.
	Line, Col int
	// Path is the key path, such as procs.api.readyTimeout.
	Path string
	// Msg says what is wrong and, where it can, what to write instead.
	Msg string
}

// Error formats the error as "file:line:col: path: message".
func (e *ConfigError) Error() string {
	var b strings.Builder
	b.WriteString(displayName(e.File))
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d:%d", e.Line, e.Col)
	}
	b.WriteString(": ")
	if e.Path != "" {
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return escapeControls(b.String())
}

// escapeControls writes the control characters of s as Go escapes (\x1b):
// names and values come from a file that may not be the user's own, and a
// terminal takes a raw escape sequence in an error as a command (clear the
// screen, set the clipboard).
func escapeControls(s string) string {
	if !strings.ContainsFunc(s, unicode.IsControl) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if unicode.IsControl(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// ConfigErrors is every problem found in a config, sorted by file and position.
type ConfigErrors []*ConfigError

// Error joins the errors with newlines.
func (errs ConfigErrors) Error() string {
	lines := make([]string, len(errs))
	for i, e := range errs {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// sortErrors orders errors by file, line and column, keeping the order of
// errors reported at the same place.
func sortErrors(errs ConfigErrors) {
	sort.SliceStable(errs, func(i, j int) bool {
		a, b := errs[i], errs[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
}

// displayName shows an absolute file path relative to the current folder
// when the file is inside it.
func displayName(file string) string {
	if !filepath.IsAbs(file) {
		return file
	}
	wd, err := os.Getwd()
	if err != nil {
		return file
	}
	rel, err := filepath.Rel(wd, file)
	if err != nil || strings.HasPrefix(rel, "..") {
		return file
	}
	return rel
}

// didYouMean returns ` (did you mean "x"?)` for the procs name of a name
// from another tool (foreignNames) when it is a candidate, else for the
// candidate closest to word, or "" when none is close enough.
func didYouMean(word string, candidates []string) string {
	if name, ok := foreignNames[word]; ok && slices.Contains(candidates, name) {
		return fmt.Sprintf(" (did you mean %q?)", name)
	}
	best, bestDist := "", 3
	lower := strings.ToLower(word)
	consider := func(spelled, meant string) {
		if len(spelled) > len(word)+2 || len(word) > len(spelled)+2 {
			return // too far apart, and keeps long input cheap
		}
		d := typo.Distance(lower, strings.ToLower(spelled))
		if d < bestDist || (d == bestDist && meant < best && best != "") {
			best, bestDist = meant, d
		}
	}
	for _, c := range candidates {
		consider(c, c)
	}
	// A typo of another tool's name ("enviroment") means ours too.
	for foreign, name := range foreignNames {
		if slices.Contains(candidates, name) {
			consider(foreign, name)
		}
	}
	if best == "" || (bestDist > 1 && len(word) < 4) {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

// problems collects the errors of one load, placed with the origins of
// the key paths they concern.
type problems struct {
	src  *sources
	errs ConfigErrors
}

// atKey reports a problem at the key of path (unknown or missing things).
func (p *problems) atKey(path []string, format string, args ...any) {
	p.errs = append(p.errs, p.src.errorAt(path, true, fmt.Sprintf(format, args...)))
}

// atValue reports a problem at the value of path (bad values).
func (p *problems) atValue(path []string, format string, args ...any) {
	p.errs = append(p.errs, p.src.errorAt(path, false, fmt.Sprintf(format, args...)))
}
