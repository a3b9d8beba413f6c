// Package dockercompose exports a procs project as a Docker Compose file
// (compose.yaml): a service per process, with its command, environment,
// ports and depends_on conditions, its readiness as a healthcheck, and the
// official image of a well-known server (postgres, redis...) in place of
// its command. An application gets a build: placeholder and a comment
// that says which image to provide.
package dockercompose

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/goccy/go-yaml"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/compose/export"
)

// Format writes compose.yaml.
type Format struct{}

// Name is "compose".
func (Format) Name() string { return "compose" }

// Summary says what it writes.
func (Format) Summary() string {
	return "a Docker Compose file (compose.yaml): services, healthchecks, depends_on, official images of known servers"
}

// file is compose.yaml.
type file struct {
	Services map[string]*service `yaml:"services"`
	Volumes  map[string]*volume  `yaml:"volumes,omitempty"`
}

// volume is a named volume, with the defaults.
type volume struct{}

// service is one service of compose.yaml, its keys in the compose spec's words.
type service struct {
	Image           string                `yaml:"image,omitempty"`
	Build           *build                `yaml:"build,omitempty"`
	Command         []string              `yaml:"command,omitempty"`
	EnvFile         []string              `yaml:"env_file,omitempty"`
	Environment     map[string]string     `yaml:"environment,omitempty"`
	Ports           []string              `yaml:"ports,omitempty"`
	Volumes         []string              `yaml:"volumes,omitempty"`
	DependsOn       map[string]*dependsOn `yaml:"depends_on,omitempty"`
	Healthcheck     *healthcheck          `yaml:"healthcheck,omitempty"`
	Restart         string                `yaml:"restart,omitempty"`
	StopSignal      string                `yaml:"stop_signal,omitempty"`
	StopGracePeriod string                `yaml:"stop_grace_period,omitempty"`
	Deploy          *deploy               `yaml:"deploy,omitempty"`
	Profiles        []string              `yaml:"profiles,omitempty"`
	MemLimit        int64                 `yaml:"mem_limit,omitempty"`
	MemswapLimit    int64                 `yaml:"memswap_limit,omitempty"`
	CPUs            float64               `yaml:"cpus,omitempty"`
	PidsLimit       int                   `yaml:"pids_limit,omitempty"`
}

// build is where an image is built from.
type build struct {
	Context string `yaml:"context"`
}

// dependsOn is the condition a service waits for.
type dependsOn struct {
	Condition string `yaml:"condition"`
}

// healthcheck is a service's readiness.
type healthcheck struct {
	Test        []string `yaml:"test,flow"`
	Interval    string   `yaml:"interval,omitempty"`
	Timeout     string   `yaml:"timeout,omitempty"`
	Retries     int      `yaml:"retries,omitempty"`
	StartPeriod string   `yaml:"start_period,omitempty"`
}

// deploy holds the number of replicas.
type deploy struct {
	Replicas int `yaml:"replicas"`
}

// scheduledProfile is the profile of a task left to its schedule:
// docker compose up starts no service of a profile not asked for, and
// docker compose run starts it whatever its profiles.
const scheduledProfile = "scheduled"

// Export writes compose.yaml.
func (f Format) Export(p *export.Project) (*export.Output, error) {
	// Docker's embedded DNS ignores case (moby/libnetwork#2394): API and
	// api would answer to one name.
	if err := p.CheckNames(f.Name(), "docker compose reaches services by name through DNS, which ignores case",
		func(proc *export.Process) string { return strings.ToLower(proc.Name) }); err != nil {
		return nil, err
	}
	out := &export.Output{Warnings: slices.Clone(p.Warnings)}
	doc := file{Services: map[string]*service{}}
	comments := yaml.CommentMap{}
	for _, proc := range p.Procs {
		svc, note, warnings := serviceOf(p, proc)
		doc.Services[proc.Name] = svc
		out.Warnings = append(out.Warnings, warnings...)
		out.Warnings = append(out.Warnings, export.RestartFollowsLeftOut(proc)...)
		out.Warnings = append(out.Warnings, schedule(p, proc, svc)...)
		if note != "" {
			comments["$.services."+proc.Name] = []*yaml.Comment{yaml.HeadComment(" " + note)}
		}
		for _, v := range svc.Volumes {
			if doc.Volumes == nil {
				doc.Volumes = map[string]*volume{}
			}
			doc.Volumes[strings.SplitN(v, ":", 2)[0]] = &volume{}
		}
	}
	// A service is reached by its name as written here, my_api included.
	out.Warnings = append(out.Warnings, p.LoopbackWarnings(func(proc *export.Process) string { return proc.Name })...)
	data, err := yaml.MarshalWithOptions(doc, yaml.WithComment(comments), yaml.IndentSequence(true))
	if err != nil {
		return nil, fmt.Errorf("compose: %w", err)
	}
	header := export.Header("# ", f.Name(), p) +
		"# Paths are relative to " + p.BaseDir + "; run docker compose from there.\n"
	out.Files = []export.File{{Name: "compose.yaml", Data: append([]byte(header), data...)}}
	return out, nil
}

