package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/knadh/koanf/providers/confmap"

	"github.com/procsdev/procs/internal/lazyregexp"
)

// ProcfileEntry is one `name: command` line of a Procfile.
type ProcfileEntry struct {
	// Name is the process name.
	Name string
	// Command is run with sh -c, as foreman and overmind do.
	Command string
	// Line is the 1-based line; NameCol and CommandCol the 1-based columns
	// where the name and the command start.
	Line, NameCol, CommandCol int
	// Port is the port foreman would give the process in PORT (5000, then
	// 100 more for each process before it) when its command reads $PORT;
	// 0 when it does not.
	Port int
}

// procfileBasePort and procfilePortStep are foreman's and overmind's
// defaults: the first process gets PORT=5000, the next 5100, and so on.
const (
	procfileBasePort = 5000
	procfilePortStep = 100
)

// procfileName is what foreman accepts as a process name.
var procfileName = lazyregexp.New(`^[A-Za-z0-9][A-Za-z0-9_-]*$`)

// readsPort matches $PORT and ${PORT...} in a command.
var readsPort = lazyregexp.New(`\$(PORT\b|\{PORT[:}?+-])`)

// IsProcfile reports whether file is named like a Procfile (Procfile,
// Procfile.dev), as opposed to a procs.yaml.
func IsProcfile(file string) bool {
	base := filepath.Base(file)
	if base == "Procfile" {
		return true
	}
	switch filepath.Ext(base) {
	case ".yaml", ".yml", ".json":
		return false
	}
	return strings.HasPrefix(base, "Procfile.")
}

// utf8BOM is the byte order mark some editors (Notepad) write at the
// start of a UTF-8 file: no part of its text.
var utf8BOM = []byte("\xef\xbb\xbf")

// ParseProcfile reads a Procfile in the foreman/overmind format: one
// `name: command` line per process, blank lines and # comments ignored.
// Problems are returned as ConfigErrors at their line and column in file.
func ParseProcfile(file string, data []byte) ([]ProcfileEntry, error) {
	var entries []ProcfileEntry
	var errs ConfigErrors
	firstLine := map[string]int{}
	data = bytes.TrimPrefix(data, utf8BOM)
	for i, raw := range strings.Split(string(data), "\n") {
		text := strings.TrimRight(raw, "\r")
		body := strings.TrimLeftFunc(text, unicode.IsSpace)
		if body == "" || strings.HasPrefix(body, "#") {
			continue
		}
		e, err := parseProcfileLine(file, i+1, text, len(text)-len(body)+1)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if first, dup := firstLine[e.Name]; dup {
			errs = append(errs, &ConfigError{File: file, Line: e.Line, Col: e.NameCol, Path: "procs." + e.Name,
				Msg: fmt.Sprintf("duplicate process %q (first at line %d): keep only one", e.Name, first)})
			continue
		}
		firstLine[e.Name] = e.Line
		if readsPort.MatchString(e.Command) {
			e.Port = procfileBasePort + procfilePortStep*len(entries)
		}
		entries = append(entries, e)
	}
	if len(errs) == 0 && len(entries) == 0 {
		errs = append(errs, &ConfigError{File: file, Line: 1, Col: 1,
			Msg: "no processes: add one name: command line per process, e.g. web: npm start"})
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return entries, nil
}

// parseProcfileLine reads `name: command` from text, whose first
// non-blank character is at column col.
func parseProcfileLine(file string, line int, text string, col int) (ProcfileEntry, *ConfigError) {
	body := text[col-1:]
	name, command, found := strings.Cut(body, ":")
	if !found || !procfileName.MatchString(name) {
		shown := body
		if found {
			shown = name
		}
		return ProcfileEntry{}, &ConfigError{File: file, Line: line, Col: col,
			Msg: fmt.Sprintf("%q is not a process line: write name: command, with a name of letters, digits, _ and - (e.g. web: npm start)", shown)}
	}
	afterColon := col + len(name) + 1
	trimmed := strings.TrimLeftFunc(command, unicode.IsSpace)
	e := ProcfileEntry{
		Name:       name,
		Command:    strings.TrimRightFunc(trimmed, unicode.IsSpace),
		Line:       line,
		NameCol:    col,
		CommandCol: afterColon + len(command) - len(trimmed),
	}
	if e.Command == "" {
		return ProcfileEntry{}, &ConfigError{File: file, Line: line, Col: afterColon, Path: "procs." + name,
			Msg: fmt.Sprintf("command is empty: write what to run after %q", name+":")}
	}
	return e, nil
}

// QuoteExpansion returns s written so that the ${VAR} and $$ expansion of
// Load gives s back unchanged: a Procfile command is the shell's to expand.
func QuoteExpansion(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '$' && i+1 < len(s) && (s[i+1] == '$' || s[i+1] == '{') {
			b.WriteByte('$')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// addProcfile merges a Procfile as the first layer: each line becomes a
// process whose command runs with sh -c (framework auto, as for any
// process), and a .env beside the Procfile is the envFile, as foreman
// loads it.
func (ld *loader) addProcfile(file string, data []byte) {
	if len(data) > maxConfigBytes {
		ld.errs = append(ld.errs, checkLimits(file, data))
		return
	}
	entries, err := ParseProcfile(file, data)
	var errs ConfigErrors
	if errors.As(err, &errs) {
		ld.errs = append(ld.errs, errs...)
		return
	}
	ld.src.setIfMissing(nil, &origin{source: file, key: pos{1, 1}, val: pos{1, 1}})
	ld.src.lines[file] = countLines(data)
	flat := map[string]any{}
	put := func(path []string, value any, o *origin) {
		flat[strings.Join(path, pathDelim)] = value
		ld.src.set(path, o)
	}
	envFile := filepath.Join(filepath.Dir(file), ".env")
	if _, err := os.Stat(envFile); err == nil {
		put([]string{"envFile"}, ".env", &origin{source: file})
	} else if !errors.Is(err, fs.ErrNotExist) {
		ld.errs = append(ld.errs, &ConfigError{File: envFile, Msg: fmt.Sprintf("cannot read env file: %v", err)})
	}
	ld.src.set([]string{"procs"}, &origin{source: file, key: pos{1, 1}, val: pos{1, 1}})
	for _, e := range entries {
		proc := []string{"procs", e.Name}
		at := &origin{source: file, key: pos{e.Line, e.NameCol}, val: pos{e.Line, e.CommandCol}}
		ld.src.set(proc, at)
		cmdAt := &origin{source: file, key: pos{e.Line, e.CommandCol}, val: pos{e.Line, e.CommandCol}, raw: e.Command}
		put(child(proc, "command"), QuoteExpansion(e.Command), cmdAt)
		if e.Port != 0 {
			put(child(proc, "port"), e.Port, &origin{source: file, key: cmdAt.key, val: cmdAt.val})
		}
	}
	if err := ld.loadSafely(confmap.Provider(flat, pathDelim), nil); err != nil {
		ld.errs = append(ld.errs, &ConfigError{File: file, Msg: fmt.Sprintf("cannot merge the Procfile: %v", err)})
	}
}
