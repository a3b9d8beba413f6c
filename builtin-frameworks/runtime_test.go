package frameworks

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeScript writes an executable file of text at dir/rel.
func writeScript(t *testing.T, dir, rel, text string) {
	t.Helper()
	path := filepath.Join(dir, filepath.FromSlash(rel))
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(text), 0o755))
}

// pnpmShim is the shell script pnpm writes in node_modules/.bin for a
// package's command (pnpm 9).
const pnpmShim = `#!/bin/sh
basedir=$(dirname "$(echo "$0" | sed -e 's,\\,/,g')")

case ` + "`uname`" + ` in
    *CYGWIN*) basedir=` + "`cygpath -w \"$basedir\"`" + `;;
esac

if [ -z "$NODE_PATH" ]; then
  export NODE_PATH="/p/node_modules/.pnpm/node_modules"
fi
if [ -x "$basedir/node" ]; then
  exec "$basedir/node"  "$basedir/../@11ty/eleventy/cmd.cjs" "$@"
else
  exec node  "$basedir/../@11ty/eleventy/cmd.cjs" "$@"
fi
`

// TestProgramsOfARuntimeGetItsPreset: a program no preset names, run on
// node or python (an npm package's command, a pip-installed script), gets
// the runtime's generic preset, which waits for a ready line or a port;
// without it such a server was ready after one second of running.
func TestProgramsOfARuntimeGetItsPreset(t *testing.T) {
	dir := t.TempDir()
	writeScript(t, dir, "node_modules/.bin/hardhat", "#!/usr/bin/env node\nrequire('../hardhat/internal/cli/bootstrap.js')\n")
	writeScript(t, dir, "node_modules/.bin/json-server", pnpmShim)
	writeScript(t, dir, "node_modules/.bin/concurrently", "#!/usr/bin/env node\n")
	writeScript(t, dir, "bin/docs", "#!/usr/bin/python3.11\nimport sys\n")
	writeScript(t, dir, "bin/notebook", "#!/usr/bin/env python3\n")
	writeScript(t, dir, "bin/edge", "#!/usr/bin/env -S deno run --allow-net\n")
	writeScript(t, dir, "bin/rubytool", "#!/usr/bin/env ruby\n")
	writeScript(t, dir, "bin/wrapper", "#!/bin/sh\nexec node server.js\n")
	writeScript(t, dir, "package.json", `{"scripts": {"start": "hardhat node", "api": "json-server db.json",
		"deps": "concurrently \"a\" \"b\""}}`)
	sub := filepath.Join(dir, "packages", "site")
	writeScript(t, sub, "package.json", `{"scripts": {"dev": "hardhat node --port 8546"}}`)
	withVite := filepath.Join(dir, "app")
	writeScript(t, withVite, "package.json", `{"scripts": {"dev": "concurrently \"vite\" \"node api.js\""},
		"devDependencies": {"vite": "^7"}}`)

	tests := []struct {
		name, command, dir string
		preset, runtime    string // "" = nothing detected
		reason             string
	}{
		{"npm script", "npm start", dir, "express", "node",
			`package.json script "start" runs "hardhat node"; node_modules/.bin/hardhat is a node script (#!/usr/bin/env node), which no preset names`},
		{"npx", "npx hardhat node", dir, "express", "node", ""},
		{"the shell script pnpm writes", "pnpm run api", dir, "express", "node",
			`package.json script "api" runs "json-server db.json"; node_modules/.bin/json-server is a node script (a shell script that runs node), which no preset names`},
		{"node_modules/.bin of a folder above (a workspace)", "npm run dev", sub, "express", "node", ""},
		{"python with its version", "./bin/docs serve", dir, "python", "python",
			`bin/docs is a python script (#!/usr/bin/python3.11), which no preset names`},
		{"python through env", "bin/notebook --port 8888", dir, "python", "python", ""},
		{"deno through env -S", "bin/edge", dir, "deno", "deno", ""},
		// What the project says comes first: a wrapper script in a Vite
		// project runs Vite.
		{"a dependency's preset before the runtime's", "npm run dev", withVite, "vite", "", ""},
		{"a ruby script has no runtime preset", "bin/rubytool", dir, "", "", ""},
		{"a shell script outside node_modules/.bin says nothing", "bin/wrapper", dir, "", "", ""},
		{"a binary", "sleep 1000", dir, "", "", ""},
		{"a package manager runs something else", "npm install", dir, "", "", ""},
		{"no such program", "no-such-program-anywhere --serve", dir, "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, ok := Detect(tt.command, nil, tt.dir)
			if tt.preset == "" {
				assert.False(t, ok, "detected %+v", d)
				return
			}
			require.True(t, ok, "nothing detected")
			assert.Equal(t, tt.preset, d.Preset.Name, d.Reason)
			assert.Equal(t, tt.runtime, d.Runtime)
			if tt.reason != "" {
				assert.Equal(t, tt.reason, d.Reason)
			}
		})
	}
}

// TestShebangProgram reads the interpreter of a script's first line.
func TestShebangProgram(t *testing.T) {
	for line, want := range map[string]string{
		"#!/usr/bin/env node":                    "node",
		"#! /usr/local/bin/node --no-warnings":   "node",
		"#!/usr/bin/env -S deno run --allow-all": "deno",
		"#!/usr/bin/env -u FOO PY=1 python3":     "python3",
		"#!/opt/venv/bin/python":                 "python",
		"#!/bin/sh":                              "sh",
		"import sys":                             "",
		"#!":                                     "",
	} {
		got, ok := shebangProgram(line)
		assert.Equal(t, want != "", ok, line)
		assert.Equal(t, want, got, line)
	}
}

// TestRuntimeLookupsAtOnce: the engine detects the processes of a config
// one after another, but a reload and procs detect may run beside it; the
// lookups they share (runtimeCache) give each the same answer.
func TestRuntimeLookupsAtOnce(t *testing.T) {
	dir := t.TempDir()
	writeScript(t, dir, "node_modules/.bin/hardhat", "#!/usr/bin/env node\n")
	done := make(chan Detection, 16)
	for range cap(done) {
		go func() {
			d, _ := Detect("npx hardhat node", nil, dir)
			done <- d
		}()
	}
	for range cap(done) {
		d := <-done
		require.NotNil(t, d.Preset)
		assert.Equal(t, "express", d.Preset.Name)
		assert.Equal(t, "node", d.Runtime)
	}
}
