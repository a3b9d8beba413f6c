package scaffold

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose/config"
)

func TestStartsWorkspace(t *testing.T) {
	for script, want := range map[string]bool{
		"turbo dev":                                true,
		"turbo run dev --parallel":                 true,
		"dotenv -- turbo dev":                      true,
		"pnpm -r dev":                              true,
		"pnpm --parallel -r run dev":               true,
		"pnpm --filter './apps/*' dev":             true,
		"npm run dev --workspaces":                 true,
		"npm run dev -ws --if-present":             true,
		"bun run --filter '*' dev":                 true,
		"bun --filter './packages/*' dev":          true,
		"yarn workspaces foreach -pi run dev":      true,
		"nx run-many -t serve":                     true,
		"lerna run dev --parallel":                 true,
		"vite":                                     false,
		"next dev":                                 false,
		"node server.js":                           false,
		"tsx watch src/index.ts":                   false,
		"pnpm dev":                                 false,
		"npm run build && node dist/server.js":     false,
		"concurrently \"npm:dev:*\" --kill-others": false,
	} {
		assert.Equal(t, want, startsWorkspace(script), script)
	}
}

func TestOneShotBuilds(t *testing.T) {
	for script, want := range map[string]bool{
		"tsc":                        true,
		"tsc -b":                     true,
		"tsc -p tsconfig.build.json": true,
		"rimraf dist && tsc":         true,
		"tsup src/index.ts --dts":    true,
		"vite build":                 true,
		"unbuild":                    true,
		"tsc --watch":                false,
		"tsc -w":                     false,
		"tsup --watch":               false,
		"vite":                       false,
		"tsc && node dist/index.js":  false,
		"rimraf dist":                false,
		"":                           false,
	} {
		assert.Equal(t, want, isOneShotBuild(script), script)
	}
	assert.True(t, isBuildWatch("tsc --watch"))
	assert.False(t, isBuildWatch("vite"))
}

// TestWorkspaceRunnersOfEveryManager: whichever tool the root's dev script
// uses to start the workspace, it is left out and the packages are in.
func TestWorkspaceRunnersOfEveryManager(t *testing.T) {
	for _, root := range []string{
		`{"workspaces": ["packages/*"], "scripts": {"dev": "bun run --filter '*' dev"}, "devDependencies": {"vite": "5"}}`,
		`{"workspaces": ["packages/*"], "scripts": {"dev": "npm run dev --workspaces"}, "devDependencies": {"vite": "5"}}`,
		`{"workspaces": {"packages": ["packages/*"]}, "scripts": {"dev": "turbo dev"}}`,
	} {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{
			"package.json":               root,
			"packages/site/package.json": `{"name": "site", "scripts": {"dev": "vite"}, "devDependencies": {"vite": "5"}}`,
			"packages/lib/package.json":  `{"name": "lib", "scripts": {"dev": "tsc"}}`,
		})
		cfg, _ := generateConfig(t, dir)
		assert.ElementsMatch(t, []string{"lib", "site"}, cfg.Names(), root)
		assert.Equal(t, config.KindTask, cfg.Procs["lib"].Kind, root)
		assert.Empty(t, cfg.Procs["site"].DependsOn, "site does not use lib: it does not wait for it")
	}
}

// TestFastAPICommands: fastapi[standard] (or fastapi-cli) runs fastapi dev,
// as FastAPI's docs say; plain fastapi with uvicorn runs uvicorn.
func TestFastAPICommands(t *testing.T) {
	for deps, want := range map[string]string{
		"fastapi[standard]>=0.115\n":   "python3 -m fastapi dev main.py --port 8000",
		"fastapi-cli\nfastapi\n":       "python3 -m fastapi dev main.py --port 8000",
		"fastapi\nuvicorn[standard]\n": "python3 -m uvicorn main:app --reload --port 8000",
	} {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{"requirements.txt": deps, "main.py": "from fastapi import FastAPI\napp = FastAPI()\n"})
		cfg, _ := generateConfig(t, dir)
		require.Contains(t, cfg.Procs, "web")
		assert.Equal(t, want, cfg.Procs["web"].Command.Shell, deps)
		_, res := generateConfig(t, dir)
		assert.Contains(t, res.Procs[0].Why, "uvicorn", "procs up detects it: %s", deps)
	}
}
