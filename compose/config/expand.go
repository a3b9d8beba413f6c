package config

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/joho/godotenv"

	"github.com/procsdev/procs/internal/lazyregexp"
)

// lookupFunc finds the value of a variable for ${VAR} expansion.
type lookupFunc func(name string) (string, bool)

// chain looks a name up in each map in turn: the first that has it wins.
func chain(maps ...map[string]string) lookupFunc {
	return func(name string) (string, bool) {
		for _, m := range maps {
			if v, ok := m[name]; ok {
				return v, true
			}
		}
		return "", false
	}
}

// or looks a name up in l, then, if l has no value for it, in next.
func (l lookupFunc) or(next lookupFunc) lookupFunc {
	return func(name string) (string, bool) {
		if v, ok := l(name); ok {
			return v, true
		}
		return next(name)
	}
}

// expander replaces ${VAR}, ${VAR:-default} and $$ in every string value.
// A process's values see, first to last: its own env:, the global env:, the
// environment procs runs in, its envFile, the global envFile, then the .env
// file beside procs.yaml. So `echo ${GREETING}` sees `env: {GREETING: hi}`,
// and, as with docker compose, the shell's environment beats env files.
type expander struct {
	p       *problems
	environ map[string]string
	dir     string
	// dotEnv is the .env file beside procs.yaml, "" when there is none.
	dotEnv string
	// unset records each ${VAR} that had no value and no default, by name,
	// for the warnings of procs check.
	unset map[string][]string
	// spent is the bytes of expanded values so far, up to maxExpandedTotal.
	spent int
	// bashOnly are the commands of shell commands that sh may not have.
	bashOnly []bashOnlyCommand
	// unquoted are the ${VAR} of shell commands that the shell would
	// split, for the warnings of procs check (shellquote.go).
	unquoted []unquotedVar
	// portReaders is, by process, the first value other than a shell
	// command that read ${PORT} as the process's port: an instance of the
	// process, scaled, would read the first instance's port there.
	portReaders map[string]*ConfigError
	// reads are the variables each value read, by its path as shown;
	// files the dotenv files read, by the key that names them
	// (varorigin.go).
	reads map[string][]varRead
	files map[string]envFileRead
}

// warnings turns the unset variables into warnings at the values that use
// them, for procs check: an empty value is allowed, but often a typo.
func (ex *expander) warnings() ConfigErrors {
	var out ConfigErrors
	for name, paths := range ex.unset {
		for _, key := range paths {
			path := strings.Split(key, "\x00")
			out = append(out, ex.p.src.errorAt(path, false, fmt.Sprintf(
				"${%s} is not set, so it expands to nothing: %s (or $${%s} for the shell to expand)", name, howToSet(name), name)))
		}
	}
	out = append(out, ex.unquotedWarnings()...)
	out = append(out, ex.bashOnlyWarnings()...)
	sortErrors(out)
	return out
}

// howToSet says how to give the variable name a value.
func howToSet(name string) string {
	return fmt.Sprintf("set it in the environment, env: or .env, or write ${%s:-default}", name)
}

// defaultEnvFile is the dotenv file loaded, when present, from the folder of
// procs.yaml, as docker compose, process-compose and overmind do.
const defaultEnvFile = ".env"

// config expands the merged tree in place and checks the env files load.
func (ex *expander) config(raw map[string]any) {
	dotEnv := ex.loadDotEnv(raw["envFile"])
	global := ex.envFile([]string{"envFile"}, raw["envFile"], chain(ex.environ, dotEnv))
	base := chain(ex.environ, global, dotEnv)
	raw["env"] = ex.value([]string{"env"}, raw["env"], base)
	globalEnv := stringValues(raw["env"])
	for key, v := range raw {
		if key != "procs" && key != "env" {
			raw[key] = ex.value([]string{key}, v, chain(globalEnv, ex.environ, global, dotEnv))
		}
	}
	procs, _ := raw["procs"].(map[string]any)
	for name, pv := range procs {
		path := []string{"procs", name}
		pm, ok := pv.(map[string]any)
		if !ok {
			procs[name] = ex.value(path, pv, chain(globalEnv, ex.environ, global, dotEnv))
			continue
		}
		own := ex.envFile(child(path, "envFile"), pm["envFile"], chain(globalEnv, ex.environ, global, dotEnv))
		// ${PROCS_REPLICA} is each instance's number, which only
		// expandReplicas knows: it becomes {{.Replica}} here.
		files := []map[string]string{replicaNumber, ex.environ, own, global, dotEnv}
		ex.process(path, pm, globalEnv, files)
	}
}

