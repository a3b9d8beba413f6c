package config

import (
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/procsdev/procs/rules"
)

// defaultShutdownTimeout is how long a process gets to stop before SIGKILL.
const defaultShutdownTimeout = 10 * time.Second

// validator applies defaults and checks what spans several processes:
// dependencies, cycles, ports and folders.
type validator struct {
	p   *problems
	d   *decoder
	cfg *Config
	// declared lists every process name in the config, valid or not.
	declared []string
}

func (v *validator) run() {
	if v.cfg.EnvFile != "" {
		v.cfg.EnvFile = v.abs(v.cfg.EnvFile)
	}
	for _, name := range v.cfg.Names() {
		v.defaults(v.cfg.Procs[name])
	}
	v.dependencies()
	v.readyRuleDeps()
	v.readyRulePort()
	v.dependencyCycles()
	v.ports()
	v.argsStartable()
	v.onIdleTargets()
	v.screenPatternTargets()
}

func (v *validator) abs(path string) string {
	if filepath.IsAbs(path) {
		return filepath.Clean(path)
	}
	return filepath.Join(v.cfg.Dir, path)
}

// defaults fills the unset fields of p and makes its paths absolute.
func (v *validator) defaults(p *Proc) {
	if p.Kind == "" {
		p.Kind = KindService
	}
	if p.Framework == "" {
		p.Framework = "auto"
	}
	if p.Restart.Policy == "" {
		p.Restart.Policy = RestartNo
	}
	if p.Shutdown.Signal == "" {
		p.Shutdown.Signal = "SIGTERM"
	}
	if p.Shutdown.Timeout == 0 {
		p.Shutdown.Timeout = Duration(defaultShutdownTimeout)
	}
	if p.EnvFile != "" {
		p.EnvFile = v.abs(p.EnvFile)
	}
	if p.Cwd == "" {
		p.Cwd = v.cfg.Dir
		return
	}
	written := p.Cwd
	p.Cwd = v.abs(p.Cwd)
	info, err := os.Stat(p.Cwd)
	path := []string{"procs", p.Name, "cwd"}
	switch {
	case err != nil && os.IsNotExist(err):
		v.p.atValue(path, "folder %s does not exist: create it or fix cwd", written)
	case err != nil:
		v.p.atValue(path, "cannot use folder %s: %v", written, err)
	case !info.IsDir():
		v.p.atValue(path, "%s is not a folder: cwd must name a folder", written)
	}
}

// dependencies checks each dependsOn entry names another, suitable process.
func (v *validator) dependencies() {
	for _, name := range v.cfg.Names() {
		for _, dep := range v.cfg.Procs[name].DependsOn {
			path := v.d.depPaths[[2]string{name, dep.Name}]
			target, decoded := v.cfg.Procs[dep.Name]
			switch {
			case dep.Name == name:
				v.p.atKey(path, "%s depends on itself: remove this entry", name)
			case !slices.Contains(v.declared, dep.Name):
				v.p.atKey(path, "unknown process %q%s: dependsOn must name a process under procs:",
					dep.Name, didYouMean(dep.Name, v.declared))
			case dep.Condition == ConditionCompleted && decoded && !target.IsTask():
				v.p.atValue(path, "condition completed needs %s to be a task: add kind: task to %s, or wait for ready",
					dep.Name, dep.Name)
			case dep.Condition == ConditionCompleted && decoded && target.Restart.Policy == RestartAlways:
				// It would be run again at once, for ever: its
				// dependents waited for ever, and a wait said it failed.
				v.p.atValue(path, "%s never stays completed: its restart: always runs it again after each exit, so %s would never start: use restart: on-failure on %s, or wait for it started",
					dep.Name, name, dep.Name)
			}
		}
	}
}

// readyRulePort checks that a ready rule reading port.open has a port to
// read: without port:, port.open is always false, and a rule that needs
// it leaves the process starting until its readiness timeout, if any.
func (v *validator) readyRulePort() {
	for _, name := range v.cfg.Names() {
		if p := v.cfg.Procs[name]; v.d.rulePortOpen[name] && p.Port == 0 {
			v.p.atValue([]string{"procs", name, "ready"},
				"port.open is whether %s's port: is open, and %s has no port:, so it is always false: add port: to %s, or read portOpen(N) or ports",
				name, name, name)
		}
	}
}

