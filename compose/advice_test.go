package compose

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/rules"
)

// A package script's program not found in a fresh clone is a missing
// npm install, said with the package manager the lockfile names; in a
// workspace, the packages installed at its top count.
func TestInstallAdviceNamesTheMissingInstall(t *testing.T) {
	write := func(path, text string) {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	}
	failed := func(line string) rules.Verdict {
		return rules.Verdict{State: rules.StateFailed, Reason: rules.ReasonCrash, Line: line}
	}
	root := t.TempDir()
	web := filepath.Join(root, "web")
	write(filepath.Join(web, "package.json"), `{"scripts": {"dev": "vite"}}`)

	assert.Equal(t, "vite is not installed: no node_modules for "+filepath.Join(web, "package.json")+" (run npm install)",
		installAdvice(failed("sh: 1: vite: not found"), web))
	write(filepath.Join(root, "pnpm-lock.yaml"), "")
	assert.Contains(t, installAdvice(failed("bash: line 1: vite: command not found"), web), "(run pnpm install)")
	assert.Contains(t, installAdvice(failed("zsh: command not found: vite"), web), "vite is not installed")

	assert.Contains(t, installAdvice(failed("Error: Cannot find module 'express'"), web), "express is not installed: no node_modules")
	assert.Contains(t, installAdvice(failed("Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'express' imported from /x/server.js"), web), "express is not installed")
	assert.Empty(t, installAdvice(failed("Error: Cannot find module './routes'"), web), "the app's own file")

	write(filepath.Join(root, "node_modules", ".bin", "vite"), "")
	assert.Empty(t, installAdvice(failed("Error: Cannot find module 'express'"), web), "installed: not a missing install")
	// Installed (at the workspace's top), and not found: procs.yaml runs
	// it outside a package script, whose runner puts node_modules/.bin on
	// PATH.
	assert.Equal(t, `vite is in node_modules/.bin, which only pnpm run puts on PATH: write "pnpm exec vite", or run it from a package.json script`,
		installAdvice(failed("sh: 1: exec: vite: not found"), web))
	assert.Equal(t, "next is not in node_modules/.bin (run pnpm install, or add the package that provides it)",
		installAdvice(failed("sh: 1: next: not found"), web))

	assert.Empty(t, installAdvice(failed("sh: 1: vite: not found"), t.TempDir()), "no package.json: not a package script")
	assert.Empty(t, installAdvice(failed("Error: listen EADDRINUSE"), web))
	assert.Empty(t, installAdvice(rules.Verdict{State: rules.StateReady, Line: "sh: 1: vite: not found"}, web))
}

// A program a shell string runs, not found, is named with the one of the
// process's PATH a typo away: sh says only "pyhton3: not found".
func TestTypoAdviceNamesTheProgramMeant(t *testing.T) {
	bin := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(bin, "python3"), []byte("#!/bin/sh\n"), 0o755))
	env := []string{"PATH=" + bin}
	failed := func(line string) rules.Verdict {
		return rules.Verdict{State: rules.StateFailed, Reason: rules.ReasonCrash, Line: line}
	}
	assert.Equal(t, `pyhton3 is not in the process's PATH: did you mean "python3"?`,
		typoAdvice(failed("sh: 1: exec: pyhton3: not found"), env, t.TempDir()))
	assert.Equal(t, `pyhton3 is not in the process's PATH: did you mean "python3"?`,
		typoAdvice(failed("bash: line 1: pyhton3: command not found"), env, t.TempDir()))
	assert.Empty(t, typoAdvice(failed("sh: 1: exec: nodejs: not found"), env, t.TempDir()), "nothing close")
	assert.Equal(t, `source is bash's, and this sh has none: write . FILE, or bash -c '...'`,
		typoAdvice(failed("sh: 1: source: not found"), env, t.TempDir()), "a procs.yaml written where sh is bash")
	assert.Empty(t, typoAdvice(failed("sh: 1: ./pyhton3: not found"), env, t.TempDir()), "a path is not looked up")
	assert.Empty(t, typoAdvice(rules.Verdict{State: rules.StateReady, Line: "sh: 1: pyhton3: not found"}, env, t.TempDir()))
}
