package frameworks

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func project(name string) string { return filepath.Join("testdata", "projects", name) }

func TestDetect(t *testing.T) {
	tests := []struct {
		name    string
		command string
		argv    []string
		dir     string
		preset  string // "" = nothing detected
		reason  string
	}{
		// The command line names the program.
		{"vite command", "vite --port 3000", nil, project("plain"), "vite",
			`command "vite --port 3000" matches /(^|[\s/])vite(\s+(dev|serve|preview)\b|\s+-|\s*$)/`},
		{"vite via node_modules/.bin", "./node_modules/.bin/vite --port 33161", nil, project("plain"), "vite", ""},
		{"bun from npm", "node_modules/.bin/bun run server.ts", nil, project("plain"), "bun", ""},
		{"deno from npm", "./node_modules/.bin/deno run -A main.ts", nil, project("plain"), "deno", ""},
		{"argv only", "", []string{"redis-server", "--port", "6380"}, project("plain"), "redis",
			`command "redis-server --port 6380" matches /(^|[\s/])(redis-server|valkey-server)(\s|$)/`},
		{"sh -c wrapper", "sh -c 'exec postgres -D .data/pg -p 5433'", nil, project("plain"), "postgres", ""},
		{"env prefix", "PORT=8000 FOO=1 uvicorn main:app --reload", nil, project("plain"), "uvicorn", ""},
		{"python -m uvicorn", "python3 -m uvicorn main:app", nil, project("plain"), "uvicorn", ""},
		{"python http.server", "python3 -m http.server 8000", nil, project("plain"), "python-http-server", ""},
		{"flask run", "flask --app app run --port 5000", nil, project("flask-app"), "flask",
			`command "flask --app app run --port 5000" matches /(^|[\s/])flask\s+(.*\s)?run\b/`},
		{"django runserver", "python manage.py runserver", nil, project("django-app"), "django",
			`command "python manage.py runserver" matches /manage\.py\s+runserver(_plus)?\b/`},
		{"go run", "go run .", nil, project("go-module"), "go", `command "go run ." matches /^go\s+run(\s|$)/`},
		{"nginx", "nginx -g 'daemon off;'", nil, project("plain"), "nginx", ""},
		{"interactive bash", "bash -i", nil, project("plain"), "interactive-shell", ""},
		{"bash without its rc files", "bash --norc --noprofile -i", nil, project("plain"), "interactive-shell", ""},
		{"bash running a script is no shell session", "bash build.sh", nil, project("plain"), "", ""},
		{"a login shell", "bash -l", nil, project("plain"), "interactive-shell", ""},
		{"zsh, login", "zsh -l", nil, project("plain"), "interactive-shell", ""},
		{"bash, login and interactive", "bash -li", nil, project("plain"), "interactive-shell", ""},
		{"a login shell running a command is no shell session", "bash -lc 'make dev'", nil, project("plain"), "", ""},
		{"bash -c is no shell session", "bash -c 'make dev'", nil, project("plain"), "", ""},
		{"mariadb", "/usr/sbin/mariadbd --datadir=/tmp/x", nil, project("plain"), "mysql", ""},
		{"command beats package.json", "npx vite --port 4000", nil, project("next-app"), "vite", ""},
		{"command beats files", "redis-server", nil, project("django-app"), "redis", ""},
		{"pipe keeps the server", "next dev | tee web.log", nil, project("plain"), "nextjs", ""},
		{"cd then run", "cd web && npm run dev", nil, project("monorepo"), "astro",
			`package.json script "dev" runs "astro dev"`},

		// package.json scripts.
		{"npm run dev → next", "npm run dev", nil, project("next-app"), "nextjs",
			`package.json script "dev" runs "next dev --turbopack"`},
		{"npm start → next start", "npm start", nil, project("next-app"), "nextjs",
			`package.json script "start" runs "next start"`},
		{"yarn dev", "yarn dev", nil, project("vite-app"), "vite", `package.json script "dev" runs "vite"`},
		{"pnpm dev", "pnpm dev", nil, project("vite-app"), "vite", `package.json script "dev" runs "vite"`},
		{"pnpm run dev", "pnpm run dev -- --port 4000", nil, project("vite-app"), "vite", `package.json script "dev" runs "vite"`},
		{"bun run dev", "bun run dev", nil, project("vite-app"), "vite", `package.json script "dev" runs "vite"`},

		// A preset that refines another: SvelteKit runs vite.
		{"sveltekit npm run dev", "npm run dev", nil, project("sveltekit-app"), "sveltekit",
			`package.json script "dev" runs "vite dev", and package.json depends on "@sveltejs/kit"`},
		{"sveltekit vite dev", "vite dev --port 5174", nil, project("sveltekit-app"), "sveltekit",
			`command "vite dev --port 5174" matches /(^|[\s/])vite(\s+(dev|serve|preview)\b|\s+-|\s*$)/, and package.json depends on "@sveltejs/kit"`},
		{"sveltekit npx vite", "npx vite dev", nil, project("sveltekit-app"), "sveltekit", ""},
		{"sveltekit cd", "cd sveltekit-app && npm run dev", nil, filepath.Join("testdata", "projects"), "sveltekit", ""},
		{"plain vite stays vite", "vite dev", nil, project("vite-app"), "vite", ""},
		{"script calls script", "npm run serve", nil, project("vite-app"), "vite",
			`package.json script "dev" runs "vite"`},
		{"script without preset → dependencies", "npm run lint", nil, project("next-app"), "nextjs",
			`package.json depends on "next"`},
		{"node script → dependencies", "npm start", nil, project("express-app"), "express",
			`package.json depends on "express"`},
		{"node command → dependencies", "node server.js", nil, project("express-app"), "express",
			`package.json depends on "express"`},
		// node running a file of the project: the dependencies it may load
		// name its preset (express), not the tools a script runs (vite).
		{"node command beside a dev tool", "node server.js", nil, project("express-vite-app"), "express",
			`package.json depends on "express"`},
		{"node script beside a dev tool", "npm run api", nil, project("express-vite-app"), "express", ""},
		{"the dev tool's script", "npm run dev", nil, project("express-vite-app"), "vite", ""},
		{"node with a dev tool only → fallback", "node server.js", nil, project("vite-app"), "express",
			`command "node server.js" matches /^(node|nodemon|tsx|ts-node)(\s|$)/`},
		{"node without package.json → fallback", "node app.js", nil, project("plain"), "express",
			`command "node app.js" matches /^(node|nodemon|tsx|ts-node)(\s|$)/`},

		// Files in the working directory.
		// A worker in a Django project is not its dev server: it is a
		// Python program, assumed ready after a while.
		{"a worker in a Django project is not its dev server", "python3 worker.py", nil, project("django-app"), "python", ""},
		{"manage.py other than runserver", "python manage.py qcluster", nil, project("django-app"), "python", ""},
		{"sidekiq in a Rails project is the worker, not rails", "bundle exec sidekiq", nil, project("rails-app"), "sidekiq", ""},
		{"rails jobs in a Rails project", "bin/rails jobs:work", nil, project("rails-app"), "", ""},
		{"Gemfile + config.ru", "bundle exec foreman start", nil, project("rails-app"), "rails",
			"Gemfile + config.ru in ./rails-app"},
		{"go.mod", "air", nil, project("go-module"), "go", `command "air" matches /^(air|gow|reflex)(\s|$)/`},
		{"go.mod with go build", "go build -o bin/api . && go generate", nil, project("go-module"), "go",
			"go.mod in ./go-module"},

		// Nothing.
		{"generic shell", "sh -c 'sleep 1'", nil, project("plain"), "", ""},
		{"sleep in a Django project", "sleep 1", nil, project("django-app"), "", ""},
		{"echo", "echo hello", nil, project("next-app"), "", ""},
		{"unknown npm script", "npm run nothing", nil, project("plain"), "", ""},
		{"empty", "", nil, project("plain"), "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, ok := Detect(tt.command, tt.argv, tt.dir)
			if tt.preset == "" {
				assert.False(t, ok, "detected %v", d)
				return
			}
			require.True(t, ok, "nothing detected")
			assert.Equal(t, tt.preset, d.Preset.Name, d.Reason)
			if tt.reason != "" {
				assert.Equal(t, tt.reason, d.Reason)
			}
		})
	}
}

