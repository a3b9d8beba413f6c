package examples_test

import (
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/internal/testenv"
)

// The ports of examples/fullstack (its procs.yaml).
const (
	fullstackDB    = 15432
	fullstackCache = 16379
	fullstackAPI   = 15000
	fullstackWeb   = 15173
)

// itemsReply is the body of the API's GET /api/items.
type itemsReply struct {
	Items []struct {
		ID   int    `json:"id"`
		Name string `json:"name"`
	} `json:"items"`
	Source string `json:"source"`
}

// requireFullstackPrograms checks for what examples/fullstack runs: Postgres,
// psql, Redis, Debian's flask with its database and cache clients, and the
// front-end's node_modules.
func requireFullstackPrograms(t *testing.T) {
	t.Helper()
	const pgBin = "/usr/lib/postgresql/*/bin"
	testenv.LookPath(t, "postgres", pgBin)
	testenv.LookPath(t, "initdb", pgBin)
	testenv.LookPath(t, "psql")
	testenv.LookPath(t, "redis-server")
	testenv.LookPath(t, "/usr/bin/flask")
	testenv.PythonModules(t, testenv.SystemPython, "flask", "psycopg2", "redis")
	if os.Geteuid() == 0 {
		testenv.LookPath(t, "runuser")
		if _, err := user.Lookup("postgres"); err != nil {
			testenv.Missing(t, "no postgres user to run postgres as (the postgresql package makes it)")
		}
	}
	requireNodeModules(t, filepath.Join("fullstack", "web"), "vite")
}

// TestFullstack runs examples/fullstack: Postgres → migration → Flask API
// (with Redis) → Vite. A request to the Vite dev server goes through its
// proxy to the API and returns the rows the migration wrote, from Postgres
// the first time and from Redis the second; the API restarts ready; and a
// second `procs up` reuses the database in .data without duplicating rows.
func TestFullstack(t *testing.T) {
	requireFullstackPrograms(t)
	p := newProject(t, "fullstack", fullstackDB, fullstackCache, fullstackAPI, fullstackWeb)

	out := p.up()
	for _, line := range []string{"initdb completed", "db ready", "migrate completed", "cache ready", "api ready", "web ready"} {
		assert.Contains(t, out, line)
	}
	p.requirePresets(map[string]string{"db": "postgres", "cache": "redis", "api": "flask", "web": "vite"})

	items := fmt.Sprintf("http://127.0.0.1:%d/api/items", fullstackWeb)
	var first, second itemsReply
	getJSON(t, items, &first)
	assert.Equal(t, "postgres", first.Source, "a cold cache: the rows come from Postgres")
	require.Len(t, first.Items, 4, "the rows of migrations/001.sql")
	assert.Equal(t, "Postgres, started by procs", first.Items[0].Name)
	getJSON(t, items, &second)
	assert.Equal(t, "redis", second.Source, "the second request is served from the cache")
	assert.Equal(t, first.Items, second.Items)
	assert.Contains(t, get(t, fmt.Sprintf("http://127.0.0.1:%d/", fullstackWeb)), "<title>procs fullstack example</title>")

	assert.Contains(t, p.mustProcs("restart", "api"), "api ready (run 2")
	var afterRestart itemsReply
	getJSON(t, items, &afterRestart)
	assert.Equal(t, first.Items, afterRestart.Items, "the restarted API answers")
	p.down()
	requireNothingLeft(t, p.dir, p.ports)

	// Again, on the data the first run left in .data: initdb keeps it, the
	// migration runs again without adding rows, and Redis starts empty.
	out = p.up()
	assert.Contains(t, out, "initdb completed")
	initdbLog, err := os.ReadFile(filepath.Join(p.dir, ".procs", "logs", "initdb.log"))
	require.NoError(t, err)
	assert.Contains(t, string(initdbLog), "exists, keeping its data")
	var again itemsReply
	getJSON(t, items, &again)
	assert.Equal(t, "postgres", again.Source)
	assert.Equal(t, first.Items, again.Items, "running the migration again adds no rows")
	p.down()
}
