package export_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/compose/export"
)

// loadText loads a procs.yaml given as text, in a folder of its own.
func loadText(t *testing.T, text string) *config.Config {
	t.Helper()
	file := filepath.Join(t.TempDir(), "procs.yaml")
	require.NoError(t, os.WriteFile(file, []byte(text), 0o644))
	return load(t, file)
}

// TestLeftOutWarnings checks that each thing procs does that no format
// carries over is said, for the process, with what to write instead.
func TestLeftOutWarnings(t *testing.T) {
	cases := []struct {
		name, proc, yaml, want string
	}{
		{"log line only", "api", "procs:\n  api:\n    command: sleep 100\n    readyPatterns: [listening]\n",
			"api: ready by log line only; add `port:` or a probe (healthcheck:) so the exported health check means ready"},
		{"a worker of a generic runtime", "worker", "procs:\n  worker:\n    command: node worker.js\n",
			"worker: ready by its ready line, by listening on a port, or by running a while without an error ("},
		{"ready rule only", "api", "procs:\n  api:\n    command: sleep 100\n    ready: log.matches(\"up\")\n",
			"api: ready by its ready rule \"log.matches(\\\"up\\\")\" only; add `port:` or a probe"},
		{"ready rule beside a port", "api", "procs:\n  api:\n    command: sleep 100\n    port: 8080\n    ready: port.open && log.matches(\"up\")\n",
			"is left out; ready is port: 8080 alone"},
		{"pty", "shell", "procs:\n  shell:\n    command: sleep 100\n    pty: true\n",
			"shell: runs in a terminal (pty/interactive) under procs; exported it runs without one"},
		{"interactive preset", "agent", "procs:\n  agent:\n    command: claude\n",
			"agent: runs in a terminal (pty/interactive)"},
		{"watch", "web", "procs:\n  web:\n    command: sleep 100\n    watch: [\"*.go\"]\n",
			"web: watch: restarts on file changes are procs'; left out"},
		{"onIdle", "agent", "procs:\n  agent:\n    command: sleep 100\n    pty: true\n    interactive: true\n    onIdle: {after: 30s, send: [go on]}\n",
			"agent: onIdle inputs are procs'; left out"},
		{"autoRespond", "tool", "procs:\n  tool:\n    command: sleep 100\n    autoRespond: [{match: 'y/n', send: \"y\\r\"}]\n",
			"tool: autoRespond answers are procs'; left out"},
		{"task arguments", "test", "procs:\n  test:\n    kind: task\n    command: go test ./...\n    args: [{name: filter}]\n",
			"test: its arguments (args:) are procs run's; left out"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := export.New(loadText(t, c.yaml), export.Options{})
			require.NoError(t, err)
			var said []string
			for _, w := range p.Warnings {
				said = append(said, w.String())
			}
			assert.True(t, slices.ContainsFunc(said, func(s string) bool { return strings.Contains(s, c.want) }),
				"want a warning with %q, got %q", c.want, said)
		})
	}
}

// TestNothingLeftOut: a process with a port and nothing procs-only gets
// no warning.
func TestNothingLeftOut(t *testing.T) {
	p, err := export.New(loadText(t, "procs:\n  api:\n    command: sleep 100\n    port: 8080\n"), export.Options{})
	require.NoError(t, err)
	assert.Empty(t, p.Warnings)
}

// dnsHost names a process as Kubernetes does.
func dnsHost(p *export.Process) string { return export.DNSName(p.Name) }

// TestLoopbackWarning: an env value that points at another process on
// the loopback address is said once for all the processes that share it.
func TestLoopbackWarning(t *testing.T) {
	cfg := loadText(t, "env: {DB: 'postgres://127.0.0.1:15432/x'}\nprocs:\n  db:\n    command: postgres -p 15432\n    port: 15432\n  api:\n    command: sleep 100\n  web:\n    command: sleep 100\n")
	p, err := export.New(cfg, export.Options{})
	require.NoError(t, err)
	warnings := p.LoopbackWarnings(dnsHost)
	require.Len(t, warnings, 1)
	assert.Equal(t, "api, web: env DB points at 127.0.0.1:15432, which is db: in containers it is reached by its name, not the loopback address: write db:15432 there", warnings[0].String())
}

// A command that names the loopback address is told apart: a client of
// another exported process (psql -h 127.0.0.1 -p PORT) reaches it by its
// name; a server binding it listens on 0.0.0.0.
func TestLoopbackInACommand(t *testing.T) {
	cfg := loadText(t, "procs:\n  db:\n    command: postgres -p 15432\n    port: 15432\n  migrate:\n    command: psql -h 127.0.0.1 -p 15432 -c 'select 1'\n    kind: task\n  api:\n    command: flask run --host 127.0.0.1 --port 5055\n    port: 5055\n")
	p, err := export.New(cfg, export.Options{})
	require.NoError(t, err)
	var got []string
	for _, w := range p.LoopbackWarnings(dnsHost) {
		got = append(got, w.String())
	}
	assert.Equal(t, []string{
		"api: its command names the loopback address: in a container a server listens on 0.0.0.0 to be reached from others; change it there",
		"migrate: its command connects to 127.0.0.1, port 15432, which is db: in containers it is reached by its name, not the loopback address: write db there",
	}, got)
}

