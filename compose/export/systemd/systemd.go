// Package systemd exports a procs project as systemd units: a service per
// process (a oneshot for a task, a template unit for a replicated process)
// and a target that groups them. Dependencies become Requires=/After=,
// and a process with a readiness check waits for it in ExecStartPost=,
// so that After= on it means ready, as dependsOn does.
package systemd

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/compose/export"
)

// Format writes systemd units.
type Format struct{}

// Name is "systemd".
func (Format) Name() string { return "systemd" }

// Summary says what it writes.
func (Format) Summary() string {
	return "systemd units: a .service per process and a .target grouping them (--system for system units)"
}

// Export writes the target and the units of p: a scheduled task's timer
// is wanted by the target, and its service only when the project's start
// runs it too.
func (f Format) Export(p *export.Project) (*export.Output, error) {
	out := &export.Output{Warnings: slices.Clone(p.Warnings)}
	header := export.Header("# ", f.Name(), p)
	var units []export.File
	var wants []string
	for _, proc := range p.Procs {
		u, warnings := service(p, proc)
		out.Warnings = append(out.Warnings, warnings...)
		units = append(units, export.File{Name: unitFile(p, proc), Data: u.render(header)})
		units = append(units, instanceDropIns(p, proc, header)...)
		if p.RunsAtStart(proc) {
			wants = append(wants, unitNames(p, proc)...)
		}
		if proc.Schedule == nil {
			continue
		}
		if t, warning := timer(p, proc); warning != nil {
			out.Warnings = append(out.Warnings, *warning)
		} else {
			units = append(units, export.File{Name: timerFile(p, proc), Data: t.render(header)})
			wants = append(wants, timerNames(p, proc)...)
		}
	}
	out.Files = append([]export.File{{Name: targetName(p), Data: target(p, wants).render(header)}}, units...)
	out.Warnings = append(out.Warnings, envFileWarnings(p)...)
	return out, nil
}

// targetName is the target of the project: PROJECT.target.
func targetName(p *export.Project) string { return p.Name + ".target" }

// unitFile is the file of proc's unit: PROJECT-NAME.service, or the
// template PROJECT-NAME@.service of a replicated process.
func unitFile(p *export.Project, proc *export.Process) string {
	if proc.Replicas > 0 {
		return p.Name + "-" + proc.Name + "@.service"
	}
	return p.Name + "-" + proc.Name + ".service"
}

// unitNames are the units that run proc: its own, or one per instance.
func unitNames(p *export.Project, proc *export.Process) []string {
	if proc.Replicas == 0 {
		return []string{unitFile(p, proc)}
	}
	names := make([]string, proc.Replicas)
	for i := range names {
		names[i] = fmt.Sprintf("%s-%s@%d.service", p.Name, proc.Name, i+1)
	}
	return names
}

// target is the unit that starts every process, the units in wants:
// systemctl start PROJECT.target.
func target(p *export.Project, wants []string) *unit {
	u := &unit{}
	s := u.section("Unit")
	s.set("Description", escapeSpecifiers(fmt.Sprintf("%s: the processes of %s", p.Name, filepath.Join(p.Dir, p.ConfigFile))))
	s.set("Wants", strings.Join(wants, " "))
	install := u.section("Install")
	if p.Options.SystemdSystem {
		install.set("WantedBy", "multi-user.target")
	} else {
		install.set("WantedBy", "default.target")
	}
	return u
}

