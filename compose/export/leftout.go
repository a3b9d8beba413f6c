package export

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	frameworks "github.com/procsdev/procs/builtin-frameworks"
	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/internal/lazyregexp"
)

// leftOut says what procs does for d that no export carries over, and
// what to write instead.
func leftOut(d *config.Proc, p *Process) []Warning {
	var out []Warning
	say := func(format string, args ...any) {
		out = append(out, Warning{Proc: d.Name, Text: fmt.Sprintf(format, args...)})
	}
	if !p.Task {
		if text := readinessLeftOut(d, p); text != "" {
			say("%s", text)
		}
	}
	if inTerminal(d, p) {
		say("runs in a terminal (pty/interactive) under procs; exported it runs without one, and no one sees its screen or answers its prompts: export only processes that need no terminal")
	}
	if len(d.AutoRespond) > 0 {
		say("autoRespond answers are procs'; left out: make the program take its answers from flags or its config")
	}
	if d.OnIdle != nil {
		say("onIdle inputs are procs'; left out: nothing types into it when it is idle")
	}
	if d.Watch != nil {
		say("watch: restarts on file changes are procs'; left out: the export does not watch files (restart it from your deploy, or use the program's own reloader)")
	}
	if len(d.Args) > 0 {
		say("its arguments (args:) are procs run's; left out: the exported task runs with their defaults, as procs up runs it")
	}
	return out
}

// inTerminal reports whether procs runs d in a terminal: pty: true, or
// interactive (by its own setting, else by its preset's).
func inTerminal(d *config.Proc, p *Process) bool {
	interactive := p.Preset != nil && p.Preset.Interactive
	if d.Interactive != nil {
		interactive = *d.Interactive
	}
	return d.PTY.Enabled || interactive
}

// readinessLeftOut says how d's readiness is lost, "" when the exported
// check (or none: ready by running) is what procs waits for.
func readinessLeftOut(d *config.Proc, p *Process) string {
	if p.Ready != nil {
		if d.Ready != "" {
			return fmt.Sprintf("the ready rule %q is left out; ready is %s alone: put all of readiness in port: or a healthcheck", d.Ready, p.Ready.From)
		}
		if len(d.ReadyPatterns) > 0 {
			return fmt.Sprintf("its readyPatterns are left out (no format reads the log); ready is %s alone", p.Ready.From)
		}
		if p.portGivenBy != "" {
			return fmt.Sprintf("its ready line (%s preset) is left out (no format reads the log); ready is port %d open alone, which %s gives",
				p.Preset.Name, p.ServicePort, givenBy(p.portGivenBy))
		}
		return ""
	}
	if d.Ready != "" {
		return fmt.Sprintf("ready by its ready rule %q only; add `port:` or a probe (healthcheck:) so the exported health check means ready", d.Ready)
	}
	ways := presetWays(p)
	if len(d.ReadyPatterns) > 0 || len(ways) == 1 && ways[0] == wayLine {
		return "ready by log line only; add `port:` or a probe (healthcheck:) so the exported health check means ready"
	}
	if len(ways) == 0 {
		return ""
	}
	return fmt.Sprintf("ready %s (%s preset) under procs; add `port:` or a probe (healthcheck:) so the exported health check means ready",
		orList(ways), p.Preset.Name)
}

// The ways a preset says ready, as readinessLeftOut names them.
const (
	wayLine      = "its ready line"
	wayListening = "listening on a port"
	wayRunning   = "running a while without an error"
)

// presetWays lists the ways p's preset makes it ready, none without one.
// A generic runtime's worker prints no ready line and listens on no port:
// naming the line alone would say the wrong one.
func presetWays(p *Process) []string {
	if p.Preset == nil {
		return nil
	}
	var ways []string
	if len(p.Preset.ReadyPatterns) > 0 {
		ways = append(ways, wayLine)
	}
	if p.Preset.ReadyWhenListening {
		ways = append(ways, wayListening)
	}
	if p.Preset.AssumeReadyAfter > 0 {
		ways = append(ways, wayRunning)
	}
	return ways
}

// orList joins ways as "a, b, or c" (or "a or b"), each with "by".
func orList(ways []string) string {
	by := make([]string, len(ways))
	for i, w := range ways {
		by[i] = "by " + w
	}
	switch len(by) {
	case 1:
		return by[0]
	case 2:
		return by[0] + " or " + by[1]
	}
	return strings.Join(by[:len(by)-1], ", ") + ", or " + by[len(by)-1]
}

// loopback finds a loopback address with a port in an env value.
var loopback = lazyregexp.New(`\b(127\.0\.0\.1|localhost|\[::1\]):(\d{1,5})\b`)

// loopbackBind finds a loopback address given alone, as a bind address.
var loopbackBind = lazyregexp.New(`(^|[\s=])(127\.0\.0\.1|localhost|::1)(\s|$)`)

// portOption finds a port given as an option: -p 5432, --port=8000.
var portOption = lazyregexp.New(`(?:^|\s)(?:-p|-P|--port)(?:\s+|=)(\d{2,5})\b`)

