package config

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// A value that does not load is reported at the field that holds it, in
// procs.yaml. When its text came from a variable, the fix is where the
// variable was set, often another file (API_PORT=80a in .env): the error
// then names that place too. These are the records it is found from,
// kept as values expand; they are read only when the config has errors.

// varRead is a variable a value read, and what it held.
type varRead struct {
	name, value string
	// proc is the process whose value read it, "" outside procs:.
	proc string
}

// envFileRead is a dotenv file the config read, and what it set.
type envFileRead struct {
	file string
	vars map[string]string
}

// dotEnvKey is where the .env beside procs.yaml is kept in
// expander.files; the other files are kept by the key that names them.
const dotEnvKey = ""

// noteRead records that the value at path read the variable name.
func (ex *expander) noteRead(path []string, name, value string) {
	if ex.reads == nil {
		ex.reads = map[string][]varRead{}
	}
	proc := ""
	if len(path) > 1 && path[0] == "procs" {
		proc = path[1]
	}
	at := showPath(path)
	ex.reads[at] = append(ex.reads[at], varRead{name: name, value: value, proc: proc})
}

// noteFile records a dotenv file read for the key at path (nil for .env).
func (ex *expander) noteFile(path []string, file string, vars map[string]string) {
	if ex.files == nil {
		ex.files = map[string]envFileRead{}
	}
	ex.files[pathKey(path)] = envFileRead{file: file, vars: vars}
}

// nameVariablesIn adds to each error at a value that read variables
// what they were: a variable that is not set (the warning that would have
// named it is not printed, since the config does not load, and `"" is
// not a port` alone does not say where the empty value came from), or
// where one that is set got its value.
func (ex *expander) nameVariablesIn(errs ConfigErrors) {
	unsetAt := map[string][]string{}
	for name, keys := range ex.unset {
		for _, key := range keys {
			at := showPath(strings.Split(key, "\x00"))
			unsetAt[at] = append(unsetAt[at], name)
		}
	}
	for _, e := range errs {
		if strings.Contains(e.Msg, "${") {
			continue // about its variables already
		}
		names := unsetAt[e.Path]
		slices.Sort(names)
		for _, name := range slices.Compact(names) {
			e.Msg += fmt.Sprintf(" (${%s} is not set: %s)", name, howToSet(name))
		}
		seen := map[string]bool{}
		for _, read := range ex.reads[e.Path] {
			if seen[read.name] {
				continue
			}
			seen[read.name] = true
			if where := ex.origin(read); where != "" {
				e.Msg += fmt.Sprintf(" (${%s} is set to %s %s)", read.name, strconv.Quote(read.value), where)
			}
		}
	}
}

// origin says where the variable read got its value, in the order values
// are looked up (expander): the environment, the process's envFile, the
// global envFile, then .env; "" when it was set in procs.yaml itself (an
// env: there), whose error already points at procs.yaml.
func (ex *expander) origin(read varRead) string {
	if v, ok := ex.environ[read.name]; ok && v == read.value {
		return "in the environment procs runs in"
	}
	keys := []string{pathKey([]string{"envFile"}), dotEnvKey}
	if read.proc != "" {
		keys = slices.Insert(keys, 0, pathKey([]string{"procs", read.proc, "envFile"}))
	}
	for _, key := range keys {
		f, ok := ex.files[key]
		if v, set := f.vars[read.name]; ok && set && v == read.value {
			return "at " + ex.showFile(f.file) + dotEnvLineSuffix(f.file, read.name)
		}
	}
	return ""
}

// showFile is file as the user knows it: relative to procs.yaml's folder
// when it is inside it.
func (ex *expander) showFile(file string) string {
	if rel, err := filepath.Rel(ex.dir, file); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return file
}

// dotEnvLineSuffix is ":N", the line of the dotenv file that sets key
// (the last that does, which godotenv keeps), or "" when it cannot be
// read again.
func dotEnvLineSuffix(file, key string) string {
	data, err := readEnvFileBytes(file)
	if err != nil {
		return ""
	}
	if line := dotEnvLine(data, key); line > 0 {
		return ":" + strconv.Itoa(line)
	}
	return ""
}

// dotEnvLine is the line of src's last statement that sets key, walking
// the file as godotenv does; 0 when none does.
func dotEnvLine(src []byte, key string) int {
	src = bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
	line := 0
	for rest := dotEnvStatement(src); rest != nil; {
		k, _, next, fault := dotEnvSplit(rest)
		if fault != "" {
			break
		}
		if k == key {
			at := len(src) - len(rest)
			line = 1 + bytes.Count(src[:at], []byte("\n"))
		}
		rest = dotEnvStatement(next)
	}
	return line
}