// readyRuleDeps checks what each ready rule reads of deps: deps.NAME holds
// the state of a dependency of the process, so NAME must be one of its
// dependsOn, and the words it is compared with must be states. Either
// mistake would leave a rule that is never true, found only when the
// readiness timeout runs out.
func (v *validator) readyRuleDeps() {
	for _, name := range v.cfg.Names() {
		p := v.cfg.Procs[name]
		deps, ok := v.d.ruleDeps[name] // none when the rule is empty, or did not compile (the decoder said why)
		if !ok {
			continue
		}
		path := []string{"procs", name, "ready"}
		var known []string
		for _, dep := range p.DependsOn {
			known = append(known, dep.Name)
		}
		for _, dep := range deps.Names {
			if slices.Contains(known, dep) {
				continue
			}
			if len(known) == 0 {
				v.p.atValue(path, "deps.%s: %s has no dependsOn, so deps holds no state: add %s to its dependsOn", dep, name, dep)
				continue
			}
			v.p.atValue(path, "deps.%s: %s does not depend on %q%s: deps holds the states of its dependsOn: %s",
				dep, name, dep, didYouMean(dep, known), strings.Join(known, ", "))
		}
		states := rules.StateNames()
		for _, word := range deps.States {
			if !slices.Contains(states, word) {
				v.p.atValue(path, "%q is not a state%s: a dependency's state is one of %s", word, didYouMean(word, states), strings.Join(states, ", "))
			}
		}
	}
}

// dependencyCycles reports each cycle once, at its first dependsOn entry.
func (v *validator) dependencyCycles() {
	for _, cycle := range v.cfg.cycles() {
		path := v.d.depPaths[[2]string{cycle[0], cycle[1]}]
		v.p.atKey(path, "dependency cycle: %s: remove one of these dependsOn entries", strings.Join(cycle, " → "))
	}
}

// ports checks that no two enabled processes, or instances of replicated
// ones, listen on the same port, and that instances have names of their own.
func (v *validator) ports() {
	for _, problem := range replicaProblems(v.cfg.Procs) {
		v.p.atValue([]string{"procs", problem.name, problem.key}, "%s", problem.message)
	}
}

// restart reads a policy word or {policy, maxRestarts, backoff}.
func (d *decoder) restart(path []string, v any) RestartPolicy {
	policies := restartPolicies
	switch v.(type) {
	case nil:
		return RestartPolicy{}
	case string:
		return RestartPolicy{Policy: RestartPolicyName(d.word(path, v, policies, "restart policy"))}
	case map[string]any:
		m, _ := d.mapping(path, v, restartKeys)
		return RestartPolicy{
			Policy:      RestartPolicyName(d.word(child(path, "policy"), m["policy"], policies, "restart policy")),
			MaxRestarts: d.count(child(path, "maxRestarts"), m["maxRestarts"]),
			Backoff:     d.backoff(child(path, "backoff"), m["backoff"]),
		}
	}
	d.typeErr(path, "a policy (no, on-failure, always) or {policy, maxRestarts, backoff}", v)
	return RestartPolicy{}
}

// restartPolicies are the words of restart: and restart.policy.
var restartPolicies = []string{string(RestartNo), string(RestartOnFailure), string(RestartAlways)}

// defaultBackoffMax is the backoff ceiling when only the start is given.
const defaultBackoffMax = 30 * time.Second

// backoff reads "min..max", or a single duration meaning min.
func (d *decoder) backoff(path []string, v any) BackoffRange {
	if v == nil {
		return BackoffRange{}
	}
	text, ok := d.scalarText(path, v)
	if !ok || isBool(v) {
		d.typeErr(path, "a backoff such as 500ms..30s", v)
		return BackoffRange{}
	}
	low, high, isRange := strings.Cut(text, "..")
	minimum, errMin := parseDuration(low)
	maximum, errMax := max(defaultBackoffMax, minimum), error(nil)
	if isRange {
		maximum, errMax = parseDuration(high)
	}
	switch {
	case errMin != nil || errMax != nil:
		d.p.atValue(path, "%q is not a backoff: write min..max durations, e.g. 500ms..30s", text)
	case minimum == 0:
		d.p.atValue(path, "%q starts at zero: use a positive minimum, e.g. 500ms..30s", text)
	case maximum < minimum:
		d.p.atValue(path, "%q ends before it starts: write min..max", text)
	default:
		return BackoffRange{Min: minimum, Max: maximum}
	}
	return BackoffRange{}
}