// service is the unit of proc, with what it could not carry over.
func service(p *export.Project, proc *export.Process) (*unit, []export.Warning) {
	var warnings []export.Warning
	u := &unit{}
	unitSection := u.section("Unit")
	unitSection.set("Description", escapeSpecifiers(fmt.Sprintf("%s %s: %s", p.Name, proc.Name, proc.Description)))
	unitSection.set("PartOf", targetName(p))
	var deps []string
	for _, dep := range proc.DependsOn {
		deps = append(deps, unitNames(p, p.Proc(dep.Name))...)
	}
	if len(deps) > 0 {
		// Requires= with After= waits for each to have started, and a
		// service's start includes its readiness step below: ready. A
		// task's oneshot has started once it exited 0: completed.
		unitSection.set("Requires", strings.Join(deps, " "))
		unitSection.set("After", strings.Join(deps, " "))
	}
	svc := u.section("Service")
	switch {
	case proc.Task && proc.Schedule != nil:
		svc.set("Type", "oneshot")
		svc.comment("No RemainAfterExit=: its timer starts it again only once it is inactive.")
	case proc.Task:
		svc.set("Type", "oneshot")
		svc.set("RemainAfterExit", "yes")
	default:
		svc.set("Type", "exec")
	}
	if p.Options.SystemdSystem && p.Options.User != "" {
		svc.set("User", p.Options.User)
	}
	svc.set("WorkingDirectory", escapeSpecifiers(proc.Cwd))
	warnings = append(warnings, environment(svc, proc)...)
	svc.set("ExecStart", execLine(program(proc)))
	readiness(svc, proc)
	warnings = append(warnings, restart(unitSection, svc, proc)...)
	if proc.Shutdown.Signal != "" && proc.Shutdown.Signal != "SIGTERM" {
		svc.set("KillSignal", proc.Shutdown.Signal)
	}
	svc.set("TimeoutStopSec", export.Duration(proc.Shutdown.Timeout.D()))
	limits(svc, proc.Resources)
	return u, warnings
}

// limits writes resources: as systemd's own cgroup limits: memory to
// MemoryMax= (and no swap, as procs runs it), cpu to CPUQuota= (1.5 cores
// is 150%), pids to TasksMax=.
func limits(svc *section, r config.Resources) {
	if r.Memory > 0 {
		svc.set("MemoryMax", strconv.FormatInt(int64(r.Memory), 10))
		svc.set("MemorySwapMax", "0")
	}
	if r.CPU > 0 {
		svc.set("CPUQuota", strconv.FormatFloat(r.CPU*100, 'f', -1, 64)+"%")
	}
	if r.Pids > 0 {
		svc.set("TasksMax", strconv.Itoa(r.Pids))
	}
}

// environment writes the env files and variables of proc. systemd lets
// an EnvironmentFile= win over Environment=, procs lets env: win over env
// files: a variable set in both is said.
func environment(svc *section, proc *export.Process) []export.Warning {
	for _, file := range proc.EnvFiles {
		svc.set("EnvironmentFile", escapeSpecifiers(file))
	}
	env := proc.Environment()
	if proc.Replicas > 0 {
		env["PROCS_REPLICA"] = "{{.Replica}}"
		if proc.Port > 0 {
			delete(env, "PORT") // each instance's drop-in sets its own
		}
	}
	for _, key := range slices.Sorted(maps.Keys(env)) {
		svc.set("Environment", envAssignment(key, env[key]))
	}
	var warnings []export.Warning
	for _, key := range slices.Sorted(maps.Keys(proc.Env)) {
		if _, inFile := proc.FileEnv[key]; inFile {
			warnings = append(warnings, export.Warning{Proc: proc.Name, Text: fmt.Sprintf(
				"%s is set in an env file and in env:; systemd lets the file win where procs lets env: win: set it in one of them", key)})
		}
	}
	return warnings
}

// program is proc's argv with a relative program (./bin/server) made
// absolute from its working folder, as systemd wants it; a bare name
// (python3) systemd finds in its search path.
func program(proc *export.Process) []string {
	argv := slices.Clone(proc.Command.Args())
	switch {
	case proc.Command.Shell != "":
		argv[0] = "/bin/sh"
	case len(argv) > 0 && strings.Contains(argv[0], "/") && !filepath.IsAbs(argv[0]):
		argv[0] = filepath.Join(proc.Cwd, argv[0])
	}
	return argv
}