// process expands the values of the process at path, in place. env: is
// expanded first, since the other values see it, and once: a value it
// gives ($${HOME} written for a literal ${HOME}) is not expanded again.
// port: is next, and in the values after it ${PORT} is the process's
// port (ownPort).
func (ex *expander) process(path []string, pm map[string]any, globalEnv map[string]string, files []map[string]string) {
	base := chain(append([]map[string]string{globalEnv}, files...)...)
	own := processPort{name: path[1]}
	own.port, own.has = ex.portOf(path, pm, base)
	_, own.replicated = pm["replicas"]
	if env, ok := pm["env"]; ok {
		envPath := child(path, "env")
		pm["env"] = ex.value(envPath, env, ex.ownPort(envPath, env, own, base))
	}
	lookup := chain(append([]map[string]string{stringValues(pm["env"]), globalEnv}, files...)...)
	for key, v := range pm {
		if key == "env" || key == "port" {
			continue
		}
		keyPath := child(path, key)
		if hc, ok := v.(map[string]any); ok && key == "healthcheck" {
			// Its exec: may be a shell command, which has ${PORT} of
			// its own (ownPort): each of its values is looked at alone.
			for hk, hv := range hc {
				hcPath := child(keyPath, hk)
				hc[hk] = ex.value(hcPath, hv, ex.ownPort(hcPath, hv, own, lookup))
			}
			continue
		}
		pm[key] = ex.value(keyPath, v, ex.ownPort(keyPath, v, own, lookup))
	}
}

// processPort is what ${PORT} is in the values of the process name: its
// port, as text, when it has one (has), and whether it is replicated,
// each instance having its own.
type processPort struct {
	name            string
	port            string
	has, replicated bool
}

// portOf expands the process's port: in place and returns it as text;
// hasPort is false when the process has none. port: sees every variable
// but the process's own env: (which may read ${PORT}, this port).
func (ex *expander) portOf(path []string, pm map[string]any, lookup lookupFunc) (port string, hasPort bool) {
	v, ok := pm["port"]
	if !ok || v == nil {
		return "", false
	}
	pm["port"] = ex.value(child(path, "port"), v, lookup)
	return fmt.Sprint(pm["port"]), true
}

// ownPort is lookup, with ${PORT} the process's own port where it has
// one, as PORT in its environment is (procs sets it from port:, over
// env: and the shell's PORT): a shell's PORT=3000 or nothing would be a
// port the process does not listen on. In a shell command ${PORT} is left
// to the shell, which has each run's PORT: so every instance of a
// replicated or scaled process gets its own. Elsewhere it is the port;
// in a replicated process that would be the first instance's for all,
// so it is an error there.
func (ex *expander) ownPort(path []string, v any, own processPort, lookup lookupFunc) lookupFunc {
	switch {
	case !own.has:
		return lookup
	case isShellCommand(path):
		if _, ok := v.(string); ok {
			return chain(map[string]string{portVar: "${" + portVar + "}"}).or(lookup)
		}
	}
	readers := portReaders(path, v)
	if own.replicated {
		for _, at := range readers {
			ex.p.atValue(at, "%s", replicaPortAdvice(at))
		}
		return lookup
	}
	if len(readers) > 0 && ex.portReaders[own.name] == nil {
		ex.portReaders[own.name] = ex.p.src.errorAt(readers[0], false, "")
	}
	return chain(map[string]string{portVar: own.port}).or(lookup)
}

// replicaPortAdvice says why a replicated process's value at path may not
// read ${PORT}, and what to write instead.
func replicaPortAdvice(path []string) string {
	const why = "${PORT} is each instance's own port, and only a shell command expands it for each"
	if len(path) > 2 && path[2] == "healthcheck" {
		return why + ": write the healthcheck as one, healthcheck: {exec: 'curl -fsS http://127.0.0.1:${PORT}/health'}, which runs in each instance's environment"
	}
	return why + " (command:, or a healthcheck's exec:, as a string): use it there, or have the program read PORT from its environment"
}

// portVar is the variable procs sets to a process's port.
const portVar = "PORT"

// portReaders returns the path of each string of v, a value at path,
// that reads ${PORT}.
func portReaders(path []string, v any) [][]string {
	switch t := v.(type) {
	case string:
		if readsVar(t, portVar) {
			return [][]string{path}
		}
	case map[string]any:
		var out [][]string
		for _, k := range slices.Sorted(maps.Keys(t)) {
			out = append(out, portReaders(child(path, k), t[k])...)
		}
		return out
	case []any:
		var out [][]string
		for i, item := range t {
			out = append(out, portReaders(index(path, i), item)...)
		}
		return out
	}
	return nil
}

