package config

import (
	"maps"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const replicasConfig = `procs:
  worker:
    command: echo worker {{.Replica}} of ${PROCS_REPLICA} --format '{{.Names}}'
    port: 8000
    env: {SHARD: "shard-{{ .Replica }}", QUEUE: jobs}
    replicas: 3
  argv:
    command: [echo, "${PROCS_REPLICA}"]
    replicas: 2
  api:
    command: ./api
    dependsOn:
      worker: {condition: started, restart: true}
  single:
    command: echo "[${PROCS_REPLICA}]"
  one:
    command: ./one
    replicas: 1
  web:
    command: ./web
    dependsOn: [one]
`

func TestReplicasExpandIntoInstances(t *testing.T) {
	cfg, err := Parse("procs.yaml", []byte(replicasConfig), nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"api", "argv-1", "argv-2", "one-1", "single", "web", "worker-1", "worker-2", "worker-3"}, cfg.Names())
	assert.Equal(t, "one-1", cfg.Procs["web"].DependsOn[0].Name, "one instance is an instance too")
	w2 := cfg.Procs["worker-2"]
	assert.Equal(t, Replica{Of: "worker", Index: 2}, w2.Replica)
	assert.Equal(t, "worker", w2.Group())
	// Only {{.Replica}} is replaced; other template text is the command's own.
	assert.Equal(t, "echo worker 2 of 2 --format '{{.Names}}'", w2.Command.Shell)
	assert.Equal(t, map[string]string{"SHARD": "shard-2", "QUEUE": "jobs"}, w2.Env)
	assert.Equal(t, 8001, w2.Port)
	assert.Equal(t, 8002, cfg.Procs["worker-3"].Port)
	assert.Equal(t, []string{"echo", "1"}, cfg.Procs["argv-1"].Command.Argv)
	// A process without replicas is no instance: the number is empty.
	assert.Equal(t, `echo "[]"`, cfg.Procs["single"].Command.Shell)
	assert.Equal(t, "single", cfg.Procs["single"].Group())

	// A dependency on worker is one on each instance, with its condition.
	var deps []string
	for _, dep := range cfg.Procs["api"].DependsOn {
		deps = append(deps, dep.Name)
		assert.Equal(t, ConditionStarted, dep.Condition)
		assert.True(t, dep.Restart)
		assert.Equal(t, "worker", dep.Via)
	}
	assert.Equal(t, []string{"worker-1", "worker-2", "worker-3"}, deps)
	order, err := cfg.StartOrder()
	require.NoError(t, err)
	assert.Greater(t, indexOf(order, "api"), indexOf(order, "worker-3"))

	assert.Equal(t, []string{"worker-1", "worker-2", "worker-3"}, cfg.Instances("worker"))
	assert.Equal(t, []string{"api"}, cfg.Instances("api"))
	assert.Equal(t, []string{"worker-2"}, cfg.Instances("worker-2"))
	assert.Equal(t, 3, cfg.Declared()["worker"].Replicas)
}

func TestScaledKeepsTheOtherInstancesAndDependents(t *testing.T) {
	cfg, err := Parse("procs.yaml", []byte(replicasConfig), nil)
	require.NoError(t, err)

	up, err := cfg.Scaled(map[string]int{"worker": 5})
	require.NoError(t, err)
	assert.Equal(t, 8004, up.Procs["worker-5"].Port)
	diff := DiffConfigs(cfg, up)
	assert.Equal(t, []string{"worker-4", "worker-5"}, diff.Added)
	assert.Empty(t, diff.Changed, "neither the instances kept nor api, which depends on worker, change")
	assert.Empty(t, diff.Dependents)
	assert.Len(t, up.Procs["api"].DependsOn, 5)
	assert.Equal(t, 3, cfg.Declared()["worker"].Replicas, "the config scaled is not changed")

	many, err := cfg.Scaled(map[string]int{"worker": 12})
	require.NoError(t, err)
	order, err := many.StartOrder()
	require.NoError(t, err)
	assert.Less(t, indexOf(order, "worker-2"), indexOf(order, "worker-10"), "instances go by number")
	assert.Less(t, indexOf(many.Names(), "worker-9"), indexOf(many.Names(), "worker-10"))

	down, err := up.Scaled(map[string]int{"worker": 2})
	require.NoError(t, err)
	diff = DiffConfigs(up, down)
	assert.Equal(t, []string{"worker-3", "worker-4", "worker-5"}, diff.Removed)
	assert.Empty(t, diff.Changed)

	// A process without replicas becomes replicated: its instances replace it.
	api, err := cfg.Scaled(map[string]int{"api": 2})
	require.NoError(t, err)
	diff = DiffConfigs(cfg, api)
	assert.Equal(t, []string{"api-1", "api-2"}, diff.Added)
	assert.Equal(t, []string{"api"}, diff.Removed)
}

