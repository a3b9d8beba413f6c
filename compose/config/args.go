package config

// The arguments of a task (args:): how they are declared, checked and
// decoded. Binding values to them for one run is argbind.go's.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/procsdev/procs/internal/lazyregexp"
)

// ArgType is the type of the value of a task argument.
type ArgType string

// The argument types, named as in JSON Schema.
const (
	ArgString  ArgType = "string"
	ArgInteger ArgType = "integer"
	ArgNumber  ArgType = "number"
	ArgBoolean ArgType = "boolean"
)

// argTypes are the words of args[].type.
var argTypes = []string{string(ArgString), string(ArgInteger), string(ArgNumber), string(ArgBoolean)}

// Arg is one argument a task takes. Its value reaches the command as the
// environment variable of its name upper-cased (filter: $FILTER) and,
// where the command writes {{args.filter}}, as that value quoted.
type Arg struct {
	Name        string  `json:"name" jsonschema:"pattern=^[a-z][a-z0-9_]*$" jsonschema_description:"The argument's name: lowercase letters, digits and _, starting with a letter. The command gets it as the environment variable of that name upper-cased (filter: $FILTER), and as one quoted word where it writes {{args.filter}}."`
	Type        ArgType `json:"type,omitempty" jsonschema:"enum=string,enum=integer,enum=number,enum=boolean,default=string" jsonschema_description:"What values it takes: a value of another type is refused before the task starts."`
	Description string  `json:"description,omitempty" jsonschema_description:"What the argument is for, for people and agents: the MCP tool of the task shows it in its input schema."`
	Required    bool    `json:"required,omitempty" jsonschema_description:"A run must give it (procs run NAME --arg name=VALUE); a task with a required argument needs disabled: true or profiles:, since procs up starts it without arguments."`
	Default     any     `json:"default,omitempty" jsonschema:"anyof_type=string;number;boolean" jsonschema_description:"The value when a run does not give one, of the argument's type. An argument neither given nor defaulted is empty."`
}

// EnvName is the environment variable the argument reaches the command
// as: its name upper-cased.
func (a Arg) EnvName() string { return strings.ToUpper(a.Name) }

// TypeOrString is the argument's type, string when unset.
func (a Arg) TypeOrString() ArgType {
	if a.Type == "" {
		return ArgString
	}
	return a.Type
}

// HasArgs reports whether the process declares arguments.
func (p *Proc) HasArgs() bool { return len(p.Args) > 0 }

// argName is what an argument may be called: it names a variable (upper-
// cased) and an MCP input property, so an identifier in one case.
var argName = lazyregexp.New(`^[a-z][a-z0-9_]*$`)

// argNameMax bounds an argument's name.
const argNameMax = 64

// reservedEnv are the variables an argument may not set: the shell's,
// the dynamic linker's and procs' own. The prefixes end with _.
var reservedEnv = []string{
	"BASH_ENV", "CDPATH", "ENV", "GLOBIGNORE", "HOME", "HOSTNAME", "IFS", "LANG", "LOGNAME", "OLDPWD",
	"PATH", "PORT", "PS4", "PWD", "SHELL", "SHELLOPTS", "TERM", "TMPDIR", "USER",
	"BASH_FUNC_", "DYLD_", "LC_", "LD_", "PROCS_",
}

// reservedBy returns the reserved variable (or prefix) that env is or
// starts with, "" when none.
func reservedBy(env string) string {
	for _, r := range reservedEnv {
		if env == r || strings.HasSuffix(r, "_") && strings.HasPrefix(env, r) {
			return r
		}
	}
	return ""
}

// taskArgs reads a task's args: into p, and checks that p's command names
// only arguments it declares. p's command, kind and env are decoded.
func (d *decoder) taskArgs(path []string, v any, p *Proc) {
	before := len(d.p.errs)
	p.Args = d.args(path, v, p)
	if len(d.p.errs) == before { // else a reference may name an argument refused above
		d.argRefs(child(path[:len(path)-1], "command"), p)
	}
}

// args reads the list of args:.
func (d *decoder) args(path []string, v any, p *Proc) []Arg {
	if v == nil {
		return nil
	}
	list, ok := v.([]any)
	if !ok {
		d.typeErr(path, "a list of {name, type, description, required, default}", v)
		return nil
	}
	if p.Kind != KindTask {
		d.p.atKey(path, "args are for tasks: add kind: task, or remove args (a service is not run with arguments)")
	}
	var out []Arg
	for i, item := range list {
		ip := index(path, i)
		m, ok := d.mapping(ip, item, argKeys)
		if !ok {
			if item == nil {
				d.typeErr(ip, "{name, type}", item)
			}
			continue
		}
		if a, ok := d.arg(ip, m, p, out); ok {
			out = append(out, a)
		}
	}
	return out
}