// TestChoice: names bring their dependencies, an instance name its
// replicated process, and an unknown name is an UnknownProcessError;
// without names, what procs up starts with the profiles given.
func TestChoice(t *testing.T) {
	cfg := loadText(t, "procs:\n  db:\n    command: sleep 100\n  worker:\n    command: sleep 100\n    replicas: 2\n    dependsOn: [db]\n  api:\n    command: sleep 100\n    dependsOn: [worker]\n  debug:\n    command: sleep 100\n    profiles: [debug]\n")
	names := func(opts export.Options) []string {
		p, err := export.New(cfg, opts)
		require.NoError(t, err)
		var out []string
		for _, proc := range p.Procs {
			out = append(out, proc.Name)
		}
		return out
	}
	assert.Equal(t, []string{"api", "db", "worker"}, names(export.Options{}))
	assert.Equal(t, []string{"api", "db", "debug", "worker"}, names(export.Options{Profiles: []string{"debug"}}))
	assert.Equal(t, []string{"db", "worker"}, names(export.Options{Names: []string{"worker-2"}}))
	p, err := export.New(cfg, export.Options{Names: []string{"api"}})
	require.NoError(t, err)
	api := p.Proc("api")
	assert.Equal(t, []export.Dependency{{Name: "worker", Condition: config.ConditionReady}}, api.DependsOn)
	assert.Equal(t, 2, p.Proc("worker").Replicas)
	_, err = export.New(cfg, export.Options{Names: []string{"nope"}})
	require.ErrorIs(t, err, config.ErrUnknownProcess)
}

// A dev server that listens on the loopback address unless told otherwise
// is reached by nothing outside its container: the export says so, with
// what makes it listen on 0.0.0.0, for the command, a package.json
// script, and an env value; a server told to listen everywhere, and a
// program whose address procs does not know, are left alone.
func TestDevServerOnLoopbackByDefault(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"scripts": {"dev": "vite", "open": "vite --host"}, "devDependencies": {"vite": "5"}}`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "manage.py"), nil, 0o644))
	file := filepath.Join(dir, "procs.yaml")
	require.NoError(t, os.WriteFile(file, []byte(`procs:
  api:
    command: flask --app app run --port 5055
    port: 5055
  env-api:
    command: flask run
    env: {FLASK_RUN_HOST: localhost}
  open-api:
    command: flask run --host 0.0.0.0
  web:
    command: npm run dev
  open-web:
    command: npm run open
  admin:
    command: python manage.py runserver
    port: 7001
  admin-8004:
    command: python manage.py runserver 8004
  open-admin:
    command: python manage.py runserver 0:8002
  node:
    command: node server.js
`), 0o644))
	p, err := export.New(load(t, file), export.Options{})
	require.NoError(t, err)
	var got []string
	for _, w := range p.LoopbackWarnings(dnsHost) {
		got = append(got, w.String())
	}
	const reach = ", which nothing outside its container reaches (other services, the published port): "
	assert.Equal(t, []string{
		"admin-8004: django listens on 127.0.0.1 unless told otherwise" + reach + "give runserver the address: runserver 0.0.0.0:8004",
		"admin: django listens on 127.0.0.1 unless told otherwise" + reach + "give runserver the address: runserver 0.0.0.0:7001",
		"api: flask listens on 127.0.0.1 unless told otherwise" + reach + "add --host 0.0.0.0 to its command (or set FLASK_RUN_HOST=0.0.0.0)",
		"env-api: flask listens on localhost as its FLASK_RUN_HOST says" + reach + "set FLASK_RUN_HOST to 0.0.0.0",
		"web: vite listens on localhost unless told otherwise" + reach + "add --host 0.0.0.0 to the script it runs (vite), or to its command after --",
	}, got)
}

// A server whose ready line names its port is exported with a check of
// the port its command gives (no format reads a log), and the warning says
// the line is left out; never with the preset's default port, which a
// config file or a script may change.
func TestReadyLinePortFromTheCommand(t *testing.T) {
	cases := []struct {
		name, command, env string
		port               int
		from               string
	}{
		{"an argument", "python3 -m http.server 8123", "", 8123, "its command's argument"},
		{"a flag", "next dev --port 3091", "", 3091, "its command's --port"},
		{"a variable", "next dev", "    env: {PORT: '3092'}\n", 3092, "its PORT variable"},
		{"the preset's default only", "next dev", "", 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := export.New(loadText(t, "procs:\n  web:\n    command: "+c.command+"\n"+c.env), export.Options{})
			require.NoError(t, err)
			web := p.Procs[0]
			var said []string
			for _, w := range p.Warnings {
				said = append(said, w.String())
			}
			if c.port == 0 {
				assert.Nil(t, web.Ready)
				assert.Contains(t, strings.Join(said, "\n"), "web: ready by log line only")
				return
			}
			require.NotNil(t, web.Ready)
			assert.Equal(t, export.CheckPort, web.Ready.Kind)
			assert.Equal(t, c.port, web.Ready.Port)
			assert.Equal(t, fmt.Sprintf("port %d, which %s gives", c.port, c.from), web.Ready.From)
			assert.Contains(t, strings.Join(said, "\n"), fmt.Sprintf("web: its ready line (%s preset) is left out (no format reads the log); ready is port %d open alone, which %s gives",
				web.Preset.Name, c.port, c.from))
		})
	}
}
