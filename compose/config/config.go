// Package config turns procs.yaml (with procs.override.yaml, a Procfile,
// PROCS_* variables, --set flags and .env files) into a checked, immutable
// *Config that remembers where each value came from, and owns the dependency
// graph built from it. Errors name the file, line, column and key path.
//
// It must not import the engine (compose) or the control plane
// (compose/control): they depend on it, never the other way round.
package config

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Config is a whole procs.yaml after layering, expansion and validation.
type Config struct {
	// Schema is the optional "$schema" reference editors use; procs ignores it.
	Schema string `json:"$schema,omitempty" jsonschema_description:"JSON Schema reference for editors; ignored by procs"`
	// Env holds variables set for every process.
	Env map[string]string `json:"env,omitempty" jsonschema_description:"Environment variables for every process. Values may use ${VAR} and ${VAR:-default}."`
	// EnvFile names a dotenv file loaded for every process.
	EnvFile string `json:"envFile,omitempty" jsonschema_description:"A dotenv file (KEY=value lines) loaded for every process, relative to procs.yaml."`
	// Procs holds the processes by name.
	Procs map[string]*Proc `json:"procs" jsonschema_description:"The processes to run, by name."`
	// UI configures the web dashboard (procs ui).
	UI *UIConfig `json:"ui,omitempty" jsonschema_description:"The web dashboard of procs ui."`
	// Logs is the log retention of every process without its own.
	Logs *Logs `json:"logs,omitempty" jsonschema_description:"How much output the log files in .procs/logs keep, for every process: {maxSize, keep}. A process's own logs: overrides it."`
	// Resources are the limits of every process without its own.
	Resources *Resources `json:"resources,omitempty" jsonschema_description:"Limits of every process's runs: {memory, cpu, pids}. A process's own resources: overrides it key by key. Enforced on Linux with cgroups; elsewhere procs warns."`

	// File is the absolute path of the main config file (not part of the format).
	File string `json:"-"`
	// Dir is the folder of the main config file; relative paths resolve from it.
	Dir string `json:"-"`
	// DotEnv is the .env file beside the config, loaded for every process
	// below envFile and env; "" when there is none.
	DotEnv string `json:"-"`
	// Warnings are problems that do not stop procs, such as a ${VAR} that
	// is not set; procs check prints them.
	Warnings ConfigErrors `json:"-"`

	// declared are the processes as procs.yaml declares them, before each
	// replicated one is expanded into its instances in Procs (replicas.go).
	declared map[string]*Proc
}

// FileName is the base name of the file the config came from
// ("procs.yaml"), for messages; "the config" when it came from none.
func (c *Config) FileName() string {
	if c.File == "" {
		return "the config"
	}
	return filepath.Base(c.File)
}

// Names returns the process names in sorted order, the instances of a
// replicated process by number (worker-2 before worker-10).
func (c *Config) Names() []string {
	// Sorted by keys read once per process, where compareNames looks both
	// processes up on each of the thousands of comparisons that order two
	// hundred of them; Names is asked for several times before a start.
	keys := make([]nameKey, 0, len(c.Procs))
	for name, p := range c.Procs {
		keys = append(keys, keyOf(name, p))
	}
	slices.SortFunc(keys, nameKey.compare)
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = k.name
	}
	return names
}

// compareNames orders process names: by name, the instances of a
// replicated process by number.
func (c *Config) compareNames(x, y string) int {
	a, b := c.Procs[x], c.Procs[y]
	if a == nil || b == nil {
		return strings.Compare(x, y)
	}
	return keyOf(x, a).compare(keyOf(y, b))
}

// nameKey is what orders a process name (compareNames).
type nameKey struct {
	group string
	index int
	name  string
}

func keyOf(name string, p *Proc) nameKey { return nameKey{p.Group(), p.Replica.Index, name} }

func (k nameKey) compare(o nameKey) int {
	return cmp.Or(strings.Compare(k.group, o.group), cmp.Compare(k.index, o.index), strings.Compare(k.name, o.name))
}

// Kind says whether a process is a long-running service or a one-shot task.
type Kind string

// The process kinds.
const (
	KindService Kind = "service"
	KindTask    Kind = "task"
)