// arg reads one argument; earlier are the arguments before it.
func (d *decoder) arg(path []string, m map[string]any, p *Proc, earlier []Arg) (Arg, bool) {
	a := Arg{
		Name:        d.str(child(path, "name"), m["name"]),
		Type:        d.argType(child(path, "type"), m["type"]),
		Description: d.str(child(path, "description"), m["description"]),
		Required:    d.boolean(child(path, "required"), m["required"]),
	}
	if m["name"] == nil {
		d.p.atKey(path, "missing name: what the argument is called, e.g. name: filter")
		return a, false
	}
	if !d.argNameOK(child(path, "name"), a, p, earlier) {
		return a, false
	}
	if m["type"] != nil && a.Type == "" {
		return a, false // reported by word
	}
	if m["default"] != nil {
		a.Default = d.argDefault(child(path, "default"), a, m["default"])
		if a.Required {
			d.p.atKey(child(path, "required"), "argument %s is required and has a default: a default makes it optional; remove one", a.Name)
		}
	}
	return a, true
}

// argTypeAliases are the type names of other languages, and procs' own.
var argTypeAliases = map[string]ArgType{
	"int": ArgInteger, "int64": ArgInteger, "float": ArgNumber, "float64": ArgNumber, "double": ArgNumber,
	"decimal": ArgNumber, "bool": ArgBoolean, "str": ArgString, "text": ArgString,
}

// argType reads an argument's type.
func (d *decoder) argType(path []string, v any) ArgType {
	s := d.str(path, v)
	switch {
	case v == nil || slices.Contains(argTypes, s):
		return ArgType(s)
	case argTypeAliases[strings.ToLower(s)] != "":
		d.p.atValue(path, "%q is not an argument type: write %s (the types are string, integer, number, boolean)", s, argTypeAliases[strings.ToLower(s)])
	case s != "" || v == "":
		d.p.atValue(path, "%q is not an argument type%s: use %s", s, didYouMean(s, argTypes), strings.Join(argTypes, ", "))
	}
	return ""
}

// argNameOK checks an argument's name: an identifier, not taken by an
// earlier argument, setting no variable that is procs' or the shell's, nor
// one the process's env: sets.
func (d *decoder) argNameOK(path []string, a Arg, p *Proc, earlier []Arg) bool {
	env := a.EnvName()
	switch {
	case !argName.MatchString(a.Name):
		d.p.atValue(path, "invalid argument name %q: use lowercase letters, digits and _, starting with a letter, e.g. max_workers", a.Name)
	case len(a.Name) > argNameMax:
		d.p.atValue(path, "argument name is %d characters long: use at most %d", len(a.Name), argNameMax)
	case slices.ContainsFunc(earlier, func(e Arg) bool { return e.Name == a.Name }):
		d.p.atValue(path, "duplicate argument %q: each argument is declared once", a.Name)
	case reservedBy(env) != "":
		d.p.atValue(path, "argument %s would set $%s, which is %s: choose another name", a.Name, env, reservedWhat(reservedBy(env)))
	case p.Env[env] != "" || hasKey(p.Env, env):
		d.p.atValue(path, "argument %s sets $%s, which env: also sets: remove one (the argument's default can hold the value)", a.Name, env)
	default:
		return true
	}
	return false
}

// reservedWhat says whose a reserved variable is, for messages.
func reservedWhat(r string) string {
	switch {
	case r == "PORT" || r == "PROCS_":
		return "procs' own"
	case r == "LD_" || r == "DYLD_":
		return "the dynamic linker's"
	}
	return "the shell's or the system's"
}

func hasKey(m map[string]string, k string) bool { _, ok := m[k]; return ok }

// argDefault reads a default, which must be of the argument's type: a
// number written in quotes is not an integer, as for port:.
func (d *decoder) argDefault(path []string, a Arg, v any) any {
	text, ok := d.scalarText(path, v)
	_, quoted := v.(string)
	typ := a.TypeOrString()
	switch {
	case !ok:
		d.typeErr(path, "a "+string(typ), v)
		return nil
	case typ == ArgString:
		return text
	case quoted && !d.origin(path).text:
		d.p.atValue(path, "the default of %s must be %s, got string %q%s", a.Name, article(typ), text, unquoteHint(typ, text))
		return nil
	case typ == ArgBoolean && !quoted && !isBool(v):
		d.p.atValue(path, "the default of %s must be true or false, got %s", a.Name, d.describe(path, v))
		return nil
	}
	value, err := parseArgValue(typ, text)
	if err != nil {
		d.p.atValue(path, "the default of %s must be %s, got %s", a.Name, article(typ), d.describe(path, v))
		return nil
	}
	return value
}

// unquoteHint suggests writing a quoted value without quotes, when that
// is a value of the type.
func unquoteHint(typ ArgType, text string) string {
	if _, err := parseArgValue(typ, text); err == nil {
		return ": write " + text + " without quotes"
	}
	return ""
}

// article names a type with its article: "an integer", "a number".
func article(t ArgType) string {
	if t == ArgInteger {
		return "an integer"
	}
	return "a " + string(t)
}

