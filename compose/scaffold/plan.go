package scaffold

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/joho/godotenv"

	frameworks "github.com/procsdev/procs/builtin-frameworks"

	"github.com/procsdev/procs/internal/lazyregexp"
)

// tier is where a process sits in the usual chain web → api → db.
type tier int

const (
	tierService  tier = iota // databases and brokers: started first
	tierBackEnd              // APIs and workers: wait for the services
	tierFrontEnd             // dev servers of a browser front end: wait for the APIs
	tierProxy                // reverse proxies: need their upstreams only per request
)

// frontEnds are the presets of dev servers that serve a browser front end;
// they depend on the back ends rather than on the services.
var frontEnds = []string{"angular", "astro", "create-react-app", "esbuild", "gatsby", "nextjs", "nuxt",
	"parcel", "remix", "storybook", "sveltekit", "vite", "webpack-dev-server"}

// runs is what a process runs, for the port it is given.
type runs struct {
	command string
	env     map[string]string
	// notes become comment lines above the process.
	notes []string
}

// proxies are the presets of reverse proxies, which nothing waits for.
var proxies = []string{"caddy", "nginx"}

// process is one process init proposes.
type process struct {
	name string
	// run builds what the process runs for the port it gets (0 if none),
	// so that a moved port reaches the program.
	run func(port int) runs
	// cwd is the working folder relative to the project, slash-separated;
	// "" is the project folder.
	cwd string
	// port is the port wanted, then the one given; portNote says where it
	// comes from, for a comment beside it.
	port     int
	portNote string
	// movable is true when the program follows a port other than the one
	// wanted (its command takes it, or it reads PORT).
	movable bool
	// portFixed marks a port the command or script names itself: the
	// project's other files do not change it.
	portFixed bool
	// ownPort is the port the program picks by itself, with no flag.
	ownPort int
	tier    tier
	// preset is the detected preset (nil: none) and reason why.
	preset *frameworks.Preset
	reason string
	// source says where the process was found, e.g. `Procfile line 3`;
	// kind names what was found (node, django, rails, go), for names.
	source string
	kind   string
	// notes are comment lines written above the process, after the
	// notes of run.
	notes     []string
	dependsOn []string
	// composeDeps are docker-compose depends_on names, kept when they are
	// processes too.
	composeDeps []string
	// settings are KEY=value lines the process is configured with (its
	// compose service's environment), read as evidence of what it uses.
	settings []string
	// fromCompose marks a process built from a compose service's source.
	fromCompose bool
	// optional marks a dev-only tool (a mail catcher): nothing waits for it.
	optional bool
	// task marks a one-shot step (kind: task); taskDeps are the tasks this
	// process waits to have completed.
	task     bool
	taskDeps []string
	// script is the package.json script a node process runs, and pkg its
	// package.json (nil for other kinds).
	script string
	pkg    *frameworks.PackageJSON
	// watch are the globs (relative to procs.yaml) whose changes restart
	// a program that does not reload by itself (go run).
	watch []string
	// runtime is the runtime the program runs on when its preset is that
	// runtime's (frameworks.Detection.Runtime), "" otherwise.
	runtime string
	// framework, when set, is written as framework: ("none" for a worker
	// that procs up would take for the server of its folder's preset).
	framework string
	// disabled is written as disabled: true (a process init could not
	// decide on, kept so that the file is not empty).
	disabled bool
}

// commandLine is the command for the port the process was given.
func (p *process) commandLine() string { return p.run(p.port).command }

// why is a one-line reason for the summary init prints.
func (p *process) why() string {
	if p.preset == nil {
		return "no preset, from " + p.source
	}
	if p.runtime != "" {
		return fmt.Sprintf("a %s program (%s's preset), from %s", p.runtime, p.preset.Name, p.source)
	}
	return fmt.Sprintf("%s, from %s", p.preset.Name, p.source)
}

// plan gathers the processes of one project before they are written.
type plan struct {
	dir     string
	procs   []*process
	skipped []string
	// envFile is true when .env beside procs.yaml is loaded for every process.
	envFile bool
	// dataDirs are the data folders given to services.
	dataDirs map[string]bool
	// composeTasks are the compose services others wait to have completed
	// (depends_on: condition: service_completed_successfully).
	composeTasks map[string]bool
	// workspace is the dev container's own service, whose environment and
	// depends_on are those of the processes run in it.
	workspace *process
	// deployWeb is a Procfile's production web line, held back for a dev
	// command found elsewhere (used when none is).
	deployWeb *process
	// release is the Procfile's release task, if any.
	release string
	// undecided are processes init could not decide on, written
	// commented out with the question to answer.
	undecided []undecided
}

// undecided is a process written commented out, for the user to decide.
type undecided struct {
	question string
	p        *process
}

// detect fills the preset and tier of p from its command, as procs up will.
func (pl *plan) detect(p *process) {
	det, ok := frameworks.Detect(p.commandLine(), nil, filepath.Join(pl.dir, filepath.FromSlash(p.cwd)))
	if ok {
		// A runtime's preset for a program that runs on it (hardhat on
		// node) comes with no default port (runtimeVariant), so no port
		// is guessed for it below.
		p.preset, p.reason, p.runtime = det.Preset, det.Reason, det.Runtime
	}
	p.tier = tierBackEnd
	switch {
	case p.preset == nil:
	case slices.Contains(proxies, p.preset.Name):
		p.tier = tierProxy
	case p.preset.Category == frameworks.CategoryService:
		p.tier = tierService
	case slices.Contains(frontEnds, p.preset.Name):
		p.tier = tierFrontEnd
	}
}