// Proc is the configuration of one process.
type Proc struct {
	Command             Command           `json:"command" jsonschema_description:"What to run. A string runs through sh -c; a list runs as argv without a shell."`
	Cwd                 string            `json:"cwd,omitempty" jsonschema_description:"Working directory, relative to procs.yaml. Must exist."`
	Env                 map[string]string `json:"env,omitempty" jsonschema_description:"Environment variables for this process; they override the global env."`
	EnvFile             string            `json:"envFile,omitempty" jsonschema_description:"A dotenv file for this process, relative to procs.yaml."`
	Kind                Kind              `json:"kind,omitempty" jsonschema:"enum=service,enum=task,default=service" jsonschema_description:"service runs until stopped; task is one-shot and is completed when it exits 0."`
	Description         string            `json:"description,omitempty" jsonschema_description:"What the process is for, in a sentence: the MCP tool of a task says it to agents."`
	Args                []Arg             `json:"args,omitempty" jsonschema_description:"The arguments a task takes (procs run NAME --arg name=value, and its MCP tool): a list of {name, type, description, required, default}. Each reaches the command as $NAME (the name upper-cased) and where it writes {{args.name}}, quoted."`
	Schedule            *Schedule         `json:"schedule,omitempty" jsonschema_description:"Run this task on time: {cron, timezone} or {every}, with runOnStart. procs up leaves it to its schedule; procs run still runs it now. A time missed while procs was down is not run later."`
	DependsOn           Dependencies      `json:"dependsOn,omitempty" jsonschema_description:"Processes this one waits for. A list means each must be ready; a map gives a condition (started, ready, completed) or {condition, restart}."`
	Port                int               `json:"port,omitempty" jsonschema:"minimum=1,maximum=65535" jsonschema_description:"TCP port the process listens on: checked free before start, exported as PORT, and used by readiness (port.open)."`
	Framework           string            `json:"framework,omitempty" jsonschema_description:"Built-in preset to use (see procs frameworks). auto (the default) detects it from the command and project files; none disables presets."`
	ReadyPatterns       []string          `json:"readyPatterns,omitempty" jsonschema_description:"RE2 regexes; a line (ANSI-stripped) matching one means ready. Extends the preset's."`
	ErrorPatterns       []string          `json:"errorPatterns,omitempty" jsonschema_description:"RE2 regexes; a line matching one means failed while starting, and unhealthy once ready (until a ready line comes back, or a request served with success). Extends the preset's."`
	NotReadyPatterns    []string          `json:"notReadyPatterns,omitempty" jsonschema_description:"RE2 regexes for lines that block startup, such as an interactive prompt. Extends the preset's."`
	Ready               string            `json:"ready,omitempty" jsonschema_description:"An expr rule that must also hold for readiness, e.g. port.open && log.matches(\"listening\")."`
	ReadyTimeout        Duration          `json:"readyTimeout,omitempty" jsonschema_description:"How long the process may take to become ready before it is failed with reason timeout (e.g. 30s)."`
	StabilityDelay      Duration          `json:"stabilityDelay,omitempty" jsonschema_description:"How long the ready condition must hold without an error before the process counts as ready (e.g. 300ms)."`
	Restart             RestartPolicy     `json:"restart,omitempty" jsonschema_description:"When to restart the process after it ends: a policy word (no, on-failure, always) or {policy, maxRestarts, backoff}."`
	Healthcheck         *Healthcheck      `json:"healthcheck,omitempty" jsonschema_description:"A probe: the process is ready only once it passes (as well as what else says ready: its line, its port), and its result is http.status or exec.ok in the ready rule; once ready, consecutive failures make the process unhealthy."`
	Shutdown            Shutdown          `json:"shutdown,omitempty" jsonschema_description:"How to stop the process."`
	PTY                 PTY               `json:"pty,omitempty,omitzero" jsonschema_description:"Run the process in a pseudo-terminal (colour, prompts, input): true, or {cols, rows} for its window size (default 120x40)."`
	AutoRespond         []AutoRespond     `json:"autoRespond,omitempty" jsonschema_description:"Answers sent automatically when a line, or the screen of a PTY process, matches: for known dialogs."`
	Interactive         *bool             `json:"interactive,omitempty" jsonschema_description:"Classify the process by its screen as a program driven through its terminal (agent CLI, shell, REPL): ready at its prompt, busy, awaiting-input, awaiting-permission. Implies pty. Interactive presets set it; false turns it off."`
	BusyPatterns        []string          `json:"busyPatterns,omitempty" jsonschema_description:"RE2 regexes for screen rows shown while an interactive process works (a spinner); while one shows, its prompt is not idle. Extends the preset's."`
	QuestionPatterns    []string          `json:"questionPatterns,omitempty" jsonschema_description:"RE2 regexes for screen rows of a question waiting for an answer (awaiting-input). Extends the preset's."`
	PermissionPatterns  []string          `json:"permissionPatterns,omitempty" jsonschema_description:"RE2 regexes for screen rows of a permission dialog (awaiting-permission). Extends the preset's."`
	RecoverablePatterns []string          `json:"recoverablePatterns,omitempty" jsonschema_description:"RE2 regexes for screen rows of an error the program retries by itself (a rate limit): failed, but recoverable. Extends the preset's."`
	Agent               *Agent            `json:"agent,omitempty" jsonschema_description:"Run an agent CLI in its JSON mode and take its state, answer and spending from the protocol's events, not its screen: {protocol: claude-stream-json|codex-json|gemini-stream-json|opencode-json}. Recognised without this key from a command that asks for JSON mode (claude --output-format stream-json, codex exec --json, gemini --output-format stream-json, opencode run --format json)."`
	CompleteWhen        string            `json:"completeWhen,omitempty" jsonschema_description:"For an agent: text (e.g. <promise>DONE</promise>) whose appearance in its answer ends its onIdle cycles as completed."`
	OnIdle              *OnIdle           `json:"onIdle,omitempty" jsonschema_description:"Inputs sent when an interactive process has been idle at its prompt for a while, one by one, each once it is idle again."`
	Profiles            []string          `json:"profiles,omitempty" jsonschema_description:"Start the process with procs up only when one of these profiles is active (procs up --profile NAME, PROCS_PROFILES=a,b); a process without profiles always starts. procs up NAME and dependencies of a started process start whatever their profiles."`
	Disabled            bool              `json:"disabled,omitempty" jsonschema_description:"Do not start the process with procs up; procs start and procs run still can."`
	Watch               *Watch            `json:"watch,omitempty" jsonschema_description:"Restart the process when files change: a list of paths or globs relative to procs.yaml, or {paths, ignore, debounce}. .git, node_modules, .procs and __pycache__ are ignored."`
	Logs                *Logs             `json:"logs,omitempty" jsonschema_description:"How much output this process's log files keep: {maxSize, keep}, over the top-level logs:."`
	Resources           *Resources        `json:"resources,omitempty" jsonschema_description:"Limits of this process's runs, over the top-level resources: key by key: {memory: 512M, cpu: 1.5, pids: 200}. Enforced on Linux with cgroups; elsewhere procs warns."`
	Replicas            int               `json:"replicas,omitempty" jsonschema:"minimum=1" jsonschema_description:"Run this many instances, NAME-1 to NAME-N, each with its own run, state, log and restart policy; {{.Replica}} and ${PROCS_REPLICA} in command and env are the instance's number (from 1), and a port gives instance i port+i-1. A dependency on NAME waits for every instance. procs up --scale NAME=N and procs scale NAME=N override it."`

	// Name is the key of the process in procs (not part of the format).
	Name string `json:"-"`
	// Replica says which instance of a replicated process this is; zero
	// for a process without replicas (not part of the format).
	Replica Replica `json:"-"`
	// portReader is where a value other than a shell command read ${PORT}
	// as the process's port, nil if none did: expanded once, at load, it
	// would be the first instance's port in every instance of the process
	// scaled, so Scaled refuses to scale it.
	portReader *ConfigError
}