// readsVar reports whether s, expanded, would read the variable name.
func readsVar(s, name string) bool {
	reads := false
	_, _ = expandString(s, func(n string) (string, bool) {
		reads = reads || n == name
		return "", true
	}, maxExpandedValue)
	return reads
}

// replicaNumber stands in for ${PROCS_REPLICA} until each instance of a
// replicated process is given its number (replicas.go).
var replicaNumber = map[string]string{replicaVar: "{{.Replica}}"}

// loadDotEnv reads the .env file beside procs.yaml when there is one and
// envFile does not already name it.
func (ex *expander) loadDotEnv(envFile any) map[string]string {
	file := filepath.Join(ex.dir, defaultEnvFile)
	if name, ok := envFile.(string); ok && filepath.Join(ex.dir, name) == file {
		return nil
	}
	if info, err := os.Stat(file); err != nil || !info.Mode().IsRegular() {
		return nil
	}
	vars, err := readDotEnv(file)
	var sizeErr *envFileSizeError
	switch {
	case errors.As(err, &sizeErr):
		ex.p.atKey(nil, "%s is %v", file, err)
		return nil
	case ex.syntaxError(file, nil, err):
		return nil
	case err != nil:
		ex.p.atKey(nil, "%s is not in dotenv format (KEY=value lines): %v", file, err)
		return nil
	}
	ex.dotEnv = file
	ex.noteFile(nil, file, vars)
	return vars
}

// readDotEnv reads a dotenv file, refusing a NUL byte, which no process
// environment can carry: the process would never start.
func readDotEnv(file string) (map[string]string, error) {
	data, err := readEnvFileBytes(file)
	if err != nil {
		return nil, err
	}
	if _, err := dotEnvSizes(data); err != nil {
		return nil, err
	}
	vars, err := godotenv.UnmarshalBytes(data)
	if _, noName := vars[""]; err != nil || noName {
		if located := dotEnvSyntax(data); located != nil {
			return nil, located
		}
		if err != nil {
			return nil, err
		}
	}
	for k, v := range vars {
		if strings.ContainsRune(k, 0) || strings.ContainsRune(v, 0) {
			return nil, fmt.Errorf("variable %q holds a NUL byte, which no environment can carry", strings.ReplaceAll(k, "\x00", `\0`))
		}
	}
	return vars, nil
}

// syntaxError reports err at the env file's own line if it is a syntax
// error located there, and says whether it was: the fix is in that file,
// and procs.yaml's envFile: line, which names it, is not where to look.
// path is the key that names the file, nil for the .env read by default.
func (ex *expander) syntaxError(file string, path []string, err error) bool {
	var syntax *dotEnvSyntaxError
	if !errors.As(err, &syntax) {
		return false
	}
	ex.p.errs = append(ex.p.errs, &ConfigError{File: file, Line: syntax.Line, Col: syntax.Col, Path: showPath(path),
		Msg: "not in dotenv format (KEY=value lines): " + syntax.Fault})
	return true
}

// stringValues returns the scalar values of an env mapping as text.
func stringValues(v any) map[string]string {
	m, _ := v.(map[string]any)
	out := make(map[string]string, len(m))
	for k, val := range m {
		switch val.(type) {
		case map[string]any, []any, nil:
		default:
			out[k] = fmt.Sprint(val)
		}
	}
	return out
}

// envFile reads the dotenv file named by value, reporting a missing or
// malformed file; it returns nil when there is none to read.
func (ex *expander) envFile(path []string, value any, lookup lookupFunc) map[string]string {
	name, ok := value.(string)
	if !ok || strings.TrimSpace(name) == "" {
		return nil
	}
	name, err := expandString(name, lookup, maxExpandedValue)
	if err != nil {
		return nil // reported when the value itself is expanded
	}
	file := name
	if !filepath.IsAbs(file) {
		file = filepath.Join(ex.dir, file)
	}
	info, err := os.Stat(file)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		ex.p.atValue(path, "env file %s does not exist: create it or remove envFile", name)
		return nil
	case err != nil:
		ex.p.atValue(path, "cannot read env file %s: %v", name, err)
		return nil
	case !info.Mode().IsRegular():
		ex.p.atValue(path, "env file %s is not a regular file", name)
		return nil
	}
	vars, err := readDotEnv(file)
	var sizeErr *envFileSizeError
	switch {
	case errors.As(err, &sizeErr):
		ex.p.atValue(path, "env file %s is %v", name, err)
		return nil
	case ex.syntaxError(file, path, err):
		return nil
	case err != nil:
		ex.p.atValue(path, "env file %s is not in dotenv format (KEY=value lines): %v", name, err)
		return nil
	}
	ex.noteFile(path, file, vars)
	return vars
}

