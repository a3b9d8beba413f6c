package frameworks_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose"
	"github.com/procsdev/procs/internal/testenv"
	"github.com/procsdev/procs/rules"
)

// viteApp is the fixture project: package.json (vite in devDependencies,
// "dev": "vite"), its lockfile and an index.html. .ci/run installs its
// node_modules.
const viteApp = "testdata/e2e/vite"

// localLine is the URL line vite prints once it serves.
var localLine = regexp.MustCompile(`Local:\s+http://127\.0\.0\.1:(\d+)/`)

// viteProject copies the fixture into a temp dir, sharing its node_modules,
// so that runs do not write into the repository or into each other.
func viteProject(t *testing.T) string {
	t.Helper()
	testenv.LookPath(t, "npm")
	modules, err := filepath.Abs(filepath.Join(viteApp, "node_modules"))
	require.NoError(t, err)
	if _, err := os.Stat(filepath.Join(modules, ".bin", "vite")); err != nil {
		testenv.Missing(t, "vite is not installed in "+viteApp+" (npm install there, or run .ci/run)")
	}
	dir := t.TempDir()
	for _, f := range []string{"package.json", "index.html"} {
		data, err := os.ReadFile(filepath.Join(viteApp, f))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, f), data, 0o644))
	}
	require.NoError(t, os.Symlink(modules, filepath.Join(dir, "node_modules")))
	return dir
}

// viteProcs is a procs.yaml running the project the way its README would:
// npm run dev, nothing else; extra goes after `--` to vite.
func viteProcs(port int, extra string) string {
	return fmt.Sprintf("procs:\n  web: {command: \"npm run dev -- --port %d --host 127.0.0.1 %s\"}\n", port, extra)
}

// TestE2EVite runs a real Vite app with `npm run dev`: procs finds vite
// through package.json, is ready on vite's own lines, follows vite to the
// port it really uses when its port is taken, and fails, never ready, when
// --strictPort forbids moving or the config is broken.
func TestE2EVite(t *testing.T) {
	t.Parallel()

	t.Run("dev", func(t *testing.T) {
		t.Parallel()
		dir, port := viteProject(t), freePort(t)
		r := startProcs(t, dir, viteProcs(port, ""))
		res, st := r.requireReadyBy("web", "vite")
		assert.Regexp(t, `VITE v\d+\.\d+\.\d+\s+ready in|Local:`, st.Line, "the deciding line")
		assertPorts(t, res.Ports, port)
		r.stop()
		requirePortFree(t, port)
	})

	t.Run("port-moved", func(t *testing.T) {
		t.Parallel()
		dir, taken := viteProject(t), occupy(t)
		r := startProcs(t, dir, viteProcs(taken, ""))
		res, _ := r.requireReadyBy("web", "vite")
		// Ready comes with vite's first banner line; the URL follows it.
		var text string
		var m []string
		require.Eventually(t, func() bool {
			logs, err := r.engine.Logs("web", 0)
			text = lineTexts(logs)
			m = localLine.FindStringSubmatch(text)
			return err == nil && m != nil
		}, e2eLimit, 20*time.Millisecond, "vite names the port it moved to:\n%s", text)
		assert.Contains(t, text, fmt.Sprintf("Port %d is in use, trying another one...", taken))
		used, _ := strconv.Atoi(m[1])
		assert.NotEqual(t, taken, used)
		// procs must report where the server really is, not where it was told to be.
		assertPorts(t, res.Ports, used, taken)
		st, err := r.engine.StatusOf("web")
		require.NoError(t, err)
		assertPorts(t, st.Ports, used, taken)
		r.stop()
		requirePortFree(t, used)
	})

	t.Run("strict-port-in-use", func(t *testing.T) {
		t.Parallel()
		dir, taken := viteProject(t), occupy(t)
		r := startProcs(t, dir, viteProcs(taken, "--strictPort"))
		ev := r.requireFailedNeverReady("web", "vite")
		assert.Contains(t, ev.Message, "error when starting dev server")
		logs, err := r.engine.Logs("web", 0)
		require.NoError(t, err)
		assert.Contains(t, lineTexts(logs), fmt.Sprintf("Port %d is already in use", taken))
	})

	// An edit that breaks vite.config.js makes the running server
	// unhealthy; the edit that fixes it brings it back, as vite restarts
	// its server itself.
	t.Run("config-edit-recovers", func(t *testing.T) {
		t.Parallel()
		dir, port := viteProject(t), freePort(t)
		config := filepath.Join(dir, "vite.config.js")
		require.NoError(t, os.WriteFile(config, []byte("export default {}\n"), 0o644))
		r := startProcs(t, dir, viteProcs(port, ""))
		r.requireReadyBy("web", "vite")

		require.NoError(t, os.WriteFile(config, []byte("export default { broken( }\n"), 0o644))
		// Unhealthy, then quoting esbuild's line that says where.
		r.waitEvent("web unhealthy at vite.config.js:1:", func(ev compose.Event) bool {
			return ev.Proc == "web" && ev.To == rules.StateUnhealthy && strings.Contains(ev.Message, "vite.config.js:1:")
		})

		// Vite ignores edits for a moment after a failed restart, as it
		// would a user's: the fix is written again until vite takes it.
		fixed := []byte("export default { server: {} }\n")
		var st compose.ProcStatus
		require.Eventually(t, func() bool {
			require.NoError(t, os.WriteFile(config, fixed, 0o644))
			var err error
			st, err = r.engine.StatusOf("web")
			return err == nil && st.State == rules.StateReady
		}, e2eLimit, time.Second, "web stayed %s", st.State)
		assert.Equal(t, rules.ReasonRecovered, st.Reason)
		assert.Contains(t, st.Message, "server restarted")
		r.stop()
		requirePortFree(t, port)
	})

	t.Run("bad-config", func(t *testing.T) {
		t.Parallel()
		dir, port := viteProject(t), freePort(t)
		require.NoError(t, os.WriteFile(filepath.Join(dir, "vite.config.js"), []byte("export default {\n"), 0o644))
		r := startProcs(t, dir, viteProcs(port, ""))
		ev := r.requireFailedNeverReady("web", "vite")
		assert.Contains(t, ev.Message, "failed to load config")
	})
}