// serviceOf is the service of proc, the comment to put above it, and what
// it could not carry over.
func serviceOf(p *export.Project, proc *export.Process) (*service, string, []export.Warning) {
	var warnings []export.Warning
	warn := func(format string, args ...any) {
		warnings = append(warnings, export.Warning{Proc: proc.Name, Text: fmt.Sprintf(format, args...)})
	}
	svc := &service{}
	var note string
	if img := proc.Image; img != nil {
		port := proc.ServicePort
		svc.Image = img.Image
		svc.Command = escape(export.Fill(img.Command, port, proc.Name))
		svc.Environment = map[string]string{}
		for k, v := range img.Env {
			svc.Environment[k] = escapeOne(export.Fill([]string{v}, port, proc.Name)[0])
		}
		if img.Data != "" {
			svc.Volumes = []string{proc.Name + "-data:" + img.Data}
		}
		if port > 0 {
			svc.Ports = []string{fmt.Sprintf("%d:%d", port, port)}
		}
		svc.Healthcheck = imageHealthcheck(proc, export.Fill(img.Check, port, proc.Name))
		note = fmt.Sprintf("%s: the official %s image in place of `%s`, on the same port.", proc.Name, proc.Preset.Name, proc.Command)
		warn("runs the image %s on port %d in place of its command `%s`; the command's other options and its env are left out", img.Image, port, proc.Command)
	} else {
		svc.Build = &build{Context: p.Rel(proc.Cwd)}
		note = fmt.Sprintf("%s: provide an image that runs `%s` (in %s): a Dockerfile in %s for build:, or replace build: with image:.",
			proc.Name, proc.Command, p.Rel(proc.Cwd), svc.Build.Context)
		warn("no image is known for it: build: %s needs a Dockerfile there that can run `%s`, or write image: in its place", svc.Build.Context, proc.Command)
		svc.Command = escape(proc.Command.Args())
		for _, file := range proc.EnvFiles {
			svc.EnvFile = append(svc.EnvFile, p.Rel(file))
		}
		svc.Environment = map[string]string{}
		for k, v := range proc.Environment() {
			svc.Environment[k] = escapeOne(v)
		}
		if proc.Port > 0 {
			svc.Ports = []string{portMapping(proc)}
		}
		svc.Healthcheck = checkHealthcheck(proc)
		if proc.Replicas > 0 && replicaNumbered(proc) {
			warn("{{.Replica}} in its command or env has no counterpart in compose: every replica gets the same; give each its number another way")
		}
	}
	if len(svc.Environment) == 0 {
		svc.Environment = nil
	}
	svc.DependsOn = dependencies(p, proc)
	svc.Restart = restart(proc.Restart)
	if proc.Shutdown.Signal != "" && proc.Shutdown.Signal != "SIGTERM" {
		svc.StopSignal = proc.Shutdown.Signal
	}
	svc.StopGracePeriod = export.Duration(proc.Shutdown.Timeout.D())
	if proc.Replicas > 0 {
		svc.Deploy = &deploy{Replicas: proc.Replicas}
	}
	// resources: are the container's limits, swap included as procs
	// allows none.
	r := proc.Resources
	svc.MemLimit, svc.MemswapLimit = int64(r.Memory), int64(r.Memory)
	svc.CPUs, svc.PidsLimit = r.CPU, r.Pids
	return svc, note, warnings
}

// schedule says that compose cannot run proc on its schedule, and what
// is exported in its place: a task the project's start does not run goes
// under scheduledProfile, so that docker compose up leaves it alone and
// the host's scheduler runs it with docker compose run.
func schedule(p *export.Project, proc *export.Process, svc *service) []export.Warning {
	if proc.Schedule == nil {
		return nil
	}
	run := fmt.Sprintf("run it on time from the host's scheduler (cron, a systemd timer): docker compose run --rm %s", proc.Name)
	exported := fmt.Sprintf("it runs once, when docker compose up starts the project (as under procs, which runs it at start too); %s", run)
	if !p.RunsAtStart(proc) {
		svc.Profiles = []string{scheduledProfile}
		exported = fmt.Sprintf("it is exported under the profile %s, which docker compose up does not start; %s", scheduledProfile, run)
	}
	return []export.Warning{{Proc: proc.Name, Text: fmt.Sprintf(
		"runs on a schedule (%s), which docker compose cannot express: %s", proc.Schedule.Spec, exported)}}
}