// value expands the strings in v, recursively, in place.
func (ex *expander) value(path []string, v any, lookup lookupFunc) any {
	switch t := v.(type) {
	case string:
		if isShellCommand(path) {
			ex.noteBashOnly(path, t)
		}
		limit, ok := ex.expandLimit()
		if !strings.Contains(t, "$") || !ok {
			return t
		}
		out, err := expandString(t, ex.noting(path, t, lookup), limit)
		if errors.Is(err, errExpandedTooLarge) {
			ex.tooLarge(path, limit)
			return t
		}
		if err != nil {
			ex.p.atValue(path, "%v", err)
			return t
		}
		if strings.Contains(t, "${") {
			ex.markText(path)
			if isShellCommand(path) {
				ex.noteUnquoted(path, t, lookup)
			}
		}
		ex.spent += len(out)
		return out
	case map[string]any:
		for k, item := range t {
			t[k] = ex.value(child(path, k), item, lookup)
		}
	case []any:
		for i, item := range t {
			t[i] = ex.value(index(path, i), item, lookup)
		}
	}
	return v
}

// noting wraps lookup to record the variables of path, written as ${NAME}
// with no default, that have no value.
func (ex *expander) noting(path []string, text string, lookup lookupFunc) lookupFunc {
	return func(name string) (string, bool) {
		v, ok := lookup(name)
		if ok {
			ex.noteRead(path, name, v)
		}
		if !ok && strings.Contains(text, "${"+name+"}") {
			if ex.unset == nil {
				ex.unset = map[string][]string{}
			}
			ex.unset[name] = append(ex.unset[name], pathKey(path))
		}
		return v, ok
	}
}

// markText lets an expanded value be converted like an environment
// variable, so port: ${PORT:-8080} is a number.
func (ex *expander) markText(path []string) {
	o := ex.p.src.find(path)
	marked := *o
	marked.text = true
	ex.p.src.set(path, &marked)
}

var varName = lazyregexp.New(`^[A-Za-z_][A-Za-z0-9_]*$`)

// expandString replaces ${VAR}, ${VAR:-default}, ${VAR-default},
// ${VAR:?message} and $$ in s. A $ before anything else stays as it is.
// A result longer than limit bytes is errExpandedTooLarge, found before
// it is built.
func expandString(s string, lookup lookupFunc, limit int) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if b.Len() > limit { // one literal byte past it
			return "", errExpandedTooLarge
		}
		if s[i] != '$' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		switch s[i+1] {
		case '$':
			b.WriteByte('$')
			i++
		case '{':
			end := strings.IndexByte(s[i+2:], '}')
			if end < 0 {
				return "", fmt.Errorf("unclosed \"${\" in %q: close it with }, or write $$ for a literal $", s)
			}
			value, err := expandVar(s[i+2:i+2+end], lookup)
			if err != nil {
				return "", err
			}
			if b.Len()+len(value) > limit {
				return "", errExpandedTooLarge
			}
			b.WriteString(value)
			i += 2 + end
		default:
			b.WriteByte('$')
		}
	}
	if b.Len() > limit {
		return "", errExpandedTooLarge
	}
	return b.String(), nil
}

// expandVar evaluates the inside of one ${...}.
func expandVar(inner string, lookup lookupFunc) (string, error) {
	name, op, arg := inner, "", ""
	if i := strings.IndexAny(inner, ":-"); i >= 0 {
		name, op = inner[:i], inner[i:]
		for _, candidate := range []string{":-", ":?", "-"} {
			if strings.HasPrefix(op, candidate) {
				op, arg = candidate, op[len(candidate):]
				break
			}
		}
	}
	if !varName.MatchString(name) {
		return "", fmt.Errorf("invalid variable %q in ${%s}: use ${NAME} or ${NAME:-default}, or $$ for a literal $", name, inner)
	}
	value, set := lookup(name)
	switch op {
	case "":
		return value, nil
	case ":-":
		if value == "" {
			return arg, nil
		}
	case "-":
		if !set {
			return arg, nil
		}
	case ":?":
		if value == "" {
			return "", fmt.Errorf("variable %s is required: %s", name, arg)
		}
	default:
		return "", fmt.Errorf("invalid ${%s}: use ${NAME}, ${NAME:-default} or ${NAME:?message}", inner)
	}
	return value, nil
}