// add appends p under a name no other process has.
func (pl *plan) add(p *process, alternatives ...string) {
	p.name = pl.freeName(append([]string{p.name}, alternatives...))
	pl.procs = append(pl.procs, p)
}

var notNameChars = lazyregexp.New(`[^A-Za-z0-9_.-]+`)

// freeName returns the first candidate that is a valid process name not
// yet used, or the first with a number added.
func (pl *plan) freeName(candidates []string) string {
	var valid []string
	for _, c := range candidates {
		c = strings.Trim(notNameChars.ReplaceAllString(c, "-"), "_.-")
		if c != "" {
			valid = append(valid, c)
		}
	}
	if len(valid) == 0 {
		valid = []string{"app"}
	}
	for _, c := range valid {
		if pl.find(c) == nil {
			return c
		}
	}
	for n := 2; ; n++ {
		if c := fmt.Sprintf("%s-%d", valid[0], n); pl.find(c) == nil {
			return c
		}
	}
}

func (pl *plan) find(name string) *process {
	for _, p := range pl.procs {
		if p.name == name {
			return p
		}
	}
	return nil
}

// skip records something found but not written.
func (pl *plan) skip(format string, args ...any) {
	pl.skipped = append(pl.skipped, fmt.Sprintf(format, args...))
}

// order sorts services first, then back ends (tasks first), then front
// ends, then proxies, keeping the order they were found in within each tier.
func (pl *plan) order() {
	slices.SortStableFunc(pl.procs, func(a, b *process) int {
		if a.tier == b.tier && a.task != b.task {
			if a.task {
				return -1 // a migration is written above the server that waits for it
			}
			return 1
		}
		return int(a.tier) - int(b.tier)
	})
}

// inferDependencies gives each process what it waits for, from evidence
// only: services keep the depends_on of their compose file; back ends and
// workers wait for what their compose service depends on and what their
// settings connect to (a database URL, a broker, a client library); a
// migration waits for the databases only; a front end waits for the API
// its proxy or env calls; asset watchers and builds wait for nothing.
func (pl *plan) inferDependencies() {
	for _, p := range pl.procs {
		switch {
		case p.tier == tierService:
			p.dependsOn = pl.composeDependencies(p)
		case p.tier == tierProxy, isAssetWatcher(p):
		default:
			deps := pl.composeDependencies(p)
			var more []string
			if pl.workspace != nil && !p.fromCompose && p.cwd == "" && !p.task {
				more = pl.workspace.composeDeps
			}
			text, configured := pl.evidence(p)
			used := pl.usedProcesses(p, text, p.task)
			if !configured && len(p.composeDeps) == 0 {
				used = append(used, pl.guessDependencies(p)...)
			}
			for _, d := range append(more, used...) {
				if !slices.Contains(deps, d) {
					deps = append(deps, d)
				}
			}
			p.dependsOn = slices.DeleteFunc(deps, func(d string) bool { return slices.Contains(p.taskDeps, d) })
		}
	}
}

// guessDependencies is what p waits for when no file says what it
// connects to: a back end the services, a front end the back-end servers;
// a comment says it is a guess.
func (pl *plan) guessDependencies(p *process) []string {
	var deps []string
	for _, q := range pl.procs {
		switch {
		case q == p || q.optional || q.task:
		case p.tier == tierFrontEnd && q.tier == tierBackEnd && q.preset != nil && q.preset.Category == frameworks.CategoryDevServer:
			deps = append(deps, q.name)
		case p.tier == tierBackEnd && q.tier == tierService && (!p.task || slices.Contains(databases, presetName(q))):
			deps = append(deps, q.name)
		}
	}
	if len(deps) > 0 {
		p.notes = append(p.notes, "dependsOn is a guess: no env or config file says what it connects to")
	}
	return deps
}

// composeDependencies are p's compose depends_on that are processes.
func (pl *plan) composeDependencies(p *process) []string {
	var deps []string
	for _, dep := range p.composeDeps {
		if d := pl.find(dep); d != nil && d != p && !slices.Contains(deps, dep) {
			deps = append(deps, dep)
		}
	}
	return deps
}

// dropCoveredApps removes the apps guessed from a folder's files (those
// from index from on) that a compose service built from the same folder
// runs already, with the command its developers wrote.
func (pl *plan) dropCoveredApps(from int) {
	guesses := slices.Clone(pl.procs[from:])
	for _, guess := range guesses {
		for _, c := range pl.procs[:from] {
			if c.fromCompose && !c.task && c.cwd == guess.cwd && c.kind == guess.kind {
				pl.skip("%s: %s runs %s as its compose service does", guess.source, c.name, displayDir(c.cwd))
				pl.procs = slices.DeleteFunc(pl.procs, func(p *process) bool { return p == guess })
				break
			}
		}
	}
}

// checkEnvFile loads .env for every process, as foreman does, when the
// project has one procs can read.
func (pl *plan) checkEnvFile() {
	if !exists(pl.dir, ".env") {
		return
	}
	if _, err := godotenv.Read(filepath.Join(pl.dir, ".env")); err != nil {
		pl.skip(".env: not in dotenv format (KEY=value lines), so not loaded: fix it, then add envFile: .env")
		return
	}
	pl.envFile = true
}

// exists reports whether the file rel exists under dir.
func exists(dir string, rel ...string) bool {
	_, err := os.Stat(filepath.Join(append([]string{dir}, rel...)...))
	return err == nil
}
