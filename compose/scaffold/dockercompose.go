package scaffold

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	frameworks "github.com/procsdev/procs/builtin-frameworks"

	"github.com/procsdev/procs/internal/lazyregexp"
)

// composeFiles are the names docker compose looks for, in its order.
var composeFiles = []string{"compose.yaml", "compose.yml", "docker-compose.yaml", "docker-compose.yml"}

// firstUnprivilegedPort is the lowest port a normal user may listen on;
// privilegedOffset moves a lower one out of the way (80 → 8080).
const (
	firstUnprivilegedPort = 1024
	privilegedOffset      = 8000
)

// addComposeServices adds the services of the compose projects (beside
// procs.yaml, with its override file, and in .devcontainer/) whose images
// name a server procs can run locally, on the ports the files publish.
func (pl *plan) addComposeServices() {
	workspace := pl.devcontainerService()
	for _, project := range pl.composeProjects() {
		pl.composeTasks = completedServices(project)
		added := map[string]*process{}
		for _, s := range project {
			if s.name == workspace && strings.HasPrefix(s.file, ".devcontainer/") {
				pl.skip("%s service %q: the dev container itself, where the project's processes run", s.file, s.name)
				pl.workspace = &process{name: s.name, settings: composeEnvironment(s.svc["environment"])}
				added[s.name] = pl.workspace
				continue
			}
			if p := pl.composeService(s.file, s.name, s.svc); p != nil {
				added[s.name] = p
			}
		}
		for _, s := range project {
			p := added[s.name]
			if p == nil {
				continue
			}
			for _, dep := range composeDependsOn(s.svc["depends_on"]) {
				d := added[dep]
				switch {
				case d == nil || d == p || slices.Contains(p.composeDeps, d.name) || slices.Contains(p.taskDeps, d.name):
				case d.task:
					p.taskDeps = append(p.taskDeps, d.name)
				default:
					p.composeDeps = append(p.composeDeps, d.name)
				}
			}
		}
	}
}

// composeService adds one service, or records why it was skipped: an
// image procs knows, or a service built from the project's source.
func (pl *plan) composeService(file, name string, svc map[string]any) *process {
	image, _ := svc["image"].(string)
	t, known := templateFor(image)
	if !known && svc["build"] != nil {
		return pl.composeBuild(file, name, svc)
	}
	if image == "" {
		pl.skip("%s service %q: no image and no build: add it by hand", file, name)
		return nil
	}
	if !known {
		pl.skip("%s service %q: image %s is not one init knows how to run: add it by hand", file, name, image)
		return nil
	}
	for _, p := range pl.procs {
		if t.Preset != "" && p.preset != nil && p.preset.Name == t.Preset {
			pl.skip("%s service %q (%s): %s already runs %s", file, name, image, p.name, t.Preset)
			return nil
		}
	}
	imagePort := t.Port
	preset, hasPreset := frameworks.Lookup(t.Preset)
	if hasPreset {
		imagePort = preset.DefaultPort
	}
	port, published, note := publishedPort(svc["ports"], imagePort, file)
	if port < firstUnprivilegedPort {
		note = fmt.Sprintf("%s; %d needs root", note, port)
		port += privilegedOffset
	}
	data := pl.dataDir(t.Data)
	p := &process{
		name:     name,
		run:      t.runs(data),
		port:     port,
		portNote: note,
		movable:  !published && (strings.Contains(t.Command, "{port}") || len(t.Env) > 0),
		source:   fmt.Sprintf("%s service %q (image %s)", file, name, image),
		tier:     tierService,
		settings: composeEnvironment(svc["environment"]),
	}
	if hasPreset {
		p.preset, p.reason = preset, "image "+image
		if slices.Contains(proxies, preset.Name) {
			p.tier = tierProxy
		}
	}
	if t.Optional {
		p.optional = true
		p.notes = append(p.notes, "optional: a dev-only tool, the app runs without it; delete it if you do not use it")
	}
	pl.add(p, name+"-"+t.label())
	return p
}

// runs is what the template runs on a port, with its data folder.
func (t serviceTemplate) runs(data string) func(port int) runs {
	return func(port int) runs {
		r := runs{command: fill(t.Command, port, data)}
		for k, v := range t.Env {
			if r.env == nil {
				r.env = map[string]string{}
			}
			r.env[k] = fill(v, port, data)
		}
		for _, n := range t.Notes {
			r.notes = append(r.notes, fill(n, port, data))
		}
		return r
	}
}

