package config

// Binding the values of one run to a task's args: checking them, filling
// defaults, and giving them to the command as variables and quoted words.

import (
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/procsdev/procs/internal/lazyregexp"
)

// ArgError is a run asked with arguments its task does not accept: an
// unknown one, a missing required one, a value of the wrong type. Nothing
// has started when it is returned.
type ArgError struct {
	// Task is the task that was asked to run.
	Task string
	// Problems says what is wrong, one entry per argument.
	Problems []string
}

// Error says every problem, and what the task takes.
func (e *ArgError) Error() string {
	return fmt.Sprintf("run %s: %s", e.Task, strings.Join(e.Problems, "; "))
}

// BoundArgs are the values of a task's arguments for one run, checked and
// with defaults filled. The zero value binds nothing.
type BoundArgs struct {
	args   []Arg
	values map[string]string
}

// BindArgs checks values (name → text, as --arg name=text gives them)
// against p's args and fills the defaults. A process without args takes
// none; the error is an *ArgError naming every problem.
func (p *Proc) BindArgs(values map[string]string) (BoundArgs, error) {
	var problems []string
	declared := make([]string, len(p.Args))
	for i, a := range p.Args {
		declared[i] = a.Name
	}
	for _, name := range slices.Sorted(maps.Keys(values)) {
		if slices.Contains(declared, name) {
			continue
		}
		if len(declared) == 0 {
			problems = append(problems, fmt.Sprintf("%s takes no arguments (got %s)", p.Name, name))
			continue
		}
		problems = append(problems, fmt.Sprintf("unknown argument %q%s: %s takes %s", name, didYouMean(name, declared), p.Name, describeArgs(p.Args)))
	}
	bound := BoundArgs{args: p.Args, values: make(map[string]string, len(p.Args))}
	for _, a := range p.Args {
		text, given := values[a.Name]
		switch {
		case given:
			value, err := parseArgValue(a.TypeOrString(), text)
			if err != nil {
				problems = append(problems, fmt.Sprintf("argument %s must be %s, got %q", a.Name, article(a.TypeOrString()), text))
				continue
			}
			bound.values[a.Name] = formatArgValue(value)
		case a.Default != nil:
			bound.values[a.Name] = formatArgValue(a.Default)
		case a.Required:
			problems = append(problems, fmt.Sprintf("missing required argument %s (%s): give it a value, e.g. procs run %s --arg %s=VALUE", a.Name, a.TypeOrString(), p.Name, a.Name))
		default:
			bound.values[a.Name] = ""
		}
	}
	if len(problems) > 0 {
		return BoundArgs{}, &ArgError{Task: p.Name, Problems: problems}
	}
	return bound, nil
}

// describeArgs lists arguments as "filter (string, required), count (integer)".
func describeArgs(args []Arg) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = fmt.Sprintf("%s (%s", a.Name, a.TypeOrString())
		if a.Required {
			parts[i] += ", required"
		}
		parts[i] += ")"
	}
	return strings.Join(parts, ", ")
}

// parseArgValue reads text as a value of typ: a string as is, an int64, a
// finite float64, a bool (true, false, 1, 0 and the like).
func parseArgValue(typ ArgType, text string) (any, error) {
	trimmed := strings.TrimSpace(text)
	switch typ {
	case ArgInteger:
		return strconv.ParseInt(trimmed, 10, 64)
	case ArgNumber:
		f, err := strconv.ParseFloat(trimmed, 64)
		if err == nil && (math.IsInf(f, 0) || math.IsNaN(f) || strings.ContainsAny(trimmed, "xX_")) {
			err = fmt.Errorf("%q is not a decimal number", text)
		}
		return f, err
	case ArgBoolean:
		return strconv.ParseBool(trimmed)
	}
	return text, nil
}

// formatArgValue is the text a command gets for a value: integers and
// numbers in decimal, booleans as true or false.
func formatArgValue(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case int64:
		return strconv.FormatInt(t, 10)
	case int:
		return strconv.Itoa(t)
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(t)
	}
	return fmt.Sprint(v)
}

// Values returns the value of each argument, by name ("" for one neither
// given nor defaulted).
func (b BoundArgs) Values() map[string]string {
	out := make(map[string]string, len(b.values))
	for k, v := range b.values {
		out[k] = v
	}
	return out
}

