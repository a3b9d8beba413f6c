package frameworks_test

import (
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/internal/testenv"
)

// TestE2ERedis: ready on redis's own ready line; a taken port and a bad
// directive end failed, never ready.
func TestE2ERedis(t *testing.T) {
	t.Parallel()
	redis := testenv.LookPath(t, "redis-server")
	server := func(port int, extra string) string {
		return fmt.Sprintf(`"%s --port %d --bind 127.0.0.1 --save '' --appendonly no %s"`, redis, port, extra)
	}

	t.Run("start", func(t *testing.T) {
		t.Parallel()
		dir, port := t.TempDir(), freePort(t)
		r := startProcs(t, dir, fmt.Sprintf("procs:\n  cache: {command: %s}\n", server(port, "--dir "+dir)))
		res, st := r.requireReadyBy("cache", "redis")
		assert.Regexp(t, `\* Ready to accept connections`, st.Line, "the deciding line")
		assert.Contains(t, res.Message, "Ready to accept connections")
		assert.Contains(t, res.Message, `"PING\r\n" to localhost:`+strconv.Itoa(port)+` answered "+PONG"`, "the preset's probe")
		assertPorts(t, res.Ports, port)
		r.stop()
		requirePortFree(t, port)
	})

	t.Run("port-in-use", func(t *testing.T) {
		t.Parallel()
		dir, port := t.TempDir(), occupy(t)
		r := startProcs(t, dir, fmt.Sprintf("procs:\n  cache: {command: %s}\n", server(port, "--dir "+dir)))
		ev := r.requireFailedNeverReady("cache", "redis")
		assert.Contains(t, ev.Message, "Failed listening on port", "the error line decides: %+v", ev)
	})

	t.Run("bad-config", func(t *testing.T) {
		t.Parallel()
		dir, port := t.TempDir(), freePort(t)
		r := startProcs(t, dir, fmt.Sprintf("procs:\n  cache: {command: %s}\n", server(port, "--no-such-directive yes")))
		ev := r.requireFailedNeverReady("cache", "redis")
		assert.Contains(t, ev.Message, "FATAL CONFIG FILE ERROR")
	})
}

// TestE2EPostgres: a cluster made by initdb is ready on "database system is
// ready to accept connections"; a taken port ends failed on its FATAL line.
// postgres refuses to run as root, so it runs as the postgres user.
func TestE2EPostgres(t *testing.T) {
	t.Parallel()
	const pgBin = "/usr/lib/postgresql/*/bin"
	postgres := testenv.LookPath(t, "postgres", pgBin)
	initdb := testenv.LookPath(t, "initdb", pgBin)
	runuser := testenv.LookPath(t, "runuser")
	pgUser, err := user.Lookup("postgres")
	if err != nil {
		testenv.Missing(t, "no postgres user (the postgresql package makes it)")
	}
	uid, _ := strconv.Atoi(pgUser.Uid)
	gid, _ := strconv.Atoi(pgUser.Gid)

	// cluster makes a data folder owned by postgres in a fresh temp dir.
	cluster := func(t *testing.T) string {
		dir := t.TempDir()
		// The test's temp folders are private to root; postgres must reach its own.
		require.NoError(t, os.Chmod(filepath.Dir(dir), 0o711))
		require.NoError(t, os.Chown(dir, uid, gid))
		out, err := exec.Command(runuser, "-u", "postgres", "--", initdb, "-D", filepath.Join(dir, "data"),
			"-U", "postgres", "--auth=trust", "--no-sync").CombinedOutput()
		require.NoError(t, err, "initdb: %s", out)
		return dir
	}
	server := func(dir string, port int) string {
		return fmt.Sprintf(`"%s -u postgres -- %s -D %s/data -p %d -k %s -c listen_addresses=127.0.0.1"`,
			runuser, postgres, dir, port, dir)
	}

	t.Run("start", func(t *testing.T) {
		t.Parallel()
		dir, port := cluster(t), freePort(t)
		r := startProcs(t, dir, fmt.Sprintf("procs:\n  db: {command: %s}\n", server(dir, port)))
		res, st := r.requireReadyBy("db", "postgres")
		assert.Regexp(t, `database system is ready to accept connections`, st.Line, "the deciding line")
		assert.Contains(t, res.Message, "pg_isready exited 0", "the preset's probe")
		assertPorts(t, res.Ports, port)
		r.stop()
		requirePortFree(t, port)
	})

	t.Run("port-in-use", func(t *testing.T) {
		t.Parallel()
		dir, port := cluster(t), occupy(t)
		r := startProcs(t, dir, fmt.Sprintf("procs:\n  db: {command: %s}\n", server(dir, port)))
		ev := r.requireFailedNeverReady("db", "postgres")
		assert.Contains(t, ev.Message, "FATAL")
	})
}

