package config

import (
	"encoding/json"
	"maps"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSchemaAndDecoderAcceptTheSameKeys ties the keys the decoder accepts at
// each level to the generated JSON Schema, so a key added to a type but not
// decoded (or decoded but not in the schema) fails here.
func TestSchemaAndDecoderAcceptTheSameKeys(t *testing.T) {
	data, err := os.ReadFile("../../schema/procs.schema.json")
	require.NoError(t, err)
	var schema map[string]any
	require.NoError(t, json.Unmarshal(data, &schema))
	defs := schema["$defs"].(map[string]any)
	proc := properties(defs["Proc"])

	for _, c := range []struct {
		path   []string
		schema map[string]any
	}{
		{nil, properties(schema)},
		{[]string{"procs", "api"}, proc},
		{[]string{"ui"}, properties(defs["UIConfig"])},
		{[]string{"logs"}, properties(defs["Logs"])},
		{[]string{"procs", "api", "logs"}, properties(defs["Logs"])},
		{[]string{"resources"}, properties(defs["Resources"])},
		{[]string{"procs", "api", "resources"}, properties(defs["Resources"])},
		{[]string{"procs", "api", "healthcheck"}, properties(defs["Healthcheck"])},
		{[]string{"procs", "api", "shutdown"}, properties(defs["Shutdown"])},
		{[]string{"procs", "api", "onIdle"}, properties(defs["OnIdle"])},
		{[]string{"procs", "api", "schedule"}, properties(defs["Schedule"])},
		{[]string{"procs", "api", "autoRespond", "[0]"}, properties(defs["AutoRespond"])},
		{[]string{"procs", "api", "args", "[0]"}, properties(defs["Arg"])},
		{[]string{"procs", "api", "restart"}, objectForm(proc["restart"])},
		{[]string{"procs", "api", "watch"}, objectForm(proc["watch"])},
		{[]string{"procs", "api", "pty"}, objectForm(proc["pty"])},
		{[]string{"procs", "api", "dependsOn", "db"}, objectForm(objectForm(proc["dependsOn"])["additionalProperties"])},
	} {
		assert.Equal(t, keysOf(c.schema), structKeys(c.path), "keys at %s", showPath(c.path))
	}
}

func properties(node any) map[string]any {
	props, _ := node.(map[string]any)["properties"].(map[string]any)
	return props
}

// objectForm returns the properties of the mapping form of a oneOf node
// (pty: true or {cols, rows}), or the node's own properties.
func objectForm(node any) map[string]any {
	m := node.(map[string]any)
	if props, ok := m["properties"].(map[string]any); ok {
		return props
	}
	if ap, ok := m["additionalProperties"]; ok {
		return map[string]any{"additionalProperties": ap}
	}
	alts, _ := m["oneOf"].([]any)
	for _, alt := range alts {
		if form := objectForm(alt); len(form) > 0 {
			return form
		}
	}
	return nil
}

func keysOf(m map[string]any) []string {
	return slices.Sorted(maps.Keys(m))
}

// everyKey sets every key of the format to a value that is not the zero
// value, so TestEveryKeyIsDecoded sees a field the decoder leaves unset.
const everyKey = `
$schema: ./schema/procs.schema.json
env: {A: "1"}
envFile: .env
ui: {port: 8123}
logs: {maxSize: 10MiB, keep: 3}
resources: {memory: 1G, cpu: 2, pids: 100}
procs:
  db:
    command: sleep 100
  agent:
    command: [sleep, "100"]
    cwd: .
    env: {B: "2"}
    envFile: .env
    kind: task
    description: an agent
    schedule: {cron: "0 2 * * *", timezone: UTC, runOnStart: true, maxConcurrent: 1}
    dependsOn: {db: {condition: started, restart: true}}
    port: 8080
    framework: none
    readyPatterns: [ready]
    errorPatterns: [error]
    notReadyPatterns: [wait]
    ready: port.open
    readyTimeout: 5s
    stabilityDelay: 100ms
    restart: {policy: on-failure, maxRestarts: 2, backoff: 1s..2s}
    healthcheck: {http: "http://127.0.0.1:8080/", interval: 1s, timeout: 1s, failures: 2}
    shutdown: {signal: SIGINT, timeout: 2s}
    pty: {cols: 80, rows: 24}
    autoRespond: [{match: "y/n", send: "y", once: true, maxTimes: 1}, {match: trust, choose: "Yes"}]
    busyPatterns: [working]
    questionPatterns: ['\?$']
    permissionPatterns: [allow]
    recoverablePatterns: [retrying]
    onIdle: {after: 30s, send: [next], maxCycles: 1}
    agent: {protocol: claude-stream-json}
    completeWhen: '<promise>DONE</promise>'
    profiles: [debug]
    replicas: 1
    disabled: true
    watch: {paths: [src], ignore: ["*.tmp"], debounce: 200ms}
    interactive: true
    logs: {maxSize: 1GB, keep: 0}
    resources: {memory: 512M, cpu: 0.5, pids: 20}
  probes:
    command: sleep 100
    healthcheck: {exec: "true"}
  tcp:
    command: sleep 100
    healthcheck: {tcp: "127.0.0.1:8080"}
  job:
    kind: task
    command: echo {{args.count}}
    args: [{name: count, type: integer, description: how many, required: false, default: 2}, {name: must, required: true}]
    disabled: true
  ticker:
    kind: task
    command: sleep 1
    schedule: {every: 1h}
`

// TestEveryKeyIsDecoded fails when a field is added to a type of the format
// (and so to the schema and the accepted keys) but the decoder never reads
// it: every key of everyKey must reach a non-zero field.
func TestEveryKeyIsDecoded(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(dir+"/.env", []byte("C=3\n"), 0o644))
	cfg, err := Parse(dir+"/procs.yaml", []byte(everyKey), nil)
	require.NoError(t, err)
	assertAllSet(t, "", reflect.ValueOf(*cfg))
	assertAllSet(t, "ui.", reflect.ValueOf(*cfg.UI))
	assertAllSet(t, "logs.", reflect.ValueOf(*cfg.Logs))
	assertAllSet(t, "resources.", reflect.ValueOf(*cfg.Resources))
	// The process as declared: with replicas, it runs as agent-1.
	p := cfg.Declared()["agent"]
	p.Args = cfg.Procs["job"].Args // args are a task's: job has them
	assertAllSet(t, "procs.agent.", reflect.ValueOf(*p))
	arg := cfg.Procs["job"].Args[0]
	arg.Required = cfg.Procs["job"].Args[1].Required // a required argument has no default
	assertAllSet(t, "procs.job.args[0].", reflect.ValueOf(arg))
	// A healthcheck has one target: the other two come from other processes.
	check := *p.Healthcheck
	check.Exec, check.TCP = cfg.Procs["probes"].Healthcheck.Exec, cfg.Procs["tcp"].Healthcheck.TCP
	// An answer sends text or chooses an option: choose comes from the second.
	answer := p.AutoRespond[0]
	answer.Choose = p.AutoRespond[1].Choose
	// A schedule has cron or every: every comes from ticker.
	schedule := *p.Schedule
	schedule.Every = cfg.Procs["ticker"].Schedule.Every
	for name, v := range map[string]any{"schedule": schedule, "dependsOn": p.DependsOn[0], "restart": p.Restart, "healthcheck": check,
		"shutdown": p.Shutdown, "autoRespond": answer, "onIdle": *p.OnIdle, "watch": *p.Watch, "logs": *p.Logs,
		"resources": *p.Resources, "agent": *p.Agent} {
		assertAllSet(t, "procs.agent."+name+".", reflect.ValueOf(v))
	}
}

func assertAllSet(t *testing.T, prefix string, v reflect.Value) {
	t.Helper()
	for i := range v.NumField() {
		field := v.Type().Field(i)
		name, _, _ := strings.Cut(field.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		assert.False(t, v.Field(i).IsZero(), "%s%s is never decoded: read it in decode.go and set it in everyKey", prefix, name)
	}
}
