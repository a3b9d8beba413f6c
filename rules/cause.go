package rules

import (
	"regexp"
	"strings"
)

// causeRanks are the kinds of line that explain a failure, best first.
var causeRanks = []struct {
	re   *regexp.Regexp
	rank int
}{
	// Go: "panic: ...", "fatal error: ...".
	{regexp.MustCompile(`^(panic|fatal error): `), 90},
	// Python's final exception line ("ModuleNotFoundError: No module named
	// 'x'", "django.core.exceptions.ImproperlyConfigured: ...") and Node's
	// ("Error: Cannot find module", "TypeError: x is not a function").
	{regexp.MustCompile(`^(Uncaught )?([A-Za-z_][\w.]*\.)?[A-Z]\w*(Error|Exception|Exit)( \[\w+\])?: `), 90},
	{regexp.MustCompile(`^\[[A-Z_]+_ERROR\] `), 85}, // rolldown/vite: "[PARSE_ERROR] Error: ..."
	{regexp.MustCompile(`(?i)\b(FATAL|PANIC|emerg|crit)\b`), 60},
	{regexp.MustCompile(`\[(error|alert)\]`), 55}, // nginx: "[emerg]" is above
	// Hints, usage and details explain what to do, not what went wrong.
	{regexp.MustCompile(`(?i)^(\S+: )?(hint|usage|detail|try|note|tip)\b:?`), -10},
	{regexp.MustCompile(`(?i)\berror\b|\bERR!|\bfailed\b|\bcould not\b|\bcannot\b|\bunable to\b`), 30},
	{regexp.MustCompile(`^Traceback \(most recent call last\):`), 10},
}

// CauseRank says how well line explains a failure: higher is better, 0 says
// nothing. It prefers the line that names what went wrong (a Python
// exception line, a Node Error line, a Go panic, an error or FATAL line)
// over the lines around it (a traceback's frames, a hint, a usage line).
func CauseRank(line string) int {
	line = strings.TrimSpace(line)
	for _, c := range causeRanks {
		if !c.re.MatchString(line) {
			continue
		}
		rank := c.rank
		if rank > headingRank && strings.HasSuffix(line, ":") {
			// A heading ("Error: Build failed with 1 error:", "error when
			// starting dev server:"): the lines after it say what.
			rank = headingRank
		}
		if rank > 0 && fileLine.MatchString(line) {
			rank += 5 // it also says where
		}
		return rank
	}
	return 0
}

// headingRank is the most a line ending in ":" ranks.
const headingRank = 20

// fileLine finds "file.ext:12" in a line.
var fileLine = regexp.MustCompile(`\w\.\w+:\d+`)
