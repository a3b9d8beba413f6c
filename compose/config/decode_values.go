package config

// The value decoders of decoder: each reads one value of the merged tree as
// a type (string, integer, duration, regex, command...), reporting a value of
// the wrong type or out of range at its position.

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/procsdev/procs/internal/lazyregexp"
)

// origin is where the value at path came from.
func (d *decoder) origin(path []string) *origin { return d.p.src.find(path) }

// describe names a value's type for "expected X, got Y" messages.
func (d *decoder) describe(path []string, v any) string {
	switch t := v.(type) {
	case nil:
		return "nothing"
	case string:
		return fmt.Sprintf("string %q", t)
	case bool:
		return fmt.Sprintf("boolean %v", t)
	case map[string]any:
		return "a mapping"
	case []any:
		return "a list"
	}
	if text, ok := d.scalarText(path, v); ok {
		return "number " + text
	}
	return fmt.Sprintf("a %T", v)
}

// scalarText is a scalar as the user wrote it.
func (d *decoder) scalarText(path []string, v any) (string, bool) {
	switch t := v.(type) {
	case string:
		return t, true
	case bool:
		return strconv.FormatBool(t), true
	case int, int64, uint64, float64:
		if o := d.p.src.exact(path); o != nil && o.raw != "" && !o.quoted {
			return o.raw, true
		}
		if f, ok := t.(float64); ok {
			return strconv.FormatFloat(f, 'g', -1, 64), true
		}
		return fmt.Sprint(t), true
	}
	return "", false
}

func (d *decoder) typeErr(path []string, want string, v any) {
	d.p.atValue(path, "expected %s, got %s", want, d.describe(path, v))
}

func (d *decoder) str(path []string, v any) string {
	switch t := v.(type) {
	case nil:
		return ""
	case string:
		return t
	}
	d.typeErr(path, "a string", v)
	return ""
}

// integer reads a whole number; what names it in messages ("a port").
func (d *decoder) integer(path []string, v any, what string) (int, bool) {
	switch t := v.(type) {
	case nil:
		return 0, false
	case int:
		return t, true
	case int64:
		if t >= math.MinInt && t <= math.MaxInt {
			return int(t), true
		}
	case float64:
		d.p.atValue(path, "expected a whole number, got %s", d.describe(path, v))
		return 0, false
	case string:
		return d.integerText(path, t, what)
	case bool, map[string]any, []any:
		d.typeErr(path, "a number", v)
		return 0, false
	}
	d.p.atValue(path, "%s is too large to be %s", d.describe(path, v), what)
	return 0, false
}

// integerText converts text from a variable or flag, and explains a
// number written as a string in a file.
func (d *decoder) integerText(path []string, s, what string) (int, bool) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	switch {
	case d.origin(path).text && err == nil:
		return n, true
	case d.origin(path).text:
		d.p.atValue(path, "%q is not %s", s, what)
	case err == nil:
		d.p.atValue(path, "expected a number, got string %q: write %d without quotes", s, n)
	default:
		d.p.atValue(path, "expected a number, got string %q", s)
	}
	return 0, false
}

// count reads a number that must not be negative.
func (d *decoder) count(path []string, v any) int {
	n, ok := d.integer(path, v, "a number")
	if ok && n < 0 {
		d.p.atValue(path, "%d is negative: use 0 or more", n)
		return 0
	}
	return n
}

func (d *decoder) boolean(path []string, v any) bool {
	switch t := v.(type) {
	case nil:
		return false
	case bool:
		return t
	case string:
		if d.origin(path).text {
			b, err := strconv.ParseBool(strings.TrimSpace(t))
			if err != nil {
				d.p.atValue(path, "%q is not true or false", t)
			}
			return b
		}
	}
	d.typeErr(path, "true or false", v)
	return false
}

// duration reads a Go duration such as 300ms or 1m30s.
func (d *decoder) duration(path []string, v any) Duration {
	if v == nil {
		return 0
	}
	text, ok := d.scalarText(path, v)
	if !ok || isBool(v) {
		d.typeErr(path, "a duration (e.g. 30s)", v)
		return 0
	}
	parsed, err := parseDuration(text)
	if err != nil {
		d.p.atValue(path, "%q %v", text, err)
		return 0
	}
	return Duration(parsed)
}

func isBool(v any) bool { _, ok := v.(bool); return ok }

// mapping reads a mapping and reports keys not in known (unless known is nil).
func (d *decoder) mapping(path []string, v any, known []string) (map[string]any, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		if v != nil {
			d.typeErr(path, "a mapping (key: value lines)", v)
		}
		return nil, false
	}
	if known != nil {
		for _, key := range sortedKeys(m) {
			if !slices.Contains(known, key) && !isExtension(path, key) {
				d.p.atKey(child(path, key), "unknown key %q%s", key, didYouMean(key, known))
			}
		}
	}
	return m, true
}

// isExtension reports whether key is an extension field, ignored by procs:
// an x- key at the top level or in a process, as in the Compose
// specification, so YAML anchors can hold shared settings
// (x-service: &service {…}, then <<: *service).
func isExtension(path []string, key string) bool {
	return strings.HasPrefix(key, "x-") && (len(path) == 0 || len(path) == 2 && path[0] == "procs")
}