// IsTask reports whether the process is a one-shot task.
func (p *Proc) IsTask() bool { return p.Kind == KindTask }

// Command is what a process runs: a shell string or an argv list.
type Command struct {
	// Shell is run with sh -c when set.
	Shell string
	// Argv is run directly when set.
	Argv []string
}

// IsZero reports whether no command is set.
func (c Command) IsZero() bool { return c.Shell == "" && len(c.Argv) == 0 }

// Args returns the argv to execute.
func (c Command) Args() []string {
	if c.Shell != "" {
		return []string{"sh", "-c", c.Shell}
	}
	return c.Argv
}

// String returns the command as a user would type it.
func (c Command) String() string {
	if c.Shell != "" {
		return c.Shell
	}
	return strings.Join(c.Argv, " ")
}

// Condition is what a dependent waits for.
type Condition string

// The dependency conditions.
const (
	ConditionStarted   Condition = "started"
	ConditionReady     Condition = "ready"
	ConditionCompleted Condition = "completed"
)

// Dependency is one entry of dependsOn.
type Dependency struct {
	// Name is the process depended on.
	Name string `json:"-"`
	// Condition is what the dependent waits for (default ready).
	Condition Condition `json:"condition,omitempty" jsonschema:"enum=started,enum=ready,enum=completed,default=ready" jsonschema_description:"started: the process is running; ready: it is ready; completed: the task exited 0."`
	// Restart restarts the dependent when the dependency restarts.
	Restart bool `json:"restart,omitempty" jsonschema_description:"Restart this process whenever the dependency restarts."`
	// Via is the replicated process this dependency was declared on, when
	// Name is one of its instances; "" otherwise.
	Via string `json:"-"`
}

// Dependencies is dependsOn, sorted by name.
type Dependencies []Dependency

// RestartPolicyName is when a process is restarted after it ends.
type RestartPolicyName string

// The restart policies.
const (
	RestartNo        RestartPolicyName = "no"
	RestartOnFailure RestartPolicyName = "on-failure"
	RestartAlways    RestartPolicyName = "always"
)

