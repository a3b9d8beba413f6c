// Package frameworks holds the built-in presets: how to recognise a common
// server or tool and how it says it is ready or has failed.
//
// Each preset is one YAML file in presets/, embedded in the binary and
// loaded once. Patterns are RE2 regexes matched against the ANSI-stripped
// text of each output line, and each comes from the real output of the
// program (captures in testdata/captures, or the program's source).
//
// # Detection
//
// Detect picks the preset of a process from its command line and its
// working directory, in this order; the first step that finds a preset wins:
//
//  1. The command: a preset's detect.command regexes are matched against the
//     command line, after `sh -c '...'`, `su -c '...'`, leading VAR=value
//     assignments, wrappers (sudo, runuser, setpriv, env, nice, timeout,
//     exec, npx, bundle exec, uv run, poetry run, ...) and `cd DIR &&` are
//     taken off (so `cd web && vite` is the command `vite` in ./web). A
//     match must start in the program's own word, or for an interpreter
//     (python, node, ruby, php, java, mvn, ...) in its options up to its
//     script or module: an option's value never names the program
//     (`psql -U postgres` is not the server), and a client tool (psql,
//     initdb, redis-cli, mysql, ...) gets no preset at all. When several
//     presets match, the match that starts earliest wins, then the longest.
//  2. package.json in the working directory: `npm run X`, `npm start`,
//     `yarn X`, `pnpm X` and `bun run X` run the script X, whose own command
//     goes through step 1 (`npm run dev` → "next dev" → nextjs); a script
//     that names no preset, or a package-manager or node command, falls back
//     to the dependencies and devDependencies (detect.packageJson); for a
//     node command (`node server.js`), only to those of a library the
//     program loads (detect.loaded: express, not vite).
//     `npx X`, `bunx X`, `pnpm dlx X` and `yarn dlx X` are the command X.
//  3. Files in the working directory (detect.files: any group, every file of
//     the group), only when the command's program is one of the preset's
//     detect.runners, so that `sleep 1` in a Django project is not Django.
//  4. Fallback presets (detect.fallback: true), whose command regexes name a
//     bare runtime (`node app.js`) and so must not beat what package.json
//     or the files say.
//  5. The runtime the program runs on, from its first line, when it is
//     node, python, bun or deno (runtime.go): an npm package's command
//     (json-server, hardhat), found in node_modules/.bin as an npm
//     script's shell finds it, or a pip-installed script (mkdocs) gets
//     the runtime's generic preset (Detection.Runtime says so).
//
// A command that none of these recognise (`sh -c 'sleep 1'` in a plain
// folder) detects nothing.
//
// It imports no procs package but internal/lazyregexp: the engine and procs init read the presets,
// and the presets know nothing of either.
package frameworks

import (
	"time"
)

// Categories a preset can have.
const (
	CategoryDevServer = "dev-server"
	CategoryService   = "service"
	CategoryGeneric   = "generic"
)

