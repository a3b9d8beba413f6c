//go:build unix

package compose

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	frameworks "github.com/procsdev/procs/builtin-frameworks"
	"github.com/procsdev/procs/internal/testenv"
	"github.com/procsdev/procs/rules"
)

// fakePostgres prints postgres's ready line and listens on the port of
// its first argument, answering nothing: whether it serves is for the
// preset's probe (pg_isready) to say.
const fakePostgres = `
import socket, sys, time
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1])))
s.listen()
print("LOG:  database system is ready to accept connections", flush=True)
while True:
    time.sleep(60)
`

// fakePgIsready passes once the file named by FAKE_PG_READY exists,
// saying each time that it was asked.
const fakePgIsready = `#!/bin/sh
echo asked >> "$FAKE_PG_ASKED"
test -e "$FAKE_PG_READY"
`

// A preset's exec probe whose program is in the process's env: PATH, not
// in procs', is used, and run from that PATH: it was dropped as "not
// installed", and the run was ready without it. procs' PATH is empty, so
// the server's python3 is found in that PATH too.
func TestPresetExecProbeFromTheProcessPATH(t *testing.T) {
	testenv.LookPath(t, "python3")
	ownPath := os.Getenv("PATH")
	postgres, _ := frameworks.Lookup("postgres")
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	require.NoError(t, os.MkdirAll(bin, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(bin, "pg_isready"), []byte(fakePgIsready), 0o755))
	// procs' own PATH has no program at all, whatever the machine has.
	t.Setenv("PATH", t.TempDir())

	t.Run("readyProbeOf", func(t *testing.T) {
		cfg := parseConfig(t, fmt.Sprintf("procs:\n  db:\n    command: postgres -D data -p 5433\n    env: {PATH: %q}\n", bin))
		spec, port := readyProbeOf(cfg.Procs["db"], postgres, cfg.Env)
		require.NotNil(t, spec, "pg_isready is in the process's PATH")
		assert.Equal(t, 5433, port)
		assert.Equal(t, "pg_isready", spec.Argv[0])
	})

	// The global env: is every process's PATH, unless its own env: has one.
	t.Run("global env", func(t *testing.T) {
		cfg := parseConfig(t, fmt.Sprintf("env: {PATH: %q}\nprocs:\n  db:\n    command: postgres -D data -p 5433\n", bin))
		spec, _ := readyProbeOf(cfg.Procs["db"], postgres, cfg.Env)
		require.NotNil(t, spec, "pg_isready is in the global env's PATH")
		cfg = parseConfig(t, fmt.Sprintf("env: {PATH: %q}\nprocs:\n  db:\n    command: postgres -D data -p 5433\n    env: {PATH: %q}\n", bin, t.TempDir()))
		spec, _ = readyProbeOf(cfg.Procs["db"], postgres, cfg.Env)
		assert.Nil(t, spec, "the process's own PATH, without pg_isready, wins")
	})

	t.Run("run", func(t *testing.T) {
		port := freePort(t)
		script := filepath.Join(dir, "fake_postgres.py")
		asked, ready := filepath.Join(dir, "asked"), filepath.Join(dir, "ready")
		require.NoError(t, os.WriteFile(script, []byte(fakePostgres), 0o644))
		te := startEngine(t, fmt.Sprintf(`
procs:
  db:
    command: [python3, %q, "%d"]
    framework: postgres
    port: %[2]d
    env:
      PATH: %q
      FAKE_PG_ASKED: %q
      FAKE_PG_READY: %q
`, script, port, bin+":"+ownPath, asked, ready), Options{NoWatchdog: true})
		if !assert.Eventually(t, func() bool {
			_, err := os.Stat(asked)
			return err == nil
		}, waitLimit, 20*time.Millisecond, "pg_isready was never asked") {
			t.Fatal(te.describe())
		}
		st, err := te.StatusOf("db")
		require.NoError(t, err)
		require.Equal(t, rules.StateStarting, st.State, "ready while pg_isready fails: %+v", st)

		require.NoError(t, os.WriteFile(ready, nil, 0o644))
		ev := te.waitState("db", rules.StateReady)
		assert.Contains(t, ev.Message, "pg_isready exited 0")
	})
}