// portMapping publishes the process's port on the host; the replicas of
// a replicated one get port to port+N-1 on the host, as under procs, all
// listening on port in their containers.
func portMapping(proc *export.Process) string {
	if proc.Replicas > 1 {
		return fmt.Sprintf("%d-%d:%d", proc.Port, proc.Port+proc.Replicas-1, proc.Port)
	}
	return fmt.Sprintf("%d:%d", proc.Port, proc.Port)
}

// dependencies are proc's depends_on: completed → completed successfully,
// ready → healthy when the dependency has a healthcheck, else (ready by
// running) started.
func dependencies(p *export.Project, proc *export.Process) map[string]*dependsOn {
	if len(proc.DependsOn) == 0 {
		return nil
	}
	out := map[string]*dependsOn{}
	for _, dep := range proc.DependsOn {
		target := p.Proc(dep.Name)
		condition := "service_started"
		switch {
		case dep.Condition == config.ConditionCompleted || target.Task:
			condition = "service_completed_successfully"
		case dep.Condition == config.ConditionReady && (target.Ready != nil || target.Image != nil && target.Image.Check != nil):
			condition = "service_healthy"
		}
		out[dep.Name] = &dependsOn{Condition: condition}
	}
	return out
}

// restart is the compose restart policy of procs' one.
func restart(policy config.RestartPolicy) string {
	switch policy.Policy {
	case config.RestartAlways:
		return "always"
	case config.RestartOnFailure:
		if policy.MaxRestarts > 0 {
			return fmt.Sprintf("on-failure:%d", policy.MaxRestarts)
		}
		return "on-failure"
	}
	return ""
}

// imageHealthcheck runs the image's own check.
func imageHealthcheck(proc *export.Process, check []string) *healthcheck {
	if len(check) == 0 {
		return nil
	}
	hc := timing(proc, proc.Ready)
	hc.Test = append([]string{"CMD"}, escape(check)...)
	return hc
}

// checkHealthcheck is proc's readiness check as a healthcheck run in its
// container: a port by bash's /dev/tcp (or nc), an HTTP probe by curl (or
// wget), a command as it is.
func checkHealthcheck(proc *export.Process) *healthcheck {
	check := proc.Ready
	if check == nil {
		return nil
	}
	hc := timing(proc, check)
	switch check.Kind {
	case export.CheckPort:
		hc.Test = []string{"CMD-SHELL", escapeOne(fmt.Sprintf("bash -c ': </dev/tcp/%s/%d' 2>/dev/null || nc -z %s %d", check.Host, check.Port, check.Host, check.Port))}
	case export.CheckHTTP:
		url := export.ShellQuote([]string{check.URL()})
		hc.Test = []string{"CMD-SHELL", escapeOne(fmt.Sprintf("curl -fsS -o /dev/null %s || wget -q -O /dev/null %s", url, url))}
	case export.CheckExec:
		if check.Command.Shell != "" {
			hc.Test = []string{"CMD-SHELL", escapeOne(check.Command.Shell)}
		} else {
			hc.Test = append([]string{"CMD"}, escape(check.Command.Argv)...)
		}
	}
	return hc
}

// timing is a healthcheck's interval, timeout, retries and start period
// (readyTimeout: failures before it do not count).
func timing(proc *export.Process, check *export.Check) *healthcheck {
	hc := &healthcheck{Interval: "5s", Timeout: "2s", Retries: 3}
	if check != nil {
		hc.Interval, hc.Timeout, hc.Retries = export.Duration(check.Interval), export.Duration(check.Timeout), check.Failures
	}
	if proc.ReadyTimeout > 0 {
		hc.StartPeriod = export.Duration(proc.ReadyTimeout)
	}
	return hc
}

// replicaNumbered reports whether proc's command or env holds {{.Replica}}.
func replicaNumbered(proc *export.Process) bool {
	has := export.ReplicaToken.MatchString
	return slices.ContainsFunc(proc.Command.Args(), has) || slices.ContainsFunc(slices.Collect(maps.Values(proc.Env)), has)
}

// escape keeps compose from interpolating $ in words: $ is written $$.
func escape(words []string) []string {
	if words == nil {
		return nil
	}
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = escapeOne(w)
	}
	return out
}

func escapeOne(s string) string { return strings.ReplaceAll(s, "$", "$$") }
