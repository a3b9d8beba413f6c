package compose

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/rules"
)

// deps.NAME in a ready rule is the state of that dependency, at the run's
// start and as it changes: the engine sent none, and a rule that read it
// was never true.
func TestAReadyRuleReadsItsDependencysState(t *testing.T) {
	te := startEngine(t, `
procs:
  db: {command: "echo up; sleep 60", readyPatterns: [up]}
  api:
    command: "echo hi; sleep 60"
    dependsOn: [db]
    ready: 'deps.db == "ready" && log.contains("hi")'
`, Options{NoWatchdog: true})
	te.waitState("api", rules.StateReady)
}

// A run that starts with its dependency only started learns of the
// dependency's ready as it comes: its rule becomes true then, not before.
func TestAReadyRuleSeesItsDependencyChange(t *testing.T) {
	te := startEngine(t, `
procs:
  db: {command: "sleep 0.5; echo up; sleep 60", readyPatterns: [up]}
  api:
    command: "echo hi; sleep 60"
    dependsOn: {db: started}
    ready: 'deps.db == "ready"'
`, Options{NoWatchdog: true})
	te.waitState("api", rules.StateStarting)
	ready := te.waitFor("a ready", func(ev Event) bool { return ev.Type == EventState && ev.To == rules.StateReady })
	assert.Equal(t, "db", ready.Proc, "db is ready first: api waits for it")
	te.waitState("api", rules.StateReady)
}

// A line a program leaves unterminated while it waits (a banner written
// with print(..., end=""), a prompt) is a line once the output has been
// quiet a moment: its ready pattern matches, and procs logs shows it.
func TestAnUnterminatedLineCountsOnceTheOutputIsQuiet(t *testing.T) {
	te := startEngine(t, `
procs:
  srv:
    command: "printf 'ready to accept connections'; sleep 60"
    readyPatterns: ['ready to accept connections$']
`, Options{NoWatchdog: true})
	te.waitState("srv", rules.StateReady)
	lines, err := te.Logs("srv", 5)
	require.NoError(t, err)
	require.NotEmpty(t, lines)
	assert.Equal(t, "ready to accept connections", lines[len(lines)-1].Text)
}

// A result does not quote its cause line twice: a long line (a JSON log
// line of pino or fastify) is quoted shortened in the message, and that
// quote counts as quoting it.
func TestAResultQuotesALongLineOnce(t *testing.T) {
	line := `{"level":50,"msg":"listen EADDRINUSE: address already in use 127.0.0.1:7702","stack":"` + strings.Repeat("at x ", 120) + `"}`
	msg := "error line " + rules.Quote(line) + " (matched /EADDRINUSE/); then exit code 1"
	assert.True(t, quotes(msg, line), msg)
	assert.False(t, quotes("exit code 1", line))
}

// A healthcheck is a condition of readiness: a real server whose ready
// line came and whose port is open is not ready while its healthcheck
// answers 404, and is ready once it answers 200, as soon as it does, not
// a healthcheck interval later.
func TestAHealthcheckHoldsReadinessUntilItPasses(t *testing.T) {
	dir := t.TempDir()
	port := freePort(t)
	te := startEngine(t, fmt.Sprintf(`
procs:
  web:
    command: python3 -m http.server %[1]d --bind 127.0.0.1 --directory %[2]s
    port: %[1]d
    healthcheck: {http: "http://127.0.0.1:%[1]d/health", interval: 1h}
`, port, dir), Options{NoWatchdog: true})
	// The server has printed its ready line and answered the healthcheck
	// 404 (its log says so) twice: it had its chance to be ready.
	require.Eventually(t, func() bool {
		lines, _ := te.Logs("web", 50)
		answered := 0
		for _, l := range lines {
			if strings.Contains(l.Text, `"GET /health HTTP/1.1" 404`) {
				answered++
			}
		}
		return answered >= 2
	}, waitLimit, 20*time.Millisecond)
	st := te.statusOf("web")
	assert.Equal(t, rules.StateStarting, st.State, "not ready while /health answers 404: %s", st.Message)
	// Status, and a wait that gives up, say why: what the healthcheck
	// answered, not "starting: <command>".
	assert.Contains(t, st.Message, fmt.Sprintf("GET http://127.0.0.1:%d/health: 404", port))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "health"), []byte("ok"), 0o644))
	ready := te.waitState("web", rules.StateReady)
	assert.Contains(t, ready.Message, fmt.Sprintf("GET http://127.0.0.1:%d/health answered 200", port))
}