func TestScaledRefusesWhatCannotRun(t *testing.T) {
	cfg, err := Parse("procs.yaml", []byte(replicasConfig+`  other:
    command: ./other
    port: 8005
`), nil)
	require.NoError(t, err)
	_, err = cfg.Scaled(map[string]int{"nope": 2})
	assert.ErrorIs(t, err, ErrUnknownProcess)
	_, err = cfg.Scaled(map[string]int{"worker": 0})
	assert.EqualError(t, err, "scale worker=0: a process runs 1 instance or more; procs stop worker stops it")
	_, err = cfg.Scaled(map[string]int{"worker": MaxReplicas + 1})
	assert.EqualError(t, err, "scale worker=257: a process runs at most 256 instances")
	_, err = cfg.Scaled(map[string]int{"worker": 6})
	assert.EqualError(t, err, "scale: port 8005 of worker-6 is also used by other: give each process its own port")
}

func indexOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}

// Scaled changes only the processes it scales and those whose
// dependencies are their instances: a process that runs a definition
// taken from an edited procs.yaml since (procs restart a) keeps it, and an
// instance kept keeps its own. Re-expanded from the declared processes,
// a scale of b put back a's old command.
func TestScaledTouchesOnlyWhatItScales(t *testing.T) {
	cfg, err := Parse("procs.yaml", []byte(replicasConfig), nil)
	require.NoError(t, err)
	edited, err := Parse("procs.yaml", []byte(strings.NewReplacer("./api", "./api-v2", "./one", "./one-v2").Replace(replicasConfig)), nil)
	require.NoError(t, err)
	running := *cfg // what procs restart api one-1 makes of it
	running.Procs = maps.Clone(cfg.Procs)
	running.Procs["api"], running.Procs["one-1"] = edited.Procs["api"], edited.Procs["one-1"]

	up, err := running.Scaled(map[string]int{"argv": 3})
	require.NoError(t, err)
	diff := DiffConfigs(&running, up)
	assert.Equal(t, []string{"argv-3"}, diff.Added)
	assert.Empty(t, diff.Changed, "api and one-1 run their edited definitions still")
	assert.Equal(t, "./api-v2", up.Procs["api"].Command.Shell)

	more, err := running.Scaled(map[string]int{"one": 2})
	require.NoError(t, err)
	diff = DiffConfigs(&running, more)
	assert.Equal(t, []string{"one-2"}, diff.Added)
	assert.Empty(t, diff.Changed, "one-1 is kept as it runs; web, which depends on one, gains one-2 without a change of its own")
	assert.Equal(t, []string{"one-1", "one-2"}, []string{more.Procs["web"].DependsOn[0].Name, more.Procs["web"].DependsOn[1].Name})
	assert.Equal(t, "./one-v2", more.Procs["one-1"].Command.Shell)
}

// A new instance depends on every instance of a replicated process it
// depends on, scaled at the same time or not.
func TestScaledInstancesDependOnEveryInstance(t *testing.T) {
	cfg, err := Parse("procs.yaml", []byte(`procs:
  db: {command: ./db, replicas: 2}
  q: {command: ./q, replicas: 1}
  worker:
    command: ./worker
    replicas: 1
    dependsOn: [db, q]
`), nil)
	require.NoError(t, err)
	up, err := cfg.Scaled(map[string]int{"worker": 2, "q": 2})
	require.NoError(t, err)
	for _, name := range []string{"worker-1", "worker-2"} {
		var deps []string
		for _, dep := range up.Procs[name].DependsOn {
			deps = append(deps, dep.Name)
		}
		assert.Equal(t, []string{"db-1", "db-2", "q-1", "q-2"}, deps, name)
	}
}