// argRefs checks each {{args.NAME}} of p's command: NAME is declared and,
// in shell text, the reference is outside quotes (procs quotes the value
// itself; inside double quotes its quotes would be literal, and the shell
// would expand the $( ) they were meant to protect).
func (d *decoder) argRefs(path []string, p *Proc) {
	declared := make([]string, len(p.Args))
	for i, a := range p.Args {
		declared[i] = a.Name
	}
	for _, part := range commandParts(p.Command) {
		at := path
		if p.Command.Shell == "" {
			at = index(path, part.index)
		}
		d.braceExpansions(at, p)
		for _, ref := range argRefsIn(part.text) {
			switch {
			case len(declared) == 0:
				d.atOffset(at, part.text, ref.start, "%s names argument %q, but %s declares no args: add args: [{name: %s}] (and kind: task)", ref.text, ref.name, p.Name, ref.name)
			case !slices.Contains(declared, ref.name):
				d.atOffset(at, part.text, ref.start, "%s names an unknown argument %q%s: %s takes %s", ref.text, ref.name, didYouMean(ref.name, declared), p.Name, strings.Join(declared, ", "))
			case part.shell && ref.quoted:
				d.atOffset(at, part.text, ref.start, "%s is inside quotes: write it bare, procs quotes the value itself (inside double quotes the shell would still expand $( ) in it)", ref.text)
			}
		}
	}
}

// argsStartable checks that no task with a required argument is started
// without arguments: procs up starts a task unless it is disabled or has
// profiles, and a dependent starts its dependencies.
func (v *validator) argsStartable() {
	for _, name := range v.cfg.Names() {
		p := v.cfg.Procs[name]
		if i := requiredArg(p); i >= 0 && !p.Disabled && len(p.Profiles) == 0 {
			v.p.atValue(child(index([]string{"procs", name, "args"}, i), "required"),
				"procs up would start %s without arguments, and %s is required: add disabled: true to %s (procs run still runs it), or give %s a default instead",
				name, p.Args[i].Name, name, p.Args[i].Name)
		}
		for _, dep := range p.DependsOn {
			if target := v.cfg.Procs[dep.Name]; target != nil && requiredArg(target) >= 0 {
				v.p.atKey(v.d.depPaths[[2]string{name, dep.Name}],
					"%s depends on %s, whose argument %s is required: a dependency is started without arguments; give %s a default, or remove this entry",
					name, dep.Name, target.Args[requiredArg(target)].Name, target.Args[requiredArg(target)].Name)
			}
		}
	}
}

// requiredArg returns the index of p's first required argument, -1 when
// it has none.
func requiredArg(p *Proc) int {
	return slices.IndexFunc(p.Args, func(a Arg) bool { return a.Required && a.Default == nil })
}

// atOffset reports a problem at byte offset of the string value at path,
// whose text is text: at its own column when the value is written on one
// line as it reads (plain, or quoted with nothing before the offset that
// may be an escape), else at the value.
func (d *decoder) atOffset(path []string, text string, offset int, format string, args ...any) {
	e := d.p.src.errorAt(path, false, fmt.Sprintf(format, args...))
	o := d.origin(path)
	before := text[:offset]
	escapes := "\n"
	if o != nil && o.quoted {
		escapes = "\n\\'\"" // a quoted scalar may write one character as two
	}
	if e.Line > 0 && o != nil && !o.text && !o.block && !strings.ContainsAny(before, escapes) {
		e.Col += len([]rune(before))
		if o.quoted {
			e.Col++
		}
	}
	d.p.errs = append(d.p.errs, e)
}

// braceExpansions refuses ${NAME} in the command text at path when NAME is
// an argument's variable: procs expands ${...} when it loads procs.yaml,
// from the environment it runs in, so the run would never see the
// argument there. Only text written on one line can be checked (a block
// scalar's is not kept).
func (d *decoder) braceExpansions(path []string, p *Proc) {
	o := d.origin(path)
	if o == nil || o.raw == "" {
		return
	}
	for _, a := range p.Args {
		for i := strings.Index(o.raw, "${"+a.EnvName()); i >= 0; i = nextIndex(o.raw, "${"+a.EnvName(), i) {
			end := i + 2 + len(a.EnvName())
			if (i > 0 && o.raw[i-1] == '$') || end >= len(o.raw) || !strings.ContainsRune("}:-", rune(o.raw[end])) {
				continue // $${NAME} is the shell's; ${NAMES} is another variable
			}
			d.p.atValue(path, "${%s} is expanded by procs when it loads procs.yaml, not by the run: the argument %s is not in it; write \"$%s\" or {{args.%s}}",
				a.EnvName(), a.Name, a.EnvName(), a.Name)
			break
		}
	}
}

// nextIndex is the index of sub in s after the one at i, or -1.
func nextIndex(s, sub string, i int) int {
	j := strings.Index(s[i+1:], sub)
	if j < 0 {
		return -1
	}
	return i + 1 + j
}