// healthcheck reads a probe: exactly one of http, exec and tcp.
func (d *decoder) healthcheck(path []string, v any) *Healthcheck {
	m, ok := d.mapping(path, v, healthcheckKeys)
	if !ok {
		return nil
	}
	h := &Healthcheck{
		Interval: d.duration(child(path, "interval"), m["interval"]),
		Timeout:  d.duration(child(path, "timeout"), m["timeout"]),
		Failures: d.count(child(path, "failures"), m["failures"]),
	}
	for key, def := range map[string]string{"interval": "5s", "timeout": "2s"} {
		if isZeroDuration(m[key]) {
			d.p.atValue(child(path, key), "%v is no %s: leave %s out for the default, %s, or give one, e.g. 1s", m[key], key, key, def)
		}
	}
	var probes []string
	for _, kind := range []string{"http", "exec", "tcp"} {
		if m[kind] != nil {
			probes = append(probes, kind)
		}
	}
	switch len(probes) {
	case 0:
		d.p.atKey(path, "no probe: add one of http, exec or tcp")
	case 1:
	default:
		d.p.atKey(path, "has %s: keep only one probe", strings.Join(probes, " and "))
	}
	if m["http"] != nil {
		h.HTTP = d.str(child(path, "http"), m["http"])
		if u, err := url.Parse(h.HTTP); h.HTTP != "" && (err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "") {
			d.p.atValue(child(path, "http"), "%q is not an http(s) URL, e.g. http://127.0.0.1:8080/health", h.HTTP)
		}
	}
	if m["exec"] != nil {
		h.Exec = d.command(child(path, "exec"), m["exec"])
	}
	if m["tcp"] != nil {
		h.TCP = d.str(child(path, "tcp"), m["tcp"])
		if _, port, err := net.SplitHostPort(h.TCP); h.TCP != "" && (err != nil || port == "") {
			d.p.atValue(child(path, "tcp"), "%q is not host:port, e.g. 127.0.0.1:5432", h.TCP)
		}
	}
	return h
}

// isZeroDuration reports whether v is a duration of zero written out
// ("0s"), which a healthcheck would take as its default, not as what it
// says.
func isZeroDuration(v any) bool {
	s, ok := v.(string)
	if !ok {
		return false
	}
	dur, err := time.ParseDuration(s)
	return err == nil && dur == 0
}

// signalNames are the signals procs can send to stop a process.
var signalNames = []string{"SIGHUP", "SIGINT", "SIGKILL", "SIGQUIT", "SIGTERM", "SIGUSR1", "SIGUSR2", "SIGWINCH"}

// shutdown reads {signal, timeout}; the signal is stored as SIGNAME.
func (d *decoder) shutdown(path []string, v any) Shutdown {
	m, ok := d.mapping(path, v, shutdownKeys)
	if !ok {
		return Shutdown{}
	}
	s := Shutdown{Timeout: d.duration(child(path, "timeout"), m["timeout"])}
	name := strings.ToUpper(strings.TrimSpace(d.str(child(path, "signal"), m["signal"])))
	if name != "" && !strings.HasPrefix(name, "SIG") {
		name = "SIG" + name
	}
	if name != "" && !slices.Contains(signalNames, name) {
		d.p.atValue(child(path, "signal"), "%q is not a signal procs can send%s: use one of %s",
			m["signal"], didYouMean(name, signalNames), strings.Join(signalNames, ", "))
		name = ""
	}
	s.Signal = name
	return s
}

// autoRespond reads the list of {match, send, once, maxTimes} answers.
func (d *decoder) autoRespond(path []string, v any) []AutoRespond {
	list, ok := v.([]any)
	if !ok {
		if v != nil {
			d.typeErr(path, "a list of {match, send}", v)
		}
		return nil
	}
	out := make([]AutoRespond, 0, len(list))
	for i, item := range list {
		ip := index(path, i)
		m, ok := d.mapping(ip, item, autoRespondKeys)
		if !ok {
			if item == nil {
				d.typeErr(ip, "{match, send}", item)
			}
			continue
		}
		if m["match"] == nil {
			d.p.atValue(ip, "missing match: the regex of the line to answer")
		}
		_, hasSend := m["send"]
		_, hasChoose := m["choose"]
		switch {
		case !hasSend && !hasChoose:
			d.p.atValue(ip, `missing send or choose: the text to write (send: "\r" for Enter), or the option of a menu to pick (choose: "Yes, I trust this folder")`)
		case hasSend && hasChoose:
			d.p.atValue(ip, "send and choose both given: give one")
		}
		a := AutoRespond{
			Match:    d.str(child(ip, "match"), m["match"]),
			Send:     d.str(child(ip, "send"), m["send"]),
			Choose:   d.str(child(ip, "choose"), m["choose"]),
			Once:     d.boolean(child(ip, "once"), m["once"]),
			MaxTimes: d.count(child(ip, "maxTimes"), m["maxTimes"]),
		}
		if a.Match != "" {
			d.regex(child(ip, "match"), a.Match)
		}
		out = append(out, a)
	}
	return out
}
