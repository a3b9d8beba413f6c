package scaffold

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPortsFromTheProject: an app's port comes from its project when its
// command does not name one: .env's PORT, vite.config's server.port, the
// default its source gives PORT, or the port it listens on.
func TestPortsFromTheProject(t *testing.T) {
	express := `{"scripts": {"dev": "node server.js"}, "dependencies": {"express": "4"}}`
	for _, tc := range []struct {
		name    string
		files   map[string]string
		port    int
		command string
		note    string
	}{
		{"dotenv", map[string]string{"package.json": express, "server.js": "app.listen(process.env.PORT || 4000)", ".env": "PORT=4100\n"},
			4100, "npm run dev", "PORT in .env:1"},
		{"node PORT default", map[string]string{"package.json": express, "server.js": "const port = process.env.PORT || 4000\napp.listen(port)"},
			4000, "npm run dev", "the default for PORT in server.js:1"},
		{"node ?? default in the script's file", map[string]string{"package.json": `{"scripts": {"dev": "tsx watch src/api.ts"}, "dependencies": {"express": "4"}}`,
			"src/api.ts": "const port = process.env.PORT ?? '4200'"}, 4200, "npm run dev", "the default for PORT in src/api.ts:1"},
		{"node listen", map[string]string{"package.json": express, "server.js": "app.listen(4300, () => {})"},
			4300, "npm run dev", "the port it listens on in server.js:1"},
		{"vite server.port", map[string]string{"package.json": `{"scripts": {"dev": "vite"}, "devDependencies": {"vite": "5"}}`,
			"vite.config.js": "export default { server: { host: true, port: 3005 } }"}, 3005, "npm run dev", "server.port in vite.config.js:1"},
		{"go PORT default", map[string]string{"go.mod": "module x\n", "main.go": "package main\nfunc main() {\n\tport := os.Getenv(\"PORT\")\n\tif port == \"\" {\n\t\tport = \"8090\"\n\t}\n}\n"},
			8090, "go run .", "the default for PORT in main.go:5"},
		{"django dotenv", map[string]string{"manage.py": "", ".env": "PORT=8020\n"}, 8020, "python3 manage.py runserver 8020", "PORT in .env:1"},
		{"HTTP_PORT in .env", map[string]string{"go.mod": "module x\n", "main.go": "package main\nfunc main() {}\n", ".env": "DB_PORT=5432\nHTTP_PORT=8181\n"},
			8181, "go run .", "HTTP_PORT in .env:2"},
		{"SERVER_ADDRESS in the example env", map[string]string{"go.mod": "module x\n", "main.go": "package main\nfunc main() {}\n", "example.env": "# the API\nSERVER_ADDRESS=:9090\n"},
			9090, "go run .", "SERVER_ADDRESS in example.env:2"},
		{"rails puma.rb", map[string]string{"Gemfile": "gem 'rails'\n", "config/application.rb": "", "config/puma.rb": "threads 5, 5\nport ENV.fetch(\"PORT\") { 3100 }\n"},
			3100, "bundle exec rails server", "the default for PORT in config/puma.rb:2"},
		{"script port wins", map[string]string{"package.json": `{"scripts": {"dev": "vite --port 5000"}, "devDependencies": {"vite": "5"}}`,
			"vite.config.js": "export default { server: { port: 3005 } }", ".env": "PORT=9000\n"}, 5000, "npm run dev", "in the dev script"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, tc.files)
			cfg, res := generateConfig(t, dir)
			web := cfg.Procs["web"]
			require.NotNil(t, web, "%s", res.YAML)
			assert.Equal(t, tc.port, web.Port)
			assert.Equal(t, tc.command, web.Command.Shell)
			assert.Contains(t, string(res.YAML), "# "+tc.note)
		})
	}
}

// TestPortsNeverClash: whatever ports the project's files ask for, no two
// processes get the same one: a program that follows PORT moves up, one
// that listens on a fixed port loses it with a note (and procs check, run
// on every file init writes, would refuse a clash).
func TestPortsNeverClash(t *testing.T) {
	dir := t.TempDir()
	express := `{"scripts": {"dev": "node server.js"}, "dependencies": {"express": "4"}}`
	writeFiles(t, dir, map[string]string{
		"compose.yaml":        "services:\n  db: {image: postgres, ports: ['3000:5432']}\n",
		"api/package.json":    express,
		"api/server.js":       "app.listen(process.env.PORT || 3000)",
		"admin/package.json":  express,
		"admin/.env":          "PORT=3000\n",
		"hooks/package.json":  express,
		"hooks/server.js":     "app.listen(3000)",
		"web/package.json":    `{"scripts": {"dev": "vite"}, "devDependencies": {"vite": "5"}}`,
		"web/vite.config.ts":  "export default defineConfig({ server: { port: 3000 } })",
		"site/package.json":   `{"scripts": {"dev": "vite"}, "devDependencies": {"vite": "5"}}`,
		"site/vite.config.ts": "export default defineConfig({ server: { port: 3000 } })",
	})
	cfg, res := generateConfig(t, dir)
	seen := map[int]string{}
	for _, name := range cfg.Names() {
		port := cfg.Procs[name].Port
		if port == 0 {
			continue
		}
		other, clash := seen[port]
		assert.False(t, clash, "%s and %s both on %d:\n%s", name, other, port, res.YAML)
		seen[port] = name
	}
	assert.Equal(t, 3000, cfg.Procs["db"].Port, "the port compose publishes is fixed: it is given first")
	assert.Equal(t, 0, cfg.Procs["hooks"].Port, "a fixed port that is taken is left out")
	assert.Contains(t, string(res.YAML), "port 3000 (the port it listens on in hooks/server.js:1) is also db's: give one of them another port")
	assert.Equal(t, "npm run dev -- --port 3004", cfg.Procs["web"].Command.Shell, "vite takes a moved port by its flag")
}