// readiness writes the step that holds the unit in "activating" until
// proc's readiness check passes, and the time it may take.
func readiness(svc *section, proc *export.Process) {
	check := proc.Ready
	if check == nil {
		return
	}
	port := fmt.Sprint(check.Port)
	if proc.Replicas > 0 && check.Port == proc.Port {
		// Each instance's port is in its drop-in's PORT.
		port = "${PORT}"
	}
	var script string
	switch check.Kind {
	case export.CheckPort:
		script = fmt.Sprintf("until (: </dev/tcp/%s/%s) 2>/dev/null; do sleep 1; done", check.Host, port)
		svc.comment("Ready when %s accepts a connection (%s).", check.Host+":"+port, check.From)
		svc.set("ExecStartPost", execLine([]string{"/bin/bash", "-c", script}))
	case export.CheckHTTP:
		url := fmt.Sprintf("%s://%s:%s%s", check.Scheme, check.Host, port, check.Path)
		script = fmt.Sprintf("until curl -fsS -o /dev/null --max-time %d %s; do sleep 1; done", max(int(check.Timeout.Seconds()), 1), export.ShellQuote([]string{url}))
		svc.comment("Ready when GET %s answers below 400 (%s).", url, check.From)
		svc.set("ExecStartPost", execLine([]string{"/bin/sh", "-c", script}))
	case export.CheckExec:
		command := check.Command.Shell
		if command == "" {
			command = export.ShellQuote(check.Command.Argv)
		}
		script = fmt.Sprintf("until (%s) >/dev/null 2>&1; do sleep 1; done", command)
		svc.comment("Ready when `%s` exits 0 (%s).", strings.ReplaceAll(command, "\n", " "), check.From)
		svc.set("ExecStartPost", execLine([]string{"/bin/sh", "-c", script}))
	}
	if proc.ReadyTimeout > 0 {
		svc.set("TimeoutStartSec", export.Duration(proc.ReadyTimeout))
	}
}

// restart writes the restart policy: Restart=, RestartSec= from the
// backoff's start, and maxRestarts as a start limit.
func restart(unitSection, svc *section, proc *export.Process) []export.Warning {
	policy := proc.Restart
	var warnings []export.Warning
	name := policy.Policy
	if proc.Task && name == config.RestartAlways {
		// systemd refuses Restart=always for a oneshot.
		name = config.RestartOnFailure
		warnings = append(warnings, export.Warning{Proc: proc.Name, Text: "restart: always on a task becomes Restart=on-failure: systemd restarts no oneshot that succeeded"})
	}
	if name == "" || name == config.RestartNo {
		return warnings
	}
	svc.set("Restart", string(name))
	if !policy.Backoff.IsZero() {
		svc.set("RestartSec", export.Duration(policy.Backoff.Min))
		if policy.Backoff.Max > policy.Backoff.Min {
			svc.comment("procs doubles the delay up to %s; systemd 254 and later can too: RestartSteps= and RestartMaxDelaySec=%s.",
				export.Duration(policy.Backoff.Max), export.Duration(policy.Backoff.Max))
		}
	}
	if policy.MaxRestarts > 0 {
		// The first start and maxRestarts restarts; systemctl reset-failed
		// starts the count again.
		unitSection.set("StartLimitIntervalSec", "infinity")
		unitSection.set("StartLimitBurst", fmt.Sprint(policy.MaxRestarts+1))
	}
	return warnings
}

// instanceDropIns gives each instance of a replicated process with a port
// its own, as procs does (instance i on port+i-1): a drop-in setting PORT.
func instanceDropIns(p *export.Project, proc *export.Process, header string) []export.File {
	if proc.Replicas == 0 || proc.Port == 0 {
		return nil
	}
	var files []export.File
	for i, name := range unitNames(p, proc) {
		u := &unit{}
		u.section("Service").set("Environment", envAssignment("PORT", fmt.Sprint(proc.Port+i)))
		files = append(files, export.File{Name: name + ".d/port.conf", Data: u.render(header)})
	}
	return files
}

// escapeSpecifiers keeps % in free text from being read as a specifier.
func escapeSpecifiers(s string) string { return strings.ReplaceAll(s, "%", "%%") }