// RestartPolicy is the restart setting of a process.
type RestartPolicy struct {
	Policy      RestartPolicyName `json:"policy,omitempty" jsonschema:"enum=no,enum=on-failure,enum=always,default=no" jsonschema_description:"no: never restart; on-failure: restart after a crash or failure; always: restart whenever it ends."`
	MaxRestarts int               `json:"maxRestarts,omitempty" jsonschema:"minimum=0" jsonschema_description:"Give up after this many consecutive restarts (0 means no limit)."`
	Backoff     BackoffRange      `json:"backoff,omitempty" jsonschema_description:"Delay before a restart, doubling from min to max: e.g. 500ms..30s."`
}

// BackoffRange is an exponential backoff from Min doubling up to Max.
type BackoffRange struct {
	Min time.Duration
	Max time.Duration
}

// IsZero reports whether the range is unset.
func (b BackoffRange) IsZero() bool { return b.Min == 0 && b.Max == 0 }

// String formats the range as "min..max".
func (b BackoffRange) String() string {
	return fmt.Sprintf("%s..%s", b.Min, b.Max)
}

// Healthcheck is a probe run periodically once the process is ready.
type Healthcheck struct {
	HTTP     string   `json:"http,omitempty" jsonschema_description:"URL to GET; a status below 400 is healthy."`
	Exec     Command  `json:"exec,omitempty" jsonschema_description:"Command to run, in the process's own environment (its env:, PORT, env files), as docker compose runs a healthcheck in its container; exit 0 is healthy. A string runs with sh -c, and ${PORT} in it is each instance's own."`
	TCP      string   `json:"tcp,omitempty" jsonschema_description:"host:port to connect to; a connection is healthy."`
	Interval Duration `json:"interval,omitempty" jsonschema_description:"Time between probes (default 5s)."`
	Timeout  Duration `json:"timeout,omitempty" jsonschema_description:"Time one probe may take (default 2s)."`
	Failures int      `json:"failures,omitempty" jsonschema:"minimum=1" jsonschema_description:"Consecutive failures before the process is unhealthy (default 3)."`
}

// Shutdown says how a process is stopped.
type Shutdown struct {
	Signal  string   `json:"signal,omitempty" jsonschema:"default=SIGTERM" jsonschema_description:"Signal sent to the process group to stop it (e.g. SIGTERM, SIGINT)."`
	Timeout Duration `json:"timeout,omitempty" jsonschema_description:"How long to wait after the signal before SIGKILL (default 10s)."`
}

// AutoRespond sends input when a line matches, to answer a known dialog.
type AutoRespond struct {
	Match    string `json:"match" jsonschema_description:"RE2 regex matched against each ANSI-stripped line."`
	Send     string `json:"send,omitempty" jsonschema_description:"Text written to the process when the line matches (use \\r for Enter). Give send or choose."`
	Choose   string `json:"choose,omitempty" jsonschema_description:"For a menu on a PTY screen: the text of the option to pick (e.g. Yes, I trust this folder). procs moves the selection to it with the arrow keys, then presses Enter, whatever the default is."`
	Once     bool   `json:"once,omitempty" jsonschema_description:"Answer only the first time per run."`
	MaxTimes int    `json:"maxTimes,omitempty" jsonschema:"minimum=0" jsonschema_description:"Answer at most this many times per run (0 means no limit)."`
}

// PTY says whether a process runs in a pseudo-terminal, and its window size.
// In the file it is a boolean or {cols, rows} (which turns it on).
type PTY struct {
	// Enabled runs the process in a pseudo-terminal.
	Enabled bool
	// Cols and Rows are the window size (0: 120 and 40).
	Cols, Rows int
	// Set is true when the config says pty at all; unset, the preset decides
	// (interactive presets run in a PTY).
	Set bool
}

// IsZero reports whether pty is not set.
func (p PTY) IsZero() bool { return !p.Set && !p.Enabled && p.Cols == 0 && p.Rows == 0 }

// OnIdle sends inputs to an interactive process once it has been idle at its
// prompt for After: each input followed by Enter, the next one once the
// process is idle again; a run of all the inputs is a cycle.
type OnIdle struct {
	After     Duration `json:"after" jsonschema_description:"How long the process must be idle (ready) before a cycle starts, e.g. 30s."`
	Send      []string `json:"send" jsonschema_description:"Inputs sent one by one, each followed by Enter, each once the process is ready again."`
	MaxCycles int      `json:"maxCycles,omitempty" jsonschema:"minimum=0" jsonschema_description:"Stop after this many cycles (0 means no limit)."`
}

// Duration is a time.Duration written in Go syntax (300ms, 1.5s, 2m).
type Duration time.Duration

// D returns the value as a time.Duration.
func (d Duration) D() time.Duration { return time.Duration(d) }

// String formats the duration in Go syntax.
func (d Duration) String() string { return time.Duration(d).String() }
