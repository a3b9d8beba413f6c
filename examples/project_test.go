package examples_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose"
	"github.com/procsdev/procs/internal/testenv"
)

// commandLimit bounds one procs command. Generous: the machine is shared and
// slow, and a first Vite or Postgres start may take a while; no test asserts
// how long anything took.
const commandLimit = 5 * time.Minute

// project is one example copied into a temp folder and run there with the
// procs binary, the way its README says.
type project struct {
	t     *testing.T
	name  string
	dir   string
	env   []string
	ports []int
}

// newProject copies examples/NAME into a temp folder, checks its ports are
// free, and, when the test ends, stops procs there and checks that no
// process of the example is left and none of its ports is still listened on.
func newProject(t *testing.T, name string, ports ...int) *project {
	t.Helper()
	dir := t.TempDir()
	copyExample(t, name, dir)
	// The test's temp folders are private to us; a server that runs as
	// another user (postgres, when we are root) must reach the project.
	require.NoError(t, os.Chmod(filepath.Dir(dir), 0o711))
	require.NoError(t, os.Chmod(dir, 0o755))
	for _, port := range ports {
		require.True(t, portFree(port), "port %d of example %s is taken before it starts: %s", port, name, holderOf(port))
	}
	p := &project{t: t, name: name, dir: dir, ports: ports, env: projectEnv(dir)}
	t.Cleanup(p.cleanup)
	return p
}

// projectEnv is the test's environment for procs, with XDG_RUNTIME_DIR in
// the project so that a fallback socket path stays short and private.
func projectEnv(dir string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "XDG_RUNTIME_DIR=") {
			env = append(env, kv)
		}
	}
	return append(env, "XDG_RUNTIME_DIR="+dir)
}

// copyExample copies examples/NAME into dir, leaving out what a run
// leaves behind (.procs, .data), and links each node_modules folder
// instead of copying it.
func copyExample(t *testing.T, name, dir string) {
	t.Helper()
	src, err := filepath.Abs(name)
	require.NoError(t, err)
	err = filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		dst := filepath.Join(dir, rel)
		switch {
		case d.IsDir() && (d.Name() == ".procs" || d.Name() == ".data"):
			return filepath.SkipDir
		case d.IsDir() && d.Name() == "node_modules":
			if err := os.Symlink(path, dst); err != nil {
				return err
			}
			return filepath.SkipDir
		case d.IsDir():
			return os.MkdirAll(dst, 0o755)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, info.Mode().Perm())
	})
	require.NoError(t, err, "copy example %s", name)
}

// requireNodeModules checks that `npm install` has run in examples/FOLDER
// (.ci/run does it) by looking for one installed package.
func requireNodeModules(t *testing.T, folder, pkg string) {
	t.Helper()
	testenv.LookPath(t, "npm")
	testenv.LookPath(t, "node")
	if _, err := os.Stat(filepath.Join(folder, "node_modules", pkg, "package.json")); err != nil {
		testenv.Missing(t, pkg+" is not installed in examples/"+folder+" (npm install there, or run .ci/run)")
	}
}

// procs runs the procs binary in the project and returns its stdout, its
// stderr and its exit code.
func (p *project) procs(args ...string) (stdout, stderr string, code int) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), commandLimit)
	defer cancel()
	cmd := exec.CommandContext(ctx, procsBin, args...)
	cmd.Dir, cmd.Env = p.dir, p.env
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exitErr *exec.ExitError
	switch {
	case errors.As(err, &exitErr):
		code = exitErr.ExitCode()
	case err != nil:
		p.t.Fatalf("procs %s: %v", strings.Join(args, " "), err)
	}
	p.t.Logf("$ procs %s  → exit %d\n%s%s", strings.Join(args, " "), code, out.String(), errOut.String())
	return out.String(), errOut.String(), code
}

// mustProcs runs procs and requires exit code 0; it returns stdout.
func (p *project) mustProcs(args ...string) string {
	p.t.Helper()
	stdout, stderr, code := p.procs(args...)
	require.Equal(p.t, 0, code, "procs %s failed:\n%s%s\n%s", strings.Join(args, " "), stdout, stderr, p.logTails())
	return stdout
}

// up runs `procs up -d --wait`, which must return 0 with every process
// ready or completed, and returns its output.
func (p *project) up() string {
	p.t.Helper()
	return p.mustProcs("up", "-d", "--wait")
}

// status returns `procs status --json`, by process name.
func (p *project) status() map[string]compose.ProcStatus {
	p.t.Helper()
	var list []compose.ProcStatus
	require.NoError(p.t, json.Unmarshal([]byte(p.mustProcs("status", "--json")), &list))
	byName := map[string]compose.ProcStatus{}
	for _, st := range list {
		byName[st.Name] = st
	}
	return byName
}

// requirePresets checks the preset procs picked for each process: the
// examples set no readiness patterns where a preset applies.
func (p *project) requirePresets(want map[string]string) {
	p.t.Helper()
	status := p.status()
	for name, preset := range want {
		require.Contains(p.t, status, name)
		require.Equal(p.t, preset, status[name].Preset, "the preset of %s", name)
	}
}

// down runs `procs down`, which must stop everything and return 0.
func (p *project) down() {
	p.t.Helper()
	require.Contains(p.t, p.mustProcs("down"), "procs stopped")
}

// cleanup stops procs if a test left it running, then checks that no
// process of the example and no listener on its ports is left.
func (p *project) cleanup() {
	if _, err := os.Stat(filepath.Join(p.dir, ".procs", "procs.pid")); err == nil {
		p.procs("down")
	}
	requireNothingLeft(p.t, p.dir, p.ports)
}

// logTails is the end of every log file procs wrote, for failure messages.
func (p *project) logTails() string {
	files, _ := filepath.Glob(filepath.Join(p.dir, ".procs", "logs", "*.log"))
	var b strings.Builder
	for _, f := range files {
		data, _ := os.ReadFile(f)
		lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
		if len(lines) > 15 {
			lines = lines[len(lines)-15:]
		}
		b.WriteString("--- " + filepath.Base(f) + "\n" + strings.Join(lines, "\n") + "\n")
	}
	return b.String()
}

// httpClient has a generous timeout: a dev server's first page may compile.
var httpClient = &http.Client{Timeout: time.Minute}

// get requests url, which must answer 200, and returns the body.
func get(t *testing.T, url string) string {
	t.Helper()
	resp, err := httpClient.Get(url)
	require.NoError(t, err, "GET %s", url)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err, "GET %s", url)
	require.Equal(t, http.StatusOK, resp.StatusCode, "GET %s: %s", url, body)
	return string(body)
}

// getJSON requests url, which must answer 200 with JSON, into v.
func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	body := get(t, url)
	require.NoError(t, json.Unmarshal([]byte(body), v), "GET %s: %s", url, body)
}