// Environ returns NAME=value for each argument, in declaration order, for
// the environment of the run.
func (b BoundArgs) Environ() []string {
	env := make([]string, 0, len(b.args))
	for _, a := range b.args {
		env = append(env, a.EnvName()+"="+b.values[a.Name])
	}
	return env
}

// Command returns c with each {{args.NAME}} replaced by NAME's value: in
// shell text (a string command, or the script of a list command such as
// [sh, -c, SCRIPT]) as one single-quoted word, elsewhere in a list as
// literal text of its element. So no value, whatever it holds (quotes, ;,
// $( ), backticks), is ever read as shell syntax.
func (b BoundArgs) Command(c Command) Command {
	if len(b.args) == 0 {
		return c
	}
	if c.Shell != "" {
		return Command{Shell: b.substitute(c.Shell, true)}
	}
	argv := slices.Clone(c.Argv)
	for _, part := range commandParts(c) {
		argv[part.index] = b.substitute(part.text, part.shell)
	}
	return Command{Argv: argv}
}

// substitute replaces the references of text, quoting them for a shell.
func (b BoundArgs) substitute(text string, shell bool) string {
	refs := argRefsIn(text)
	if len(refs) == 0 {
		return text
	}
	var out strings.Builder
	last := 0
	for _, ref := range refs {
		out.WriteString(text[last:ref.start])
		value := b.values[ref.name]
		if shell {
			value = ShellQuote(value)
		}
		out.WriteString(value)
		last = ref.end
	}
	out.WriteString(text[last:])
	return out.String()
}

// ShellQuote returns s as one sh word: in single quotes, each single quote
// of s ending the quoting, escaped, and quoting again. Nothing inside
// single quotes is special to the shell.
func ShellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// argRef is one {{args.NAME}} of a command text.
type argRef struct {
	start, end int
	// text is the reference as written; name is what it names.
	text, name string
	// quoted says it is inside single or double quotes, as a shell reads it.
	quoted bool
}

// argRefPattern matches {{args.NAME}}, with optional spaces inside the braces.
var argRefPattern = lazyregexp.New(`\{\{\s*args\.([^{}\s]*)\s*\}\}`)

// argRefsIn returns the references of text in order, each saying whether
// a shell would read it inside quotes.
func argRefsIn(text string) []argRef {
	matches := argRefPattern.Regexp().FindAllStringSubmatchIndex(text, -1)
	if len(matches) == 0 {
		return nil
	}
	refs := make([]argRef, len(matches))
	var quote byte
	pos := 0
	for i, m := range matches {
		quote = scanQuotes(text[pos:m[0]], quote)
		pos = m[1]
		refs[i] = argRef{start: m[0], end: m[1], text: text[m[0]:m[1]], name: text[m[2]:m[3]], quoted: quote != 0}
	}
	return refs
}

// scanQuotes returns the quote a shell is inside after reading text,
// starting inside quote (0: none).
func scanQuotes(text string, quote byte) byte {
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			}
		case quote == '"':
			if c == '"' {
				quote = 0
			} else if c == '\\' {
				i++
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '\\':
			i++
		}
	}
	return quote
}

// commandPart is one text of a command that may hold references.
type commandPart struct {
	// index is the element of a list command (0 for a string command).
	index int
	text  string
	// shell says a shell reads the text as a script.
	shell bool
}

// shellNames are the programs whose -c argument is a script.
var shellNames = []string{"sh", "bash", "dash", "zsh", "ksh", "ash", "mksh"}

// commandParts returns the texts of c: a string command is one shell
// script; each element of a list is literal text, except the script
// after -c (or a cluster holding c, such as -ec) of a shell.
func commandParts(c Command) []commandPart {
	if c.Shell != "" {
		return []commandPart{{text: c.Shell, shell: true}}
	}
	parts := make([]commandPart, len(c.Argv))
	isShell := len(c.Argv) > 0 && slices.Contains(shellNames, filepath.Base(c.Argv[0]))
	for i, text := range c.Argv {
		parts[i] = commandPart{index: i, text: text}
		if isShell && i > 1 && shortFlagsWithC(c.Argv[i-1]) {
			parts[i].shell = true
		}
	}
	return parts
}

// shortFlagsWithC reports whether arg is a cluster of short options that
// holds c (-c, -ec, -xc).
func shortFlagsWithC(arg string) bool {
	if len(arg) < 2 || arg[0] != '-' || arg[1] == '-' {
		return false
	}
	for _, r := range arg[1:] {
		if (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') {
			return false
		}
	}
	return strings.ContainsRune(arg[1:], 'c')
}
