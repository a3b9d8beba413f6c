package rules

import (
	"regexp"
	"strings"
)

// historySize bounds the lines a detector keeps to answer log.matches with
// an argument only known at evaluation time.
const historySize = 512

// logTracker answers the log.* questions of a rule for one run without
// keeping the run's output: each line is tested, as it arrives, against the
// regexes and strings the rule uses, and only the answers are kept.
type logTracker struct {
	lines    int
	last     string
	matches  []trackedRegex
	contains []trackedString
	// history is kept only for rules with non-constant arguments.
	history     []string
	historyNext int
	keepHistory bool
}

type trackedRegex struct {
	re   *regexp.Regexp
	src  string
	seen bool
}

type trackedString struct {
	s    string
	seen bool
}

func newLogTracker(rule *Rule) logTracker {
	var t logTracker
	if rule == nil {
		return t
	}
	for _, src := range rule.matches {
		// CompileRule already compiled these successfully.
		re, _ := cachedRegexp(src)
		t.matches = append(t.matches, trackedRegex{re: re, src: src})
	}
	for _, s := range rule.contains {
		t.contains = append(t.contains, trackedString{s: s})
	}
	t.keepHistory = rule.dynamic
	return t
}

func (t *logTracker) add(text string) {
	t.lines++
	t.last = text
	for i := range t.matches {
		if !t.matches[i].seen && t.matches[i].re.MatchString(text) {
			t.matches[i].seen = true
		}
	}
	for i := range t.contains {
		if !t.contains[i].seen && strings.Contains(text, t.contains[i].s) {
			t.contains[i].seen = true
		}
	}
	if !t.keepHistory {
		return
	}
	if len(t.history) < historySize {
		t.history = append(t.history, text)
		return
	}
	t.history[t.historyNext] = text
	t.historyNext = (t.historyNext + 1) % historySize
}

// Matches reports whether some line of the run matched src. An invalid
// regex matches nothing (constant ones are rejected at config load).
func (t *logTracker) Matches(src string) bool {
	for _, m := range t.matches {
		if m.src == src {
			return m.seen
		}
	}
	re, err := cachedRegexp(src)
	if err != nil {
		return false
	}
	// First use of a dynamic regex: answer from the history, then track it.
	m := trackedRegex{re: re, src: src}
	for _, line := range t.history {
		if re.MatchString(line) {
			m.seen = true
			break
		}
	}
	t.matches = append(t.matches, m)
	return m.seen
}

// Contains reports whether some line of the run contains s.
func (t *logTracker) Contains(s string) bool {
	for _, c := range t.contains {
		if c.s == s {
			return c.seen
		}
	}
	c := trackedString{s: s}
	for _, line := range t.history {
		if strings.Contains(line, s) {
			c.seen = true
			break
		}
	}
	t.contains = append(t.contains, c)
	return c.seen
}