// dataDir is the data folder of a service: .data/KIND, numbered when two
// services share a kind.
func (pl *plan) dataDir(kind string) string {
	if kind == "" {
		return ""
	}
	if pl.dataDirs == nil {
		pl.dataDirs = map[string]bool{}
	}
	dir := ".data/" + kind
	for n := 2; pl.dataDirs[dir]; n++ {
		dir = fmt.Sprintf(".data/%s-%d", kind, n)
	}
	pl.dataDirs[dir] = true
	return dir
}

// portMapping is one entry of a service's ports.
type portMapping struct {
	host, container int
	text            string
}

// publishedPort picks the port on this machine for a service whose image
// listens on containerPort: the one docker-compose publishes for it (or
// for its first port), else containerPort itself. note says which.
func publishedPort(ports any, containerPort int, file string) (port int, published bool, note string) {
	list, _ := ports.([]any)
	var mappings []portMapping
	for _, entry := range list {
		if m, ok := parsePortMapping(entry); ok {
			mappings = append(mappings, m)
		}
	}
	for _, m := range mappings {
		if m.container == containerPort && m.host != 0 {
			return m.host, true, fmt.Sprintf("published by %s as %s", file, m.text)
		}
	}
	for _, m := range mappings {
		if m.host != 0 {
			return m.host, true, fmt.Sprintf("published by %s as %s", file, m.text)
		}
	}
	return containerPort, false, "the image's port"
}

// defaultedVar matches ${VAR:-5433} and ${VAR-5433}, which compose
// replaces with 5433 when VAR is unset.
var defaultedVar = lazyregexp.New(`\$\{[A-Za-z_][A-Za-z0-9_]*:?-([^}]*)\}`)

// parsePortMapping reads "5433:5432", "127.0.0.1:5433:5432/tcp", "5432",
// 5432 or {target: 5432, published: 5433}; UDP ports are not for us.
func parsePortMapping(entry any) (portMapping, bool) {
	switch v := entry.(type) {
	case uint64, int64, int:
		n, _ := strconv.Atoi(fmt.Sprint(v))
		return portMapping{container: n, text: fmt.Sprint(v)}, n > 0
	case map[string]any:
		if proto, _ := v["protocol"].(string); proto == "udp" {
			return portMapping{}, false
		}
		target := portNumber(fmt.Sprint(v["target"]))
		host := 0
		if v["published"] != nil {
			host = portNumber(fmt.Sprint(v["published"]))
		}
		return portMapping{host: host, container: target, text: fmt.Sprintf("%d:%d", host, target)}, target > 0
	case string:
		text := defaultedVar.ReplaceAllString(strings.TrimSpace(v), "$1")
		spec, proto, _ := strings.Cut(text, "/")
		if proto == "udp" {
			return portMapping{}, false
		}
		if i := strings.LastIndex(spec, "]:"); strings.HasPrefix(spec, "[") && i > 0 {
			spec = spec[i+2:] // an IPv6 address to bind
		}
		parts := strings.Split(spec, ":")
		m := portMapping{container: portNumber(parts[len(parts)-1]), text: text}
		if len(parts) >= 2 {
			m.host = portNumber(parts[len(parts)-2])
		}
		return m, m.container > 0
	}
	return portMapping{}, false
}

// portNumber reads a port, or the first of a range such as 8000-8010.
func portNumber(s string) int {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "-")
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > 65535 {
		return 0
	}
	return n
}

// completedServices are the services of a project that another one waits
// to have completed: one-shot steps, not servers.
func completedServices(project []composeService) map[string]bool {
	done := map[string]bool{}
	for _, s := range project {
		deps, _ := s.svc["depends_on"].(map[string]any)
		for name, v := range deps {
			if settings, ok := v.(map[string]any); ok && settings["condition"] == "service_completed_successfully" {
				done[name] = true
			}
		}
	}
	return done
}

// composeDependsOn reads depends_on: a list of names or a map by name.
func composeDependsOn(v any) []string {
	var names []string
	switch t := v.(type) {
	case []any:
		for _, item := range t {
			names = append(names, fmt.Sprint(item))
		}
	case map[string]any:
		for name := range t {
			names = append(names, name)
		}
		slices.Sort(names)
	}
	return names
}
