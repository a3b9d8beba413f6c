package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBrokenConfigs loads every file of testdata/broken and checks each
// error's position, key path and message, in order.
func TestBrokenConfigs(t *testing.T) {
	files, err := filepath.Glob("testdata/broken/*.yaml")
	require.NoError(t, err)
	require.Len(t, files, len(brokenConfigs), "every broken file has a row in the table")
	for _, tc := range brokenConfigs {
		t.Run(tc.file, func(t *testing.T) {
			checkBroken(t, filepath.Join("testdata", "broken", tc.file+".yaml"), tc.want)
		})
	}
}

// checkBroken loads file and checks each error's position, key path and
// message ("line:col: path: message"), in order.
func checkBroken(t *testing.T, file string, want []string) {
	t.Helper()
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	cfg, err := Parse(file, data, nil)
	require.Error(t, err)
	assert.Nil(t, cfg, "a config with errors never yields a Config")
	var errs ConfigErrors
	require.True(t, errors.As(err, &errs), "want ConfigErrors, got %T: %v", err, err)
	got := make([]string, len(errs))
	for i, e := range errs {
		assert.True(t, filepath.IsAbs(e.File), "File is the absolute path")
		assert.Equal(t, file, displayName(e.File))
		got[i] = fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg)
		if e.Path != "" {
			got[i] = fmt.Sprintf("%d:%d: %s: %s", e.Line, e.Col, e.Path, e.Msg)
		}
		assert.Equal(t, file+":"+got[i], e.Error())
	}
	assert.Equal(t, want, got)
}

