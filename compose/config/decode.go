package config

import (
	"errors"
	"reflect"
	"slices"
	"sort"
	"strings"

	frameworks "github.com/procsdev/procs/builtin-frameworks"
	"github.com/procsdev/procs/rules"
)

// The keys each mapping of the format accepts, read from the json tags of
// the types the JSON Schema is generated from, so the decoder and the schema
// cannot disagree on a key.
var (
	topKeys         = jsonKeys[Config]()
	procKeys        = jsonKeys[Proc]()
	dependencyKeys  = jsonKeys[Dependency]()
	restartKeys     = jsonKeys[RestartPolicy]()
	healthcheckKeys = jsonKeys[Healthcheck]()
	shutdownKeys    = jsonKeys[Shutdown]()
	autoRespondKeys = jsonKeys[AutoRespond]()
	onIdleKeys      = jsonKeys[OnIdle]()
	agentKeys       = jsonKeys[Agent]()
	argKeys         = jsonKeys[Arg]()
	// ptyKeys are the keys of pty's mapping form; PTY's Go fields also say
	// whether it is on and whether it was set, so they are listed here.
	ptyKeys = []string{"cols", "rows"}
)

// jsonKeys lists the json names of T's fields, sorted, leaving out fields
// that are not part of the format (json:"-").
func jsonKeys[T any]() []string {
	var keys []string
	for field := range reflect.TypeFor[T]().Fields() {
		name, _, _ := strings.Cut(field.Tag.Get("json"), ",")
		if name != "" && name != "-" {
			keys = append(keys, name)
		}
	}
	sort.Strings(keys)
	return keys
}