// An exec healthcheck runs as docker compose's does, in the process's own
// environment: its env:, its PORT, its env files. Run in procs' own, a
// pg_isready checked the default port, not the PGPORT the process was
// given, and a check of ${FOO} never passed.
func TestAnExecHealthcheckRunsInTheProcesssEnvironment(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "check.env"), []byte("FROM_FILE=yes\n"), 0o644))
	te := startEngine(t, fmt.Sprintf(`
procs:
  web:
    command: sleep 300
    env: {FOO: bar}
    envFile: %s
    healthcheck:
      exec: [sh, -c, 'echo "FOO=$$FOO FROM_FILE=$$FROM_FILE"; test "$$FOO" = bar && test "$$FROM_FILE" = yes']
      interval: 1h
`, filepath.Join(dir, "check.env")), Options{NoWatchdog: true})
	ready := te.waitState("web", rules.StateReady)
	assert.Contains(t, ready.Message, "sh")
}

// Once ready, the healthcheck runs at its own interval: consecutive
// failures make the process unhealthy, and a pass brings it back.
func TestAHealthcheckWatchesAReadyProcess(t *testing.T) {
	dir := t.TempDir()
	health := filepath.Join(dir, "health")
	require.NoError(t, os.WriteFile(health, []byte("ok"), 0o644))
	port := freePort(t)
	te := startEngine(t, fmt.Sprintf(`
procs:
  web:
    command: python3 -m http.server %[1]d --bind 127.0.0.1 --directory %[2]s
    port: %[1]d
    healthcheck: {http: "http://127.0.0.1:%[1]d/health", interval: 100ms, failures: 2}
`, port, dir), Options{NoWatchdog: true})
	te.waitState("web", rules.StateReady)
	require.NoError(t, os.Remove(health))
	unhealthy := te.waitState("web", rules.StateUnhealthy)
	assert.Contains(t, unhealthy.Message, fmt.Sprintf("healthcheck failed 2 times: GET http://127.0.0.1:%d/health: 404", port))
	require.NoError(t, os.WriteFile(health, []byte("ok"), 0o644))
	back := te.waitState("web", rules.StateReady)
	assert.Equal(t, "healthcheck passes again", back.Message)
}

// Each instance of a replicated process has its own healthcheck: in an
// exec healthcheck written as one string, ${PORT} is left to the shell,
// as in command:, and the shell reads the instance's own PORT. (It was
// refused: every instance would have checked the first one's port.)
func TestEachReplicaHasItsOwnExecHealthcheck(t *testing.T) {
	dir := t.TempDir()
	port := freePort(t)
	te := startEngine(t, fmt.Sprintf(`
procs:
  web:
    command: python3 -m http.server ${PORT} --bind 127.0.0.1
    port: %d
    replicas: 2
    healthcheck: {exec: 'test -f %s/ok-${PORT}', interval: 1h}
`, port, dir), Options{NoWatchdog: true})
	require.NoError(t, os.WriteFile(filepath.Join(dir, fmt.Sprintf("ok-%d", port+1)), nil, 0o644))
	second := te.waitState("web-2", rules.StateReady)
	assert.Contains(t, second.Message, "sh")
	first := te.statusOf("web-1")
	assert.Equal(t, rules.StateStarting, first.State, first.Message)
	assert.Contains(t, first.Message, "sh failing")
	require.NoError(t, os.WriteFile(filepath.Join(dir, fmt.Sprintf("ok-%d", port)), nil, 0o644))
	te.waitState("web-1", rules.StateReady)
}