func TestShellWords(t *testing.T) {
	assert.Equal(t, []string{"sh", "-c", "sleep 1"}, shellWords(`sh -c 'sleep 1'`))
	assert.Equal(t, []string{"a", "b c", "d\"e", "&&", "f"}, shellWords(`a "b c" d\"e && f`))
	words, dir := commandWords(`cd api && FOO=1 exec python manage.py runserver`)
	assert.Equal(t, []string{"python", "manage.py", "runserver"}, words)
	assert.Equal(t, "api", dir)
}

func TestDetectBunAndExec(t *testing.T) {
	for command, want := range map[string]string{
		"bun run index.ts":        "bun",
		"bun --hot server.ts":     "bun",
		"pnpm dlx vite":           "vite",
		"yarn dlx next dev":       "nextjs",
		"npx serve -l 3000":       "http-server",
		"npx http-server -p 8080": "http-server",
	} {
		d, ok := Detect(command, nil, project("plain"))
		if assert.True(t, ok, command) {
			assert.Equal(t, want, d.Preset.Name, command)
		}
	}
}

// A command of wrappers only (a README's `uv run` on its own line) runs
// nothing: Detect finds no preset, and must not panic.
func TestDetectOnlyWrappers(t *testing.T) {
	for _, command := range []string{"uv run", "bundle exec", "npx", "sudo"} {
		_, ok := Detect(command, nil, t.TempDir())
		assert.False(t, ok, command)
	}
}

