package systemd

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/joho/godotenv"

	"github.com/procsdev/procs/compose/export"
	"github.com/procsdev/procs/internal/lazyregexp"
)

// The units keep EnvironmentFile= pointing at the project's env files,
// so that their secrets stay out of the unit files; but systemd reads
// them by its own rules, not godotenv's, as procs does. systemd.exec(5),
// EnvironmentFile=: an unquoted value is read with the backslash rules of
// unquoted shell text and keeps its interior whitespace (an inline
// " # comment" is part of it); single quotes keep everything as is;
// double quotes take shell escapes; "$" has no special meaning; lines
// without "=" are ignored, and a name that is not a valid variable name
// ("export FOO") is dropped when the service starts. godotenv strips
// "export ", drops " # comments" after an unquoted value, expands $VAR and
// ${VAR} (upper-case names, from the file's earlier keys) outside single
// quotes, and takes "KEY: value". So each file is read both ways here,
// and every key whose value differs is said, by line, without its value.

// envFileEntry is one assignment of an env file as systemd reads it.
type envFileEntry struct {
	key, value string
	// line is the line its key starts on, from 1.
	line int
}

// envDifference is a key systemd reads differently from procs.
type envDifference struct {
	key  string
	line int
	// text says how, and what to write instead.
	text string
}

// envFileWarnings says, for each env file of the project, each key that
// systemd reads differently from procs, once for all the processes that
// read the file.
func envFileWarnings(p *export.Project) []export.Warning {
	readers := map[string][]string{}
	var files []string
	for _, proc := range p.Procs {
		for _, file := range proc.EnvFiles {
			if readers[file] == nil {
				files = append(files, file)
			}
			readers[file] = append(readers[file], proc.Name)
		}
	}
	var out []export.Warning
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			continue // export.New read it a moment ago; nothing to compare
		}
		for _, d := range envFileDifferences(data) {
			out = append(out, export.Warning{Proc: strings.Join(readers[file], ", "), Text: fmt.Sprintf(
				"env file %s line %d: %s: %s", displayPath(p, file), d.line, d.key, d.text)})
		}
	}
	return out
}

// displayPath is file relative to the project's folder when it is in it.
func displayPath(p *export.Project, file string) string {
	if rel, err := filepath.Rel(p.Dir, file); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return file
}

// envFileDifferences compares an env file as godotenv reads it (procs)
// with how systemd reads it, key by key, in the order of their lines.
func envFileDifferences(data []byte) []envDifference {
	procs, err := godotenv.UnmarshalBytes(data)
	if err != nil {
		return nil // procs refuses the file: procs check says where
	}
	assignments := parseSystemdEnvFile(string(data))
	systemd := map[string]envFileEntry{}
	for _, a := range assignments {
		if validEnvName(a.key) {
			systemd[a.key] = a // a later assignment wins, in both
		}
	}
	var out []envDifference
	for key, value := range procs {
		sd, ok := systemd[key]
		switch {
		case ok && sd.value == value:
			continue
		case ok:
			out = append(out, envDifference{key: key, line: sd.line, text: valueDifference(sd.value, value)})
		default:
			out = append(out, envDifference{key: key, line: lineOf(data, key), text: missingReason(assignments, key)})
		}
	}
	for key, sd := range systemd {
		if _, ok := procs[key]; !ok {
			out = append(out, envDifference{key: key, line: sd.line, text: "systemd sets it, procs does not: check the lines above it for an unclosed quote"})
		}
	}
	slices.SortFunc(out, func(a, b envDifference) int { return a.line - b.line })
	return out
}

// missingReason says why systemd sets no key where procs does.
func missingReason(assignments []envFileEntry, key string) string {
	for _, a := range assignments {
		if name, ok := strings.CutPrefix(a.key, "export"); ok && strings.TrimSpace(name) == key {
			return fmt.Sprintf("systemd ignores `export %s=`, so %s is unset under systemd: write %s=... without export", key, key, key)
		}
	}
	return fmt.Sprintf("systemd reads no %s from this line (it takes KEY=value lines, names of letters, digits and _): write %s=...", key, key)
}

// varReference finds what godotenv expands: $VAR or ${VAR}, upper case.
var varReference = lazyregexp.New(`\$\{?[A-Z0-9_]+\}?`)

// valueDifference says how systemd's value of a key (systemd) differs
// from procs' (procs), without saying either: they may be secrets.
func valueDifference(systemd, procs string) string {
	rest, cut := strings.CutPrefix(systemd, procs)
	switch {
	case cut && strings.HasPrefix(strings.TrimSpace(rest), "#"):
		return "systemd keeps its inline comment as part of the value, procs drops it: put the comment on a line of its own"
	case varReference.MatchString(systemd):
		refs := slices.Compact(varReference.Regexp().FindAllString(systemd, -1))
		return fmt.Sprintf("procs expands %s in it, systemd does not: write the value out in full (or in single quotes, which neither expands, if the $ is meant as is)", strings.Join(refs, ", "))
	}
	return "systemd reads its quotes or backslashes by other rules than procs: write the value in single quotes, which both read as is"
}

// lineOf is the line of the last assignment of key in data, for a line
// systemd does not take as one: KEY: value, or export KEY=value.
func lineOf(data []byte, key string) int {
	pattern := regexp.MustCompile(`^\s*(?:export\s+)?` + regexp.QuoteMeta(key) + `\s*[=:]`)
	line := 0
	for i, text := range strings.Split(string(data), "\n") {
		if pattern.MatchString(text) {
			line = i + 1
		}
	}
	return line
}

// validEnvName reports whether systemd passes a variable of this name to
// the service: letters, digits and _, not starting with a digit.
func validEnvName(name string) bool {
	if name == "" || name[0] >= '0' && name[0] <= '9' {
		return false
	}
	return strings.IndexFunc(name, func(r rune) bool {
		return !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) < 0
}