// Preset is a built-in description of one program: how to recognise it and
// how its output says it is ready or has failed.
type Preset struct {
	Name        string
	Description string
	// Category is dev-server, service or generic.
	Category string
	Detect   DetectSpec
	// AgentPatterns classify the screen of an interactive program.
	AgentPatterns
	// ReadyPatterns, ErrorPatterns and NotReadyPatterns are RE2 regexes
	// matched against the ANSI-stripped text of each line.
	ReadyPatterns    []string
	ErrorPatterns    []string
	NotReadyPatterns []string
	// ReloadPatterns and RecoveredPatterns tell a dev server's reloader
	// starting the app again after a change, and the app serving again
	// (rules.Spec says how they bring an unhealthy run back).
	ReloadPatterns    []string
	RecoveredPatterns []string
	// DefaultPort is the port the program listens on when not told (0: none).
	DefaultPort int
	// PortFlag is the flag that sets the port (e.g. "--port"), PortEnv the
	// environment variable (e.g. "PORT"); either may be empty.
	PortFlag string
	PortEnv  string
	// PortArgAfter is the word after which the port is the first number
	// among the arguments ("http.server": python3 -m http.server 8000);
	// "" when the program takes no port argument.
	PortArgAfter string
	// DefaultHost is the address the program listens on when not told,
	// "" when unknown or all of them; HostFlags are the flags (or the
	// subcommand, as runserver is) whose value sets it, HostEnv the
	// variable. A dev server that listens on the loopback address by
	// default cannot be reached from outside a container (HostOf).
	DefaultHost string
	HostFlags   []string
	HostEnv     string
	// Env is added to the process environment (under its own env).
	Env map[string]string
	// ReadyTimeout is how long the program may take to become ready.
	ReadyTimeout time.Duration
	// StabilityDelay is how long it must stay ready-and-error-free, for
	// programs known to print their ready line and then fail.
	StabilityDelay time.Duration
	// StabilityEvidence names the recorded runs (captures, as
	// "express/port-in-use" or "rules/go/port-in-use") that failed inside
	// the stability delay after their ready line: a preset has a delay only
	// where one shows it is needed, since every restart waits for it.
	StabilityEvidence []string
	// DaemonizesUnless marks a program that puts itself in the background
	// by default (nginx): regexes, one of which a command that keeps it in
	// the foreground matches (daemon off). It may open its port a moment
	// before the command procs started exits 0, leaving its daemon: see
	// MayDaemonize.
	DaemonizesUnless []string
	// Interactive marks programs driven through a PTY (agent CLIs, shells).
	Interactive bool
	// ReadyWhenListening marks programs that may print nothing when ready
	// (nginx, memcached, a net/http server): for a process with no port,
	// ready rule or ready pattern of its own, its process tree listening
	// on a TCP port counts as ready, as a ready line does.
	ReadyWhenListening bool
	// ReadyLineBeforeListen marks programs that print their ready line
	// before they bind (NestJS logs "Nest application successfully
	// started", then listens; a taken port fails after the line): a ready
	// line that names no port counts once the process tree listens on a
	// TCP port.
	ReadyLineBeforeListen bool
	// Probe asks the server whether it serves (nil when the preset has
	// none): once its process tree listens on the probe's port, the run is
	// ready only when the probe passes, and once ready the probe is its
	// healthcheck. A healthcheck in procs.yaml replaces it.
	Probe *Probe
	// AssumeReadyAfter is for generic runtimes (go run, node app.js), which
	// may run a server or a worker: a process with no readiness setting of
	// its own that has shown no ready line, no listening port and no error
	// after this long is assumed ready, instead of failing a timeout.
	AssumeReadyAfter time.Duration
	// Sources says where the patterns come from: captures recorded here
	// ("captures redis/*"), shared fixtures, or the program's source files.
	Sources []string
}

// DetectSpec says how to recognise a preset's program.
type DetectSpec struct {
	// Command holds regexes matched against the command line.
	Command []string
	// Files holds groups of paths relative to the working directory; a
	// group matches when all of its files exist.
	Files [][]string
	// Runners are the programs (base names) that may run a project found by
	// Files, e.g. python for manage.py.
	Runners []string
	// PackageJSON names npm packages in dependencies or devDependencies.
	PackageJSON []string
	// Loaded says those packages are libraries the program itself loads
	// (express, @nestjs/core): `node server.js` takes this preset from
	// the dependencies. Without it they are tools run by a command of
	// their own (vite, next), which a script or npx runs: a project's
	// server file beside them is not their dev server.
	Loaded bool
	// Fallback defers the Command regexes until after package.json and
	// files, for regexes that only name a runtime.
	Fallback bool
	// Refines names a preset this one specialises: when detection picks
	// that one in a project whose package.json names one of PackageJSON,
	// it picks this one (SvelteKit runs `vite dev`).
	Refines string
}

// All returns every built-in preset, sorted by name. Callers must not
// modify them.
func All() []*Preset {
	return loaded().sorted
}

// Lookup returns the preset called name.
func Lookup(name string) (*Preset, bool) {
	p, ok := loaded().byName[name]
	return p, ok
}

// Known reports whether name is a built-in preset, or one of the special
// values "auto" and "none".
func Known(name string) bool {
	if name == "auto" || name == "none" || name == "" {
		return true
	}
	_, ok := Lookup(name)
	return ok
}

// Names lists the built-in presets in sorted order.
func Names() []string {
	presets := All()
	names := make([]string, len(presets))
	for i, p := range presets {
		names[i] = p.Name
	}
	return names
}