// structKeys returns the keys accepted at path, or nil where any key goes
// (env, the procs map, dependsOn names).
func structKeys(path []string) []string {
	n := len(path)
	switch {
	case n == 0:
		return topKeys
	case n == 1 && path[0] == "ui":
		return uiKeys
	case n == 1 && path[0] == "logs":
		return logsKeys
	case n == 1 && path[0] == "resources":
		return resourcesKeys
	case path[0] != "procs" || n < 2:
		return nil
	case n == 2:
		return procKeys
	case n == 3:
		return map[string][]string{"restart": restartKeys, "healthcheck": healthcheckKeys, "shutdown": shutdownKeys, "pty": ptyKeys, "onIdle": onIdleKeys, "agent": agentKeys, "watch": watchKeys, "logs": logsKeys, "resources": resourcesKeys, "schedule": scheduleKeys}[path[2]]
	case n == 4 && path[2] == "dependsOn":
		return dependencyKeys
	case n == 4 && path[2] == "autoRespond":
		return autoRespondKeys
	case n == 4 && path[2] == "args":
		return argKeys
	}
	return nil
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// decoder turns the merged tree into typed values, reporting every value
// of the wrong type or out of range at its position.
type decoder struct {
	p *problems
	// declared lists every process name in the config, valid or not.
	declared []string
	// depPaths is the key path of each dependsOn entry, by [process, dependency].
	depPaths map[[2]string][]string
	// ruleDeps is what each process's ready rule reads of deps, by
	// process, for the validator to check against its dependsOn.
	ruleDeps map[string]rules.RuleDeps
	// rulePortOpen holds the processes whose ready rule reads port.open,
	// for the validator to check they have a port.
	rulePortOpen map[string]bool
}

// config decodes the whole merged tree.
func (d *decoder) config(raw map[string]any) *Config {
	cfg := &Config{Procs: map[string]*Proc{}}
	m, _ := d.mapping(nil, raw, topKeys)
	cfg.Schema = d.str([]string{"$schema"}, m["$schema"])
	cfg.Env = d.envVars([]string{"env"}, m["env"])
	cfg.EnvFile = d.str([]string{"envFile"}, m["envFile"])
	cfg.UI = d.ui(m["ui"])
	cfg.Logs = d.logs([]string{"logs"}, m["logs"])
	cfg.Resources = d.resources([]string{"resources"}, m["resources"])
	procsPath := []string{"procs"}
	procs, ok := d.mapping(procsPath, m["procs"], nil)
	if len(procs) == 0 {
		if ok || m["procs"] == nil {
			d.p.atKey(procsPath, "no processes: add at least one under procs:, e.g. web: {command: npm run dev}")
		}
		return cfg
	}
	// All of them before the first is decoded: an error in one may name another.
	d.declared = sortedKeys(procs)
	for _, name := range d.declared {
		switch {
		case !processName.MatchString(name):
			d.p.atKey(child(procsPath, name), "invalid process name %q: use letters, digits, _, . and -, starting with a letter or digit", name)
		case len(name) > processNameMax:
			d.p.atKey(child(procsPath, name), "process name is %d characters long: use at most %d (it names the process's log file)", len(name), processNameMax)
		}
		if p := d.proc(name, procs[name]); p != nil {
			cfg.Procs[name] = p
		}
	}
	return cfg
}

// missingCommand reports a process without a command. One that only a
// variable or flag names is a misspelling of a process, mostly: the error
// says so and which process was meant.
func (d *decoder) missingCommand(path []string) {
	if o := d.p.src.exact(path); o != nil && o.key.line == 0 && o.source != d.p.src.main {
		name := path[len(path)-1]
		others := slices.DeleteFunc(slices.Clone(d.declared), func(n string) bool { return n == name })
		d.p.atKey(path, "no process %q%s: %s adds a process only with its command", name, didYouMean(name, others), o.source)
		return
	}
	d.p.atKey(path, "missing command: add command: to say what to run")
}

// proc decodes one process.
func (d *decoder) proc(name string, v any) *Proc {
	path := []string{"procs", name}
	at := func(key string) []string { return child(path, key) }
	m, ok := d.mapping(path, v, procKeys)
	if !ok {
		if v == nil {
			d.p.atKey(path, "missing command: add command: to say what to run")
		}
		return nil
	}
	p := &Proc{Name: name}
	if m["command"] == nil {
		d.missingCommand(path)
	} else {
		p.Command = d.command(at("command"), m["command"])
	}
	p.Cwd = d.str(at("cwd"), m["cwd"])
	p.Env = d.envVars(at("env"), m["env"])
	p.EnvFile = d.str(at("envFile"), m["envFile"])
	p.Kind = Kind(d.word(at("kind"), m["kind"], []string{string(KindService), string(KindTask)}, "process kind"))
	p.Description = d.str(at("description"), m["description"])
	p.DependsOn = d.dependsOn(path, m["dependsOn"])
	p.Port = d.port(at("port"), m["port"])
	p.Framework = d.framework(at("framework"), m["framework"])
	p.ReadyPatterns = d.patterns(at("readyPatterns"), m["readyPatterns"])
	p.ErrorPatterns = d.patterns(at("errorPatterns"), m["errorPatterns"])
	p.NotReadyPatterns = d.patterns(at("notReadyPatterns"), m["notReadyPatterns"])
	p.Ready = d.readyRule(at("ready"), m["ready"])
	p.ReadyTimeout = d.duration(at("readyTimeout"), m["readyTimeout"])
	p.StabilityDelay = d.duration(at("stabilityDelay"), m["stabilityDelay"])
	p.Restart = d.restart(at("restart"), m["restart"])
	p.Healthcheck = d.healthcheck(at("healthcheck"), m["healthcheck"])
	p.Shutdown = d.shutdown(at("shutdown"), m["shutdown"])
	p.PTY = d.pty(at("pty"), m["pty"])
	p.AutoRespond = d.autoRespond(at("autoRespond"), m["autoRespond"])
	p.Interactive = d.optionalBool(at("interactive"), m["interactive"])
	p.BusyPatterns = d.patterns(at("busyPatterns"), m["busyPatterns"])
	p.QuestionPatterns = d.patterns(at("questionPatterns"), m["questionPatterns"])
	p.PermissionPatterns = d.patterns(at("permissionPatterns"), m["permissionPatterns"])
	p.RecoverablePatterns = d.patterns(at("recoverablePatterns"), m["recoverablePatterns"])
	p.OnIdle = d.onIdle(at("onIdle"), m["onIdle"])
	p.Agent = d.agent(at("agent"), m["agent"])
	p.CompleteWhen = d.str(at("completeWhen"), m["completeWhen"])
	p.Profiles = d.profiles(at("profiles"), m["profiles"])
	p.Disabled = d.boolean(at("disabled"), m["disabled"])
	p.Watch = d.watch(at("watch"), m["watch"])
	p.Logs = d.logs(at("logs"), m["logs"])
	p.Resources = d.resources(at("resources"), m["resources"])
	p.Replicas = d.replicas(at("replicas"), m["replicas"])
	d.taskArgs(at("args"), m["args"], p)
	p.Schedule = d.schedule(at("schedule"), m["schedule"], p)
	return p
}

// port reads a TCP port number.
func (d *decoder) port(path []string, v any) int {
	n, ok := d.integer(path, v, "a port")
	if ok && (n < 1 || n > 65535) {
		d.p.atValue(path, "%d is not a port: use a number from 1 to 65535", n)
		return 0
	}
	return n
}

// framework reads a preset name and checks that it exists.
func (d *decoder) framework(path []string, v any) string {
	name := d.str(path, v)
	if !frameworks.Known(name) {
		known := append(frameworks.Names(), "auto", "none")
		d.p.atValue(path, "unknown framework %q%s: run procs frameworks to list them, or use auto or none", name, didYouMean(name, known))
		return ""
	}
	return name
}

// readyRule checks that the ready expression compiles to a boolean.
func (d *decoder) readyRule(path []string, v any) string {
	src := d.str(path, v)
	if strings.TrimSpace(src) == "" {
		return src
	}
	rule, err := rules.CompileRule(src)
	var ruleErr *rules.RuleError
	switch {
	case err == nil:
		if d.ruleDeps == nil {
			d.ruleDeps = map[string]rules.RuleDeps{}
		}
		d.ruleDeps[path[1]] = rule.Deps()
		if rule.ReadsPortOpen() {
			if d.rulePortOpen == nil {
				d.rulePortOpen = map[string]bool{}
			}
			d.rulePortOpen[path[1]] = true
		}
	case errors.As(err, &ruleErr):
		d.p.errs = append(d.p.errs, d.ruleError(path, ruleErr))
	default:
		d.p.atValue(path, "invalid ready expression: %v", err)
	}
	return src
}

// ruleError places an error inside the ready expression in the file.
func (d *decoder) ruleError(path []string, re *rules.RuleError) *ConfigError {
	msg := strings.TrimSpace(re.Msg)
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	e := d.p.src.errorAt(path, false, "invalid ready expression: "+explainRuleMessage(msg))
	o := d.origin(path)
	if e.Line == 0 || o.text || re.Line < 1 || re.Column < 1 {
		return e
	}
	switch {
	case o.block:
		e.Line, e.Col = e.Line+re.Line, o.key.col+1+re.Column
	case re.Line == 1:
		e.Col += re.Column - 1
		if o.quoted {
			e.Col++
		}
	default:
		e.Line, e.Col = e.Line+re.Line-1, re.Column
	}
	if last := d.p.src.lines[o.source]; last > 0 && e.Line > last {
		e.Line, e.Col = last, 1
	}
	return e
}