// stringList reads a list of strings; a variable or flag may give one string.
func (d *decoder) stringList(path []string, v any) []string {
	switch t := v.(type) {
	case nil:
		return nil
	case string:
		if d.origin(path).text {
			return []string{t}
		}
	case []any:
		out := make([]string, 0, len(t))
		for i, item := range t {
			if s, ok := item.(string); ok {
				out = append(out, s)
			} else {
				d.typeErr(index(path, i), "a string", item)
			}
		}
		return out
	}
	if text, ok := v.(string); ok {
		// One item written bare, as a single ready line or profile often is.
		d.p.atValue(path, "expected a list of strings, got %s: write %s: [%s]", d.describe(path, v), path[len(path)-1], quoteForList(text))
		return nil
	}
	d.typeErr(path, "a list of strings", v)
	return nil
}

// quoteForList writes text as an item of a YAML flow list: bare where
// YAML surely reads it back as the same string (a word or a few), else
// double-quoted (Go's escapes are YAML's for what a pattern holds).
func quoteForList(text string) string {
	if plainWords.MatchString(text) && !slices.Contains(yamlWords, strings.ToLower(text)) {
		return text
	}
	return strconv.Quote(text)
}

var plainWords = lazyregexp.New(`^[A-Za-z][A-Za-z0-9_./-]*( [A-Za-z0-9_./-]+)*$`)

// yamlWords are the plain words some YAML readers take for a boolean or null.
var yamlWords = []string{"true", "false", "null", "yes", "no", "on", "off", "y", "n"}

// patterns reads a list of RE2 regexes and checks that each compiles.
func (d *decoder) patterns(path []string, v any) []string {
	list := d.stringList(path, v)
	for i, re := range list {
		d.regex(index(path, i), re)
	}
	return list
}

// regex checks that re compiles as an RE2 regex.
func (d *decoder) regex(path []string, re string) {
	_, err := regexp.Compile(re)
	var syntaxErr *syntax.Error
	switch {
	case errors.As(err, &syntaxErr):
		d.p.atValue(path, "invalid regex %q: %s (RE2 syntax)", re, syntaxErr.Code)
	case err != nil:
		d.p.atValue(path, "invalid regex %q: %v", re, err)
	}
}

// word reads one of a fixed set of words.
func (d *decoder) word(path []string, v any, allowed []string, what string) string {
	s := d.str(path, v)
	if s == "" && v == nil {
		return ""
	}
	if !slices.Contains(allowed, s) {
		d.p.atValue(path, "%q is not a %s%s: use %s", s, what, didYouMean(s, allowed), strings.Join(allowed, ", "))
		return ""
	}
	return s
}

var envName = lazyregexp.New(`^[A-Za-z_][A-Za-z0-9_]*$`)

// envVars reads an env mapping; numbers and booleans become strings.
func (d *decoder) envVars(path []string, v any) map[string]string {
	if list, ok := v.([]any); ok && len(list) > 0 {
		// docker compose's other form: - NAME=value.
		if item, ok := list[0].(string); ok {
			if name, value, found := strings.Cut(item, "="); found && envName.MatchString(name) {
				d.p.atValue(path, "expected a mapping (key: value lines), got a list: write each variable as NAME: value, e.g. %s: %s", name, strconv.Quote(value))
				return nil
			}
		}
	}
	m, ok := d.mapping(path, v, nil)
	if !ok {
		return nil
	}
	out := make(map[string]string, len(m))
	for _, key := range sortedKeys(m) {
		kp := child(path, key)
		if !envName.MatchString(key) {
			d.p.atKey(kp, "invalid variable name %q: use letters, digits and _, not starting with a digit", key)
		}
		if m[key] == nil {
			out[key] = ""
		} else if text, ok := d.scalarText(kp, m[key]); ok {
			out[key] = text
		} else {
			d.typeErr(kp, "a string", m[key])
		}
	}
	return out
}

// command reads a shell string or an argv list.
func (d *decoder) command(path []string, v any) Command {
	switch t := v.(type) {
	case string:
		if strings.TrimSpace(t) == "" {
			d.p.atValue(path, "command is empty: write what to run")
		}
		return Command{Shell: t}
	case []any:
		if len(t) == 0 {
			d.p.atValue(path, "command list is empty: write the program and its arguments")
			return Command{}
		}
		argv := make([]string, 0, len(t))
		for i, item := range t {
			text, ok := d.scalarText(index(path, i), item)
			if !ok {
				d.typeErr(index(path, i), "a string", item)
			}
			argv = append(argv, text)
		}
		if strings.TrimSpace(argv[0]) == "" {
			d.p.atValue(index(path, 0), "the program name is empty")
		}
		return Command{Argv: argv}
	}
	d.typeErr(path, "a string or a list of strings", v)
	return Command{}
}

// parseDuration parses a Go duration that must not be negative.
func parseDuration(text string) (time.Duration, error) {
	text = strings.TrimSpace(text)
	parsed, err := time.ParseDuration(text)
	if err != nil {
		if _, err := strconv.ParseFloat(text, 64); err == nil {
			// A number without a unit, as other tools take seconds.
			return 0, fmt.Errorf("is not a duration: give it a unit, e.g. %ss", text)
		}
		return 0, errors.New("is not a duration (e.g. 30s)")
	}
	if parsed < 0 {
		return 0, errors.New("is negative: use a positive duration")
	}
	return parsed, nil
}

var processName = lazyregexp.New(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`)

// processNameMax bounds a process name: it names the process's log file,
// NAME.log.N, within the 255 bytes a file name may have, and a name of a
// hundred characters is already more than anyone reads in a table.
const processNameMax = 100