// A process that reads ${PORT} outside a shell command has it expanded
// once, at load, to its port: scaled, every instance would read the first
// instance's port there (an API_URL, a healthcheck), so the scale is
// refused at that value. A shell command expands it in each run, and a
// process whose values do not read it scales as before.
func TestScaledRefusesAPortReadOnce(t *testing.T) {
	cfg, err := Parse("procs.yaml", []byte(`procs:
  api:
    command: ./api
    port: 8000
    env:
      SELF: http://localhost:${PORT}/
  shell:
    command: ./serve --port ${PORT}
    port: 9000
  plain:
    command: [./serve]
    port: 9500
`), nil)
	require.NoError(t, err)
	assert.Equal(t, "http://localhost:8000/", cfg.Procs["api"].Env["SELF"])

	_, err = cfg.Scaled(map[string]int{"api": 2})
	var scaleErr *ScaleError
	require.ErrorAs(t, err, &scaleErr)
	assert.EqualError(t, err, "scale api=2: procs.yaml:6:13: procs.api.env.SELF: reads ${PORT}, expanded once, at load, to 8000: every instance would read 8000 there; "+
		"use ${PORT} in a shell command (command: as a string), which expands it in each run, or have the program read PORT from its environment")
	one, err := cfg.Scaled(map[string]int{"api": 1})
	require.NoError(t, err, "one instance listens on the port the value names")
	assert.Equal(t, 8000, one.Procs["api"].Port)

	for _, name := range []string{"shell", "plain"} {
		scaled, err := cfg.Scaled(map[string]int{name: 2})
		require.NoError(t, err, name)
		assert.Len(t, scaled.Instances(name), 2)
	}
}

// Where ${PORT} was read is no part of a definition: a line moved above
// it (a comment added) changes nothing a reload would restart for.
func TestAPortReadMovedIsNoChange(t *testing.T) {
	text := `procs:
  api:
    command: ./api
    port: 8000
    env: {SELF: "http://localhost:${PORT}/"}
`
	before, err := Parse("procs.yaml", []byte(text), nil)
	require.NoError(t, err)
	after, err := Parse("procs.yaml", []byte("# the API\n"+text), nil)
	require.NoError(t, err)
	assert.True(t, SameProc(before.Procs["api"], after.Procs["api"]))
}

// Instances of a replicated process each get their own port (port+i-1, in
// PORT), but a command that names the port itself runs every instance on
// that one: `python3 -m http.server 8097` with replicas: 2 ran web-2 on
// 8097 too, and web-1 failed "Address already in use". Refused at load,
// and by a scale, at the command; a command that reads PORT, or numbers
// its instances, is not.
func TestReplicasRefuseACommandThatNamesItsOwnPort(t *testing.T) {
	for _, command := range []string{
		`python3 -m http.server 8097`,
		`flask run --port=8097`,
		`[gunicorn, --bind, "127.0.0.1:8097", app:app]`,
	} {
		t.Run(command, func(t *testing.T) {
			_, err := Parse("procs.yaml", []byte("procs:\n  web:\n    command: "+command+"\n    port: 8097\n    replicas: 2\n"), nil)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "procs.yaml:3:14: procs.web.command: names port 8097 itself: every instance of web would listen there (web-2 is given 8098, in PORT):")
			assert.Contains(t, err.Error(), "$PORT")
		})
	}
	for _, command := range []string{
		`python3 -m http.server $PORT`,
		`python3 -m http.server "${PORT}"`,
		`node server.js --id {{.Replica}} --port 8097`,
		`python3 -m http.server 18097`,
	} {
		_, err := Parse("procs.yaml", []byte("procs:\n  web:\n    command: "+command+"\n    port: 8097\n    replicas: 2\n"), nil)
		assert.NoError(t, err, command)
	}
	cfg, err := Parse("procs.yaml", []byte("procs:\n  web:\n    command: python3 -m http.server 8097\n    port: 8097\n"), nil)
	require.NoError(t, err, "one instance listens where its command says")
	_, err = cfg.Scaled(map[string]int{"web": 2})
	assert.ErrorContains(t, err, "scale: names port 8097 itself")
}

// A process without replicas already runs one instance: scaling it to 1
// changes nothing (it was stopped and started again as single-1, a
// restart and a rename nobody asked for). Scaled to more, it becomes
// replicated.
func TestScalingAnUnreplicatedProcessToOneChangesNothing(t *testing.T) {
	cfg, err := Parse("procs.yaml", []byte(replicasConfig), nil)
	require.NoError(t, err)

	same, err := cfg.Scaled(map[string]int{"single": 1})
	require.NoError(t, err)
	diff := DiffConfigs(cfg, same)
	assert.Empty(t, diff.Added)
	assert.Empty(t, diff.Removed)
	assert.Empty(t, diff.Changed)
	assert.Equal(t, []string{"single"}, same.Instances("single"))

	more, err := cfg.Scaled(map[string]int{"single": 2})
	require.NoError(t, err)
	assert.Equal(t, []string{"single-1", "single-2"}, more.Instances("single"))
	back, err := more.Scaled(map[string]int{"single": 1})
	require.NoError(t, err)
	assert.Equal(t, []string{"single-1"}, back.Instances("single"), "a replicated process scaled down keeps its first instance as it runs")
}
