package compose

import (
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/internal/testenv"
	"github.com/procsdev/procs/rules"
)

// TestRealRedisCLI drives redis-cli against a redis-server started in the
// same project: a blocking command, then SUBSCRIBE left with Ctrl-C, whose
// "Reading messages" banner stays on screen above the prompt.
func TestRealRedisCLI(t *testing.T) {
	needProgram(t, "redis-server", "redis-cli")
	port := freePort(t)
	te := startEngine(t, fmt.Sprintf(`
procs:
  redis:
    command: redis-server --port %[1]d --save "" --appendonly no
    port: %[1]d
  cli:
    command: redis-cli -p %[1]d
    interactive: true
    readyPatterns: ['127\.0\.0\.1:\d+> $'] # after Ctrl-C the prompt follows "^C" on its row
    busyPatterns: ['Reading messages']
    dependsOn: [redis]
`, port), Options{NoWatchdog: true})
	te.expectStates("cli", rules.StateStarting, ready)

	te.sendOK("cli", "BLPOP nokey 2\r")
	te.expectStates("cli", busy, ready)

	te.sendOK("cli", "SUBSCRIBE ch\r")
	te.expectStates("cli", busy)
	te.waitLine("cli", "Reading messages")
	te.sendOK("cli", "\x03")
	te.expectStates("cli", ready)
	for i := range 3 {
		te.sendOK("cli", fmt.Sprintf("SET k%d v\r", i))
		te.expectStates("cli", busy, ready)
	}
}

// postgresDir makes a data folder the postgres user owns, when running as
// root (postgres refuses to run as root), and initialises it.
func postgresDir(t *testing.T) (dir string, runAs []string) {
	t.Helper()
	bin := "/usr/lib/postgresql/15/bin"
	if _, err := os.Stat(filepath.Join(bin, "initdb")); err != nil {
		needProgram(t, "initdb")
		bin = ""
	}
	dir, err := os.MkdirTemp("", "procs-pg-")
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		testenv.Need(t, "a postgres user to run postgres as, since this runs as root (the postgresql package makes it)", err == nil)
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		require.NoError(t, os.Chown(dir, uid, gid))
		runAs = []string{"runuser", "-u", "postgres", "--"}
	}
	initdb := filepath.Join(bin, "initdb")
	if bin == "" {
		initdb = "initdb"
	}
	args := append(append([]string{}, runAs...), initdb, "-D", filepath.Join(dir, "data"), "-U", "postgres", "--auth=trust")
	out, err := exec.Command(args[0], args[1:]...).CombinedOutput()
	require.NoError(t, err, "initdb: %s", out)
	postgres := "postgres"
	if bin != "" {
		postgres = filepath.Join(bin, "postgres")
	}
	return dir, append(runAs, postgres)
}

// TestRealPsql drives psql against a postgres started in the project:
// a slow query, \password's two questions in a row, Ctrl-C of a query;
// with a prompt pattern of its own, and with none (the psql preset's).
func TestRealPsql(t *testing.T) {
	needProgram(t, "psql")
	for _, tc := range []struct{ name, readiness string }{
		{"its own prompt pattern", "    readyPatterns: ['^postgres=# $']\n"},
		{"the psql preset", ""},
	} {
		t.Run(tc.name, func(t *testing.T) { drivePsql(t, tc.readiness) })
	}
}

// drivePsql is TestRealPsql with readiness as the psql process's
// readiness settings, YAML lines of its definition.
func drivePsql(t *testing.T, readiness string) {
	dir, postgres := postgresDir(t)
	port := freePort(t)
	te := startEngine(t, fmt.Sprintf(`
procs:
  db:
    # Unix socket only (listen_addresses=): no port: for procs to see.
    command: %s
    framework: postgres
  psql:
    command: psql -h %s -p %d -U postgres
    interactive: true
%s    dependsOn: [db]
`, yamlList(append(postgres, "-D", filepath.Join(dir, "data"), "-p", strconv.Itoa(port), "-k", dir, "-c", "listen_addresses=", "-c", "log_statement=all")),
		dir, port, readiness), Options{NoWatchdog: true})
	te.expectStates("psql", rules.StateStarting, ready)

	te.sendOK("psql", "SELECT pg_sleep(2);\r")
	te.expectStates("psql", busy, ready)

	te.sendOK("psql", `\password`+"\r")
	te.expectStates("psql", busy, question)
	te.sendOK("psql", "secret\r")
	te.expectStates("psql", busy, question)
	te.sendOK("psql", "secret\r")
	te.expectStates("psql", busy, ready)

	te.sendOK("psql", "SELECT pg_sleep(60);\r")
	te.expectStates("psql", busy)
	// psql is busy once it has sent the query, but a backend still reading
	// it ignores a cancel (ProcessInterrupts in postgres.c: "If we are
	// reading a command from the client, just ignore the cancel request"),
	// and psql then waits the whole minute. The server logs the statement
	// once it runs it.
	te.waitLine("db", "statement: SELECT pg_sleep(60);")
	te.sendOK("psql", "\x03")
	te.expectStates("psql", ready)

	te.sendOK("psql", `\q`+"\r")
	te.expectStates("psql", busy, rules.StateStopped)
}

// yamlList writes args as a YAML flow list of quoted strings.
func yamlList(args []string) string {
	out := "["
	for i, a := range args {
		if i > 0 {
			out += ", "
		}
		out += strconv.Quote(a)
	}
	return out + "]"
}

// waitLine waits for a line of name's output containing part.
func (te *testEngine) waitLine(name, part string) {
	te.t.Helper()
	require.Eventually(te.t, func() bool {
		logs, err := te.Logs(name, 0)
		return err == nil && containsLine(logs, part)
	}, waitLimit, 20*time.Millisecond, "%s never printed %q", name, part)
}
