package scaffold

import (
	"slices"
	"strings"

	"github.com/procsdev/procs/internal/lazyregexp"
)

// workspaceRunner matches a script that starts the packages of a
// workspace itself (turbo dev, nx run-many, lerna run, pnpm -r dev,
// yarn workspaces foreach, npm run dev --workspaces, bun run --filter '*'
// dev): its packages get processes of their own instead.
var workspaceRunner = lazyregexp.New(`(^|[\s;&|(])(turbo|nx\s+(run-many|affected)|lerna\s+run|yarn\s+workspaces\s+foreach)(\s|$)` +
	`|(^|[\s;&|(])(pnpm|npm|bun)\s(.*\s)?(-r|--recursive|--filter|-F|--workspaces|-ws)(\s|=|$)`)

// startsWorkspace reports whether a package.json script runs the scripts
// of the workspace's packages.
func startsWorkspace(script string) bool { return workspaceRunner.MatchString(script) }

// buildTools are programs that build once and exit unless told to watch;
// cleanupTools may come before them in a chain (rimraf dist && tsc).
var (
	buildTools   = []string{"tsc", "tsup", "unbuild", "rollup", "esbuild", "babel", "swc", "ncc", "microbundle", "pkgroll"}
	cleanupTools = []string{"rimraf", "rm", "del", "del-cli", "shx", "mkdir", "cp", "cpy", "copyfiles"}
	watchFlag    = lazyregexp.New(`(^|\s)(--watch|-w|--watch=\S*|watch)(\s|$)`)
	chainSplit   = lazyregexp.New(`\s*(&&|;)\s*`)
)

// isOneShotBuild reports whether a dev script only builds and exits
// (`tsc`, `rimraf dist && tsup`, `vite build`), so that its package is a
// task the packages using it wait for, not a server.
func isOneShotBuild(script string) bool {
	if strings.TrimSpace(script) == "" || watchFlag.MatchString(script) {
		return false
	}
	builds := false
	for _, step := range chainSplit.Regexp().Split(strings.TrimSpace(script), -1) {
		words := strings.Fields(step)
		if len(words) == 0 {
			continue
		}
		program := words[0]
		switch {
		case slices.Contains(buildTools, program), program == "vite" && len(words) > 1 && words[1] == "build":
			builds = true
		case slices.Contains(cleanupTools, program):
		default:
			return false
		}
	}
	return builds
}

// isBuildWatch reports whether a dev script runs a build tool in watch
// mode (`tsc --watch`): a long-running step that serves nothing.
func isBuildWatch(script string) bool {
	words := strings.Fields(script)
	return len(words) > 0 && slices.Contains(buildTools, words[0]) && watchFlag.MatchString(script)
}

// linkWorkspaceBuilds makes each package that depends on a workspace
// package built by a one-shot task (its dev script is `tsc`) wait for that
// task to have completed.
func (pl *plan) linkWorkspaceBuilds() {
	for _, build := range pl.procs {
		if build.kind != "build" || !build.task || build.pkg == nil || build.pkg.Name == "" {
			continue
		}
		for _, p := range pl.procs {
			if p == build || p.pkg == nil || slices.Contains(p.taskDeps, build.name) {
				continue
			}
			_, inDeps := p.pkg.Dependencies[build.pkg.Name]
			_, inDev := p.pkg.DevDependencies[build.pkg.Name]
			if inDeps || inDev {
				p.taskDeps = append(p.taskDeps, build.name)
			}
		}
	}
}
