package systemd

import (
	"fmt"
	"strings"

	"github.com/procsdev/procs/compose/export"
)

// unit is a unit file being written: sections of Key=value lines, in the
// order they are set.
type unit struct {
	sections []*section
}

// section is one [Name] of a unit.
type section struct {
	name  string
	lines []string
}

// section returns the section called name, added at the end when new.
func (u *unit) section(name string) *section {
	for _, s := range u.sections {
		if s.name == name {
			return s
		}
	}
	s := &section{name: name}
	u.sections = append(u.sections, s)
	return s
}

// set adds Key=value.
func (s *section) set(key, value string) {
	s.lines = append(s.lines, key+"="+value)
}

// comment adds a comment line.
func (s *section) comment(format string, args ...any) {
	s.lines = append(s.lines, "# "+fmt.Sprintf(format, args...))
}

// render writes the unit after header.
func (u *unit) render(header string) []byte {
	var b strings.Builder
	b.WriteString(header)
	for _, s := range u.sections {
		fmt.Fprintf(&b, "\n[%s]\n", s.name)
		for _, line := range s.lines {
			b.WriteString(line + "\n")
		}
	}
	return []byte(b.String())
}

// execLine writes argv as the command line of an Exec*= setting: each
// word quoted for systemd, so that neither it nor the shell after it
// reads $, % or \ as its own ($ reaches the program as $, % as %). A
// template unit's {{.Replica}} becomes %i, the instance's number.
func execLine(argv []string) string {
	words := make([]string, len(argv))
	for i, w := range argv {
		words[i] = quoteWord(w, true)
		if i == 0 && strings.ContainsAny(w[:min(len(w), 1)], "@-:+!|") {
			// A leading @, -, :, +, ! or | would be read as a prefix.
			words[i] = `"` + strings.Trim(words[i], `"`) + `"`
		}
	}
	return strings.Join(words, " ")
}

// quoteWord quotes w for a unit file: in double quotes with \, ", % (and
// with dollar, $) escaped, {{.Replica}} as %i.
func quoteWord(w string, dollar bool) string {
	parts := export.ReplicaToken.Regexp().Split(w, -1)
	for i, part := range parts {
		r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "%", "%%", "\n", `\n`, "\t", `\t`)
		part = r.Replace(part)
		if dollar {
			part = strings.ReplaceAll(part, "$", "$$")
		}
		parts[i] = part
	}
	joined := strings.Join(parts, "%i")
	if joined != "" && !strings.ContainsAny(joined, " \t;'\"\\") {
		return joined
	}
	return `"` + joined + `"`
}

// envAssignment is one Environment= value: "KEY=value", quoted.
func envAssignment(key, value string) string {
	return quoteWord(key+"="+value, false)
}