// commandLoopback warns of a command that names the loopback address: a
// client of another exported process (psql -h 127.0.0.1 -p 15432) must
// reach it by its name (hostOf, as the format's DNS knows it); a server
// binding it must listen on 0.0.0.0 to be reached from other containers.
func commandLoopback(proc *Process, byPort map[int]*Process, hostOf func(*Process) string) (Warning, bool) {
	command := proc.Command.String()
	m := loopback.Regexp().FindStringSubmatch(command)
	bind := loopbackBind.Regexp().FindStringSubmatch(command)
	if m == nil && bind == nil {
		return Warning{}, false
	}
	host, portText := "", ""
	if m != nil {
		host, portText = m[1], m[2]
	} else {
		host = bind[2]
		if p := portOption.Regexp().FindStringSubmatch(command); p != nil {
			portText = p[1]
		}
	}
	port, _ := strconv.Atoi(portText)
	if target := byPort[port]; target != nil && target != proc {
		return Warning{Proc: proc.Name, Text: fmt.Sprintf(
			"its command connects to %s, port %d, which is %s: in containers it is reached by its name, not the loopback address: write %s there",
			host, port, target.Name, hostOf(target))}, true
	}
	return Warning{Proc: proc.Name, Text: "its command names the loopback address: in a container a server listens on 0.0.0.0 to be reached from others; change it there"}, true
}

// listensOnLoopback warns of a dev server that listens on the loopback
// address unless told otherwise (flask run, vite, manage.py runserver):
// in a container its own healthcheck passes, but nothing outside the
// container reaches it, other services and the published port alike. It
// says what makes the server listen on 0.0.0.0.
func listensOnLoopback(proc *Process) (Warning, bool) {
	preset := proc.Preset
	if preset == nil || proc.Task || preset.DefaultHost == "" {
		return Warning{}, false
	}
	command := proc.Command.String()
	script, runsScript := frameworks.ScriptBody(command, proc.Cwd)
	host, from := preset.HostOf(strings.TrimSpace(script+" "+command), proc.AllEnv())
	if !frameworks.IsLoopback(host) {
		return Warning{}, false
	}
	fix, flag := "make it listen on 0.0.0.0", ""
	if len(preset.HostFlags) > 0 {
		flag = preset.HostFlags[0]
	}
	switch {
	case from == preset.HostEnv:
		fix = fmt.Sprintf("set %s to 0.0.0.0", preset.HostEnv)
	case flag != "" && !strings.HasPrefix(flag, "-"):
		fix = fmt.Sprintf("give %s the address: %s 0.0.0.0:%d", flag, flag, subcommandPort(command, flag, proc.Port, preset.DefaultPort))
	case flag == "":
	case runsScript:
		fix = fmt.Sprintf("add %s 0.0.0.0 to the script it runs (%s), or to its command after --", flag, script)
	default:
		fix = fmt.Sprintf("add %s 0.0.0.0 to its command", flag)
	}
	if preset.HostEnv != "" && from != preset.HostEnv {
		fix += fmt.Sprintf(" (or set %s=0.0.0.0)", preset.HostEnv)
	}
	what := "unless told otherwise"
	if from != "default" {
		what = "as its " + from + " says"
	}
	return Warning{Proc: proc.Name, Text: fmt.Sprintf(
		"%s listens on %s %s, which nothing outside its container reaches (other services, the published port): %s",
		preset.Name, host, what, fix)}, true
}

// subcommandPort is the port a server's subcommand is given (runserver
// 8004), else port, else the server's default.
func subcommandPort(command, subcommand string, port, defaultPort int) int {
	words := strings.Fields(command)
	if i := slices.Index(words, subcommand); port == 0 && i >= 0 && i+1 < len(words) {
		port, _ = strconv.Atoi(words[i+1])
	}
	if port == 0 {
		return defaultPort
	}
	return port
}

// LoopbackWarnings says which env values point at another exported
// process through the loopback address: in containers each service is
// reached by its name, so they must be rewritten, with the host hostOf
// gives, the name the format's DNS resolves (the compose service, the
// Kubernetes Service). A value several processes share (the global env:)
// is said once, naming them all. Formats that run every process on one
// host (systemd) need none of this.
func (p *Project) LoopbackWarnings(hostOf func(*Process) string) []Warning {
	byPort := map[int]*Process{}
	for _, proc := range p.Procs {
		for i := range max(proc.Replicas, 1) {
			if proc.ServicePort > 0 {
				byPort[proc.ServicePort+i] = proc
			}
		}
	}
	var out []Warning
	texts := map[string]*Warning{}
	for _, proc := range p.Procs {
		if proc.Image != nil {
			continue // runs the image with its own env
		}
		if w, ok := commandLoopback(proc, byPort, hostOf); ok {
			out = append(out, w)
		} else if w, ok := listensOnLoopback(proc); ok {
			out = append(out, w)
		}
		env := proc.AllEnv()
		for _, key := range slices.Sorted(maps.Keys(env)) {
			for _, m := range loopback.Regexp().FindAllStringSubmatch(env[key], -1) {
				port, _ := strconv.Atoi(m[2])
				target := byPort[port]
				if target == nil || target == proc {
					continue
				}
				text := fmt.Sprintf("env %s points at %s, which is %s: in containers it is reached by its name, not the loopback address: write %s:%d there",
					key, m[0], target.Name, hostOf(target), port)
				if w := texts[text]; w != nil {
					w.Proc += ", " + proc.Name
					continue
				}
				texts[text] = &Warning{Proc: proc.Name, Text: text}
			}
		}
	}
	for _, w := range texts {
		out = append(out, *w)
	}
	slices.SortStableFunc(out, func(a, b Warning) int { return strings.Compare(a.Proc+a.Text, b.Proc+b.Text) })
	return out
}

// RestartFollowsLeftOut says which of proc's dependencies declare
// restart: true, for a format that has no way to restart a process when
// one it depends on restarts (compose, Kubernetes).
func RestartFollowsLeftOut(proc *Process) []Warning {
	var out []Warning
	for _, dep := range proc.DependsOn {
		if dep.Restart {
			out = append(out, Warning{Proc: proc.Name, Text: fmt.Sprintf(
				"restart: true on its dependency %s is left out: it is not restarted when %s is; restart it yourself after %s", dep.Name, dep.Name, dep.Name)})
		}
	}
	return out
}