// Words a variable adds only when it is set (${DEBUG:+rdbg ... --}) hide
// the program procs usually runs; a default (${PORT:-3000}) is the word.
func TestDetectThroughExpansions(t *testing.T) {
	for command, want := range map[string]string{
		"bundle exec ${DEBUG:+rdbg -O -n -c --} bin/rails server -b 0.0.0.0":  "rails",
		"bundle exec $${DEBUG:+rdbg -O -n -c --} bin/rails server -b 0.0.0.0": "rails",
		"${RUNNER:-uvicorn} main:app --port ${PORT:-8000}":                    "uvicorn",
	} {
		d, ok := Detect(command, nil, project("plain"))
		if assert.True(t, ok, command) {
			assert.Equal(t, want, d.Preset.Name, command)
		}
	}
}

// A reason quotes the command as the shell reads it: an empty argument
// stays visible.
func TestDetectReasonKeepsEmptyWords(t *testing.T) {
	d, ok := Detect(`redis-server --port 6390 --save ""`, nil, project("plain"))
	require.True(t, ok)
	assert.Equal(t, `command "redis-server --port 6390 --save ''" matches /(^|[\s/])(redis-server|valkey-server)(\s|$)/`, d.Reason)
	assert.Equal(t, `"it's" 'a b' plain -p $PORT "$HOME/a b" 'say "hi"'`, shellJoin([]string{"it's", "a b", "plain", "-p", "$PORT", "$HOME/a b", `say "hi"`}))
	// Python's -c code quotes its strings in single quotes: written back
	// in double quotes, as the user wrote it, not as '\''.
	d, ok = Detect(`python3 -c "print('migrating'); print('done')"`, nil, project("plain"))
	require.True(t, ok)
	assert.Contains(t, d.Reason, `command "python3 -c \"print('migrating'); print('done')\"" matches`)
}
