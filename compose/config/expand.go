package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/joho/godotenv"
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

// expander replaces ${VAR}, ${VAR:-default} and $$ in every string value.
// Variables come from the environment first, then the process's envFile,
// then the global envFile, as docker compose does with .env.
type expander struct {
	p       *problems
	environ map[string]string
	dir     string
}

// config expands the merged tree in place and checks the env files load.
func (ex *expander) config(raw map[string]any) {
	global := ex.envFile([]string{"envFile"}, raw["envFile"], chain(ex.environ))
	for key, v := range raw {
		if key != "procs" {
			raw[key] = ex.value([]string{key}, v, chain(ex.environ, global))
		}
	}
	procs, _ := raw["procs"].(map[string]any)
	for name, pv := range procs {
		path := []string{"procs", name}
		pm, ok := pv.(map[string]any)
		if !ok {
			procs[name] = ex.value(path, pv, chain(ex.environ, global))
			continue
		}
		own := ex.envFile(child(path, "envFile"), pm["envFile"], chain(ex.environ, global))
		procs[name] = ex.value(path, pm, chain(ex.environ, own, global))
	}
}

// envFile reads the dotenv file named by value, reporting a missing or
// malformed file; it returns nil when there is none to read.
func (ex *expander) envFile(path []string, value any, lookup lookupFunc) map[string]string {
	name, ok := value.(string)
	if !ok || strings.TrimSpace(name) == "" {
		return nil
	}
	name, err := expandString(name, lookup)
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
	vars, err := godotenv.Read(file)
	if err != nil {
		ex.p.atValue(path, "env file %s is not in dotenv format (KEY=value lines): %v", name, err)
		return nil
	}
	return vars
}

// value expands the strings in v, recursively, in place.
func (ex *expander) value(path []string, v any, lookup lookupFunc) any {
	switch t := v.(type) {
	case string:
		if !strings.Contains(t, "$") {
			return t
		}
		out, err := expandString(t, lookup)
		if err != nil {
			ex.p.atValue(path, "%v", err)
			return t
		}
		if strings.Contains(t, "${") {
			ex.markText(path)
		}
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

// markText lets an expanded value be converted like an environment
// variable, so port: ${PORT:-8080} is a number.
func (ex *expander) markText(path []string) {
	o := ex.p.src.find(path)
	marked := *o
	marked.text = true
	ex.p.src.set(path, &marked)
}

var varName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// expandString replaces ${VAR}, ${VAR:-default}, ${VAR-default},
// ${VAR:?message} and $$ in s. A $ before anything else stays as it is.
func expandString(s string, lookup lookupFunc) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
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
			b.WriteString(value)
			i += 2 + end
		default:
			b.WriteByte('$')
		}
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