// TestE2ENginx: nginx prints nothing when healthy, so its configured port
// decides; an unknown directive ends failed on the [emerg] line.
func TestE2ENginx(t *testing.T) {
	t.Parallel()
	nginx := testenv.LookPath(t, "nginx", "/usr/sbin")
	config := func(dir string, port int, extra string) {
		conf := fmt.Sprintf(`pid %[1]s/nginx.pid;
error_log stderr;
events {}
http {
  access_log off;
  client_body_temp_path %[1]s/body;
  proxy_temp_path %[1]s/proxy;
  fastcgi_temp_path %[1]s/fastcgi;
  uwsgi_temp_path %[1]s/uwsgi;
  scgi_temp_path %[1]s/scgi;
  server { listen 127.0.0.1:%[2]d; %[3]s return 200 "ok\n"; }
}
`, dir, port, extra)
		require.NoError(t, os.WriteFile(filepath.Join(dir, "nginx.conf"), []byte(conf), 0o644))
	}
	// procs is the procs.yaml; port 0 leaves the port out.
	procs := func(dir string, port int) string {
		yaml := fmt.Sprintf("procs:\n  web:\n    command: %s -p %s -e stderr -c %s/nginx.conf -g 'daemon off;'\n", nginx, dir, dir)
		if port != 0 {
			yaml += fmt.Sprintf("    port: %d\n", port)
		}
		return yaml
	}

	t.Run("start", func(t *testing.T) {
		t.Parallel()
		dir, port := t.TempDir(), freePort(t)
		config(dir, port, "")
		r := startProcs(t, dir, procs(dir, port))
		res, _ := r.requireReadyBy("web", "nginx")
		assert.Contains(t, res.Message, fmt.Sprintf("port %d open", port), "the port decides")
		r.stop()
		requirePortFree(t, port)
	})

	t.Run("start-no-port", func(t *testing.T) {
		t.Parallel()
		dir, port := t.TempDir(), freePort(t)
		config(dir, port, "")
		r := startProcs(t, dir, procs(dir, 0))
		res, _ := r.requireReadyBy("web", "nginx")
		assert.Contains(t, res.Message, fmt.Sprintf("listening on port %d", port), "with no port, listening decides")
		assertPorts(t, res.Ports, port)
		r.requireStatusPorts("web", port)
	})

	t.Run("bad-config", func(t *testing.T) {
		t.Parallel()
		dir, port := t.TempDir(), freePort(t)
		config(dir, port, "bogus_directive on;")
		r := startProcs(t, dir, procs(dir, port))
		ev := r.requireFailedNeverReady("web", "nginx")
		assert.Contains(t, ev.Message, "[emerg]")
	})
}

// TestE2EMemcached: memcached prints nothing when healthy, so its port
// decides; a taken port ends failed on "failed to listen".
func TestE2EMemcached(t *testing.T) {
	t.Parallel()
	memcached := testenv.LookPath(t, "memcached")
	// memcached refuses root without -u.
	server := func(port int) string { return fmt.Sprintf("%s -u nobody -l 127.0.0.1 -p %d", memcached, port) }

	t.Run("start", func(t *testing.T) {
		t.Parallel()
		dir, port := t.TempDir(), freePort(t)
		r := startProcs(t, dir, fmt.Sprintf("procs:\n  cache: {command: %s, port: %d}\n", server(port), port))
		res, _ := r.requireReadyBy("cache", "memcached")
		assert.Contains(t, res.Message, fmt.Sprintf("port %d open", port), "the port decides")
		assert.Contains(t, res.Message, `answered "VERSION `, "the preset's probe")
		r.stop()
		requirePortFree(t, port)
	})

	t.Run("start-no-port", func(t *testing.T) {
		t.Parallel()
		dir, port := t.TempDir(), freePort(t)
		r := startProcs(t, dir, fmt.Sprintf("procs:\n  cache: {command: %s}\n", server(port)))
		res, _ := r.requireReadyBy("cache", "memcached")
		assert.Contains(t, res.Message, fmt.Sprintf("listening on port %d", port), "with no port, listening decides")
		assert.Contains(t, res.Message, `answered "VERSION `, "the preset's probe, on the port of -p")
		assertPorts(t, res.Ports, port)
		r.requireStatusPorts("cache", port)
	})

	// No port in procs.yaml, so procs does not refuse to start it: memcached
	// itself finds the port taken, and must never have looked ready.
	t.Run("port-in-use", func(t *testing.T) {
		t.Parallel()
		dir, port := t.TempDir(), occupy(t)
		r := startProcs(t, dir, fmt.Sprintf("procs:\n  cache: {command: %s}\n", server(port)))
		ev := r.requireFailedNeverReady("cache", "memcached")
		assert.Contains(t, ev.Message, "failed to listen")
	})
}