var brokenConfigs = []struct {
	file string
	want []string // "line:col: path: message"
}{
	{"autorespond_incomplete", []string{
		`5:9: procs.agent.autoRespond[0]: missing send or choose: the text to write (send: "\r" for Enter), or the option of a menu to pick (choose: "Yes, I trust this folder")`,
		"6:9: procs.agent.autoRespond[1]: missing match: the regex of the line to answer",
	}},
	{"bad_logs", []string{
		`2:12: logs.maxSize: "10XB" is not a size: write a number of bytes with a unit, e.g. 64MiB, 500MB or 1GiB`,
		"3:9: logs.keep: keep -1 is out of range: use a number of rotated files from 0 to 1000",
		"7:21: procs.api.logs.maxSize: maxSize 100 is too small: use at least 1KiB",
		`7:32: procs.api.logs.keep: expected a number, got string "two"`,
		`7:37: procs.api.logs.size: unknown key "size"`,
	}},
	{"bad_resources", []string{
		`2:11: resources.memory: "lots" is not a size: write a number of bytes with a unit, e.g. 64MiB, 500MB or 1GiB`,
		"3:8: resources.cpu: cpu 0 is out of range: use a number of cores above 0, e.g. 0.5 (half of one core) or 2",
		"7:25: procs.api.resources.memory: memory 512KiB is too small: use at least 1MiB",
		"7:36: procs.api.resources.cpu: cpu -1 is out of range: use a number of cores above 0, e.g. 0.5 (half of one core) or 2",
		"7:46: procs.api.resources.pids: pids 0 is out of range: use a number of processes from 1 to 4194304",
		`7:49: procs.api.resources.memroy: unknown key "memroy" (did you mean "memory"?)`,
		`11:12: procs.worker.resources.cpu: expected a number of cores (e.g. 0.5 or 2), got string "many"`,
		"12:13: procs.worker.resources.pids: expected a whole number, got number 2.5",
	}},
	{"bad_backoff", []string{
		`4:41: procs.api.restart.backoff: "30s..1s" ends before it starts: write min..max`,
	}},
	{"bad_condition", []string{
		`7:11: procs.api.dependsOn.db: "healthy" is not a condition (did you mean "ready"?): use started, ready, completed`,
	}},
	{"bad_duration", []string{
		`4:19: procs.api.readyTimeout: "30" is not a duration: give it a unit, e.g. 30s`,
	}},
	// The forms other tools take, or a single value where procs takes a
	// list: each error writes the value as procs takes it.
	{"other_forms", []string{
		`5:7: procs.web.env: expected a mapping (key: value lines), got a list: write each variable as NAME: value, e.g. PORT: "3000"`,
		`6:20: procs.web.readyPatterns: expected a list of strings, got string "ready": write readyPatterns: [ready]`,
		`9:16: procs.api.dependsOn: expected a list of process names, or a mapping of name: condition, got string "web": write dependsOn: [web]`,
		`10:20: procs.api.readyPatterns: expected a list of strings, got string "Listening on .*:\\d+": write readyPatterns: ["Listening on .*:\\d+"]`,
		`11:20: procs.api.errorPatterns: expected a list of strings, got string "true": write errorPatterns: ["true"]`,
		`12:25: procs.api.shutdown.timeout: "1.5" is not a duration: give it a unit, e.g. 1.5s`,
		`15:12: procs.dev.watch: expected a list of strings, got string "**/*.go": write watch: ["**/*.go"]`,
		`18:12: procs.tools.watch: watch needs at least one path or glob, e.g. watch: ["**/*.go"]`,
	}},
	// A glob that matches nothing, ever, is a typo to report, not a watch
	// that never fires.
	{"bad_glob", []string{
		`4:28: procs.api.watch[1]: "[unclosed" is not a glob: a [ must be closed by ] (write \[ for a [ itself)`,
		`9:25: procs.web.watch.ignore[1]: "build/[a-" is not a glob: a [ must be closed by ] (write \[ for a [ itself)`,
	}},
	// A healthcheck's 0s would be taken as its default, not as written.
	{"zero_interval", []string{
		`4:52: procs.api.healthcheck.interval: 0s is no interval: leave interval out for the default, 5s, or give one, e.g. 1s`,
		`4:65: procs.api.healthcheck.timeout: 0ms is no timeout: leave timeout out for the default, 2s, or give one, e.g. 1s`,
	}},
	{"bad_duration_word", []string{
		`4:21: procs.api.stabilityDelay: "soon" is not a duration (e.g. 30s)`,
	}},
	{"bad_env_name", []string{
		`2:3: env.1BAD: invalid variable name "1BAD": use letters, digits and _, not starting with a digit`,
	}},
	{"bad_expansion", []string{
		`3:14: procs.api.command: unclosed "${" in "echo ${GREETING": close it with }, or write $$ for a literal $`,
	}},
	{"bad_profiles", []string{
		`4:15: procs.e2e.profiles: expected a list of strings, got string "e2e": write profiles: [e2e]`,
		`7:16: procs.debug.profiles[0]: empty profile name: use letters, digits, _, . and -, e.g. debug`,
		`7:20: procs.debug.profiles[1]: invalid profile name "my profile": use letters, digits, _, . and -, starting with a letter or digit`,
		`7:34: procs.debug.profiles[2]: expected a string, got number 3`,
	}},
	{"replica_port_var", []string{
		`3:33: procs.worker.command[2]: ${PORT} is each instance's own port, and only a shell command expands it for each (command:, or a healthcheck's exec:, as a string): use it there, or have the program read PORT from its environment`,
		`7:12: procs.worker.env.URL: ${PORT} is each instance's own port, and only a shell command expands it for each (command:, or a healthcheck's exec:, as a string): use it there, or have the program read PORT from its environment`,
	}},
	{"bad_replicas", []string{
		`4:15: procs.zero.replicas: 0 replicas: a process runs 1 instance or more (disabled: true keeps it from starting)`,
		`7:15: procs.word.replicas: expected a number, got string "three"`,
		`10:11: procs.worker.port: port 8002 of worker-3 is also used by api: give each process its own port`,
		`17:15: procs.web.replicas: instance 2 of web would be named web-2, which another process is: rename one of them`,
		`22:11: procs.top.port: top-2 would listen on port 65536, which is no port: use a lower port or fewer replicas`,
	}},
	{"bad_kind", []string{
		`4:11: procs.migrate.kind: "job" is not a process kind: use service, task`,
	}},
	{"bad_name", []string{
		`2:3: procs.my app: invalid process name "my app": use letters, digits, _, . and -, starting with a letter or digit`,
	}},
	{"long_name", []string{
		`2:3: procs.` + strings.Repeat("a", 101) + `: process name is 101 characters long: use at most 100 (it names the process's log file)`,
	}},
	{"bad_regex", []string{
		`6:9: procs.api.readyPatterns[1]: invalid regex "listening (on": missing closing ) (RE2 syntax)`,
	}},
	{"bad_restart", []string{
		`4:14: procs.web.restart: "on_failure" is not a restart policy (did you mean "on-failure"?): use no, on-failure, always`,
	}},
	{"bad_signal", []string{
		`4:25: procs.api.shutdown.signal: "SIGFOO" is not a signal procs can send: use one of SIGHUP, SIGINT, SIGKILL, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGWINCH`,
	}},
	{"bad_pty", []string{
		`4:17: procs.agent.pty.cols: 0 is not a window size: use 1 to 1000 (default 120 columns, 40 rows)`,
		`4:20: procs.agent.pty.height: unknown key "height"`,
		`7:10: procs.repl.pty: expected true, false or {cols, rows}, got number 3`,
	}},
	{"bad_onidle", []string{
		`5:5: procs.agent.onIdle: missing after: how long the process must be idle, e.g. after: 30s`,
		`5:5: procs.agent.onIdle: missing send: the inputs to send, e.g. send: ["/clear", "continue"]`,
		`7:18: procs.agent.onIdle.maxCycles: -1 is negative: use 0 or more`,
		`11:21: procs.shell.onIdle.after: after must be positive, e.g. 30s`,
		`11:43: procs.shell.onIdle.every: unknown key "every"`,
		`12:20: procs.shell.busyPatterns[0]: invalid regex "(": missing closing ) (RE2 syntax)`,
		`15:21: procs.repl.onIdle.after: "2" is not a duration: give it a unit, e.g. 2s`,
	}},
	// onIdle waits for a prompt: on a process that never shows one (no
	// interactive preset or setting, no terminal, an agent CLI that reads
	// no prompts) it did nothing, and procs check said OK.
	{"onidle_not_interactive", []string{
		"4:5: procs.web.onIdle: only an interactive process is idle at a prompt, and web is not one: add interactive: true to web, or use an agent, shell or REPL preset (framework:, see procs frameworks)",
		"8:5: procs.quiet.onIdle: only an interactive process is idle at a prompt, and quiet has interactive: false: remove it, or remove onIdle",
		"13:5: procs.headless.onIdle: only a process in a terminal shows a prompt to be idle at, and headless has pty: false: remove it, or remove onIdle",
		"16:5: procs.review.onIdle: review's agent CLI (codex-json) takes its one prompt on its command line and reads no input: remove onIdle, or run a session that reads prompts (claude -p --input-format stream-json --output-format stream-json)",
		`19:5: procs.oneshot.onIdle: oneshot runs the one prompt of its command line (--output-format stream-json without --input-format stream-json) and reads no input: add --input-format stream-json to its command, or remove onIdle`,
	}},
	{"screen_patterns_not_interactive", []string{
		"4:5: procs.worker.busyPatterns: busyPatterns classify the screen of an interactive process, and worker is not one: add interactive: true to worker, or remove busyPatterns",
		"5:5: procs.worker.questionPatterns: questionPatterns classify the screen of an interactive process, and worker is not one: add interactive: true to worker, or remove questionPatterns",
		"9:5: procs.quiet.permissionPatterns: permissionPatterns classify the screen of an interactive process, and quiet is not one: add interactive: true to quiet, or remove permissionPatterns",
	}},
	{"bool_string", []string{
		`4:10: procs.agent.pty: expected true or false, got string "yes"`,
	}},
	{"command_wrong_type", []string{
		"3:14: procs.api.command: expected a string or a list of strings, got a mapping",
	}},
	{"completed_on_service", []string{
		"7:14: procs.api.dependsOn.build: condition completed needs build to be a task: add kind: task to build, or wait for ready",
	}},
	{"completed_restart_always", []string{
		"9:16: procs.api.dependsOn.migrate: migrate never stays completed: its restart: always runs it again after each exit, so api would never start: use restart: on-failure on migrate, or wait for it started",
	}},
	{"cycle", []string{
		"4:17: procs.a.dependsOn[0]: dependency cycle: a → b → c → a: remove one of these dependsOn entries",
	}},
	{"depends_wrong_type", []string{
		"4:16: procs.api.dependsOn: expected a list of process names, or a mapping of name: condition, got number 5",
	}},
	{"duplicate_key", []string{
		`5:5: invalid YAML: mapping key "port" already defined at [4:5]`,
	}},
	{"duplicate_ports", []string{
		"7:11: procs.web.port: port 8080 is also used by api: give each process its own port",
	}},
	{"empty_command", []string{
		"3:14: procs.api.command: command is empty: write what to run",
	}},
	{"empty_command_list", []string{
		"3:14: procs.api.command: command list is empty: write the program and its arguments",
	}},
	{"healthcheck_none", []string{
		"4:5: procs.api.healthcheck: no probe: add one of http, exec or tcp",
	}},
	{"healthcheck_two", []string{
		"4:5: procs.api.healthcheck: has http and tcp: keep only one probe",
	}},
	{"missing_command", []string{
		"2:3: procs.api: missing command: add command: to say what to run",
	}},
	{"missing_cwd", []string{
		"4:10: procs.web.cwd: folder ./no-such-folder does not exist: create it or fix cwd",
	}},
	{"missing_envfile", []string{
		"1:10: envFile: env file .env.missing does not exist: create it or remove envFile",
	}},
	{"negative_max_restarts", []string{
		"6:20: procs.api.restart.maxRestarts: -3 is negative: use 0 or more",
	}},
	{"no_procs", []string{
		"3:1: procs: no processes: add at least one under procs:, e.g. web: {command: npm run dev}",
	}},
	{"not_mapping", []string{
		"1:1: the file must be a mapping with a procs: key",
	}},
	{"port_negative", []string{
		"4:11: procs.api.port: -1 is not a port: use a number from 1 to 65535",
	}},
	{"port_quoted_number", []string{
		`4:11: procs.api.port: expected a number, got string "8080": write 8080 without quotes`,
	}},
	{"port_range", []string{
		"4:11: procs.api.port: 70000 is not a port: use a number from 1 to 65535",
	}},
	{"port_string", []string{
		`4:11: procs.api.port: expected a number, got string "abc"`,
	}},
	{"probe_targets", []string{
		`4:25: procs.api.healthcheck.tcp: "localhost" is not host:port, e.g. 127.0.0.1:5432`,
		`7:26: procs.web.healthcheck.http: "localhost:8080/health" is not an http(s) URL, e.g. http://127.0.0.1:8080/health`,
	}},
	{"ready_not_bool", []string{
		"4:13: procs.api.ready: invalid ready expression: expected bool, but got int",
	}},
	{"ready_syntax", []string{
		`4:25: procs.api.ready: invalid ready expression: unexpected token Operator("&&")`,
	}},
	{"ready_unknown_names", []string{
		`4:17: procs.api.ready: invalid ready expression: port has no "opn" (did you mean "open"?): port has open`,
		`7:12: procs.web.ready: invalid ready expression: unknown name prot (did you mean "port"?): a rule knows deps, elapsed, exec, http, line, log, port, portOpen, ports, run, screen`,
		`10:16: procs.worker.ready: invalid ready expression: log has no "matchs" (did you mean "matches"?): log has contains, last, lines, matches`,
	}},
	{"ready_deps", []string{
		`4:12: procs.api.ready: deps.dbb: api does not depend on "dbb" (did you mean "db"?): deps holds the states of its dependsOn: db`,
		`9:12: procs.web.ready: "redy" is not a state (did you mean "ready"?): a dependency's state is one of pending, blocked, starting, ready, busy, awaiting-input, awaiting-permission, unhealthy, failed, completed, backoff, stopping, stopped`,
		`13:12: procs.worker.ready: deps.api: worker has no dependsOn, so deps holds no state: add api to its dependsOn`,
	}},
	// python3 -m http.server 7603 with ready: port.open and no port: it
	// listened, its preset's line came, and it stayed starting until its
	// readiness timeout, saying only "starting".
	{"ready_port_open", []string{
		`4:12: procs.api.ready: port.open is whether api's port: is open, and api has no port:, so it is always false: add port: to api, or read portOpen(N) or ports`,
		`7:12: procs.web.ready: port.open is whether web's port: is open, and web has no port:, so it is always false: add port: to web, or read portOpen(N) or ports`,
	}},
	{"self_dependency", []string{
		"4:17: procs.api.dependsOn[0]: api depends on itself: remove this entry",
	}},
	{"several", []string{
		`4:11: procs.api.port: expected a number, got string "8080": write 8080 without quotes`,
		`5:5: procs.api.readyTimout: unknown key "readyTimout" (did you mean "readyTimeout"?)`,
		`6:21: procs.api.dependsOn[1]: unknown process "cache": dependsOn must name a process under procs:`,
		`10:14: procs.db.restart: "sometimes" is not a restart policy: use no, on-failure, always`,
		"11:3: procs.worker: missing command: add command: to say what to run",
	}},
	{"syntax", []string{
		"3:14: invalid YAML: could not find end character of double-quoted text",
	}},
	// The YAML library's words alone did not say what to do.
	{"syntax_colon_in_value", []string{
		`3:14: invalid YAML: mapping value is not allowed in this context: a value holding ": " must be quoted ('...', with each ' inside doubled) or written as a block (| after the key, then the value on the next line, indented)`,
	}},
	{"syntax_deeper_key", []string{
		"3:14: invalid YAML: mapping value is not allowed in this context: a line below is indented deeper than the key of this value: indent the keys of one mapping alike",
	}},
	{"syntax_indent", []string{
		"4:4: invalid YAML: value is not allowed in this context",
	}},
	{"two_documents", []string{
		"4:1: only one YAML document is allowed: remove the extra ---",
	}},
	{"unknown_dependency", []string{
		`6:17: procs.web.dependsOn[0]: unknown process "apii" (did you mean "api"?): dependsOn must name a process under procs:`,
	}},
	{"unknown_framework", []string{
		`4:16: procs.web.framework: unknown framework "vitee" (did you mean "vite"?): run procs frameworks to list them, or use auto or none`,
	}},
	{"unknown_key", []string{
		`4:5: procs.api.readyPatern: unknown key "readyPatern" (did you mean "readyPatterns"?)`,
	}},
	{"unknown_top_key", []string{
		`1:1: proc: unknown key "proc" (did you mean "procs"?)`,
		"1:1: procs: no processes: add at least one under procs:, e.g. web: {command: npm run dev}",
	}},
	{"ready_block", []string{
		`6:28: procs.api.ready: invalid ready expression: unexpected token Operator("|")`,
	}},
	{"procs_list", []string{
		"2:3: procs: expected a mapping (key: value lines), got a list",
	}},
	{"nested_unknown", []string{
		`4:16: procs.api.restart.polcy: unknown key "polcy" (did you mean "policy"?)`,
		`6:24: procs.api.dependsOn.db.condition: "redy" is not a condition (did you mean "ready"?): use started, ready, completed`,
		`6:30: procs.api.dependsOn.db.restrat: unknown key "restrat" (did you mean "restart"?)`,
		`8:18: procs.api.autoRespond[0].match: invalid regex "trust (": missing closing ) (RE2 syntax)`,
	}},
}
