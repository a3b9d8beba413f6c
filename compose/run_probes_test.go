package compose

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	frameworks "github.com/procsdev/procs/builtin-frameworks"
	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/rules"
)

// fakeRedis says redis's ready line and listens at once, but answers PING
// with -LOADING until the file named by its second argument exists, saying
// "loading" each time: a server whose port opens before it serves.
const fakeRedis = `
import os, socket, sys
port, ready = int(sys.argv[1]), sys.argv[2]
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", port))
s.listen()
print("* Ready to accept connections tcp", flush=True)
while True:
    c, _ = s.accept()
    c.recv(64)
    if os.path.exists(ready):
        c.sendall(b"+PONG\r\n")
    else:
        c.sendall(b"-LOADING Redis is loading the dataset in memory\r\n")
        print("loading", flush=True)
    c.close()
`

// A preset's greeting holds readiness back until the
// server answers it, on a real socket; before, the ready line and the open
// port made it ready while it still answered -LOADING.
func TestPresetProbeHoldsReadyUntilTheServerAnswers(t *testing.T) {
	needProgram(t, "python3")
	port := freePort(t)
	dir := t.TempDir()
	script, flag := filepath.Join(dir, "fake_redis.py"), filepath.Join(dir, "loaded")
	require.NoError(t, os.WriteFile(script, []byte(fakeRedis), 0o644))
	te := startEngine(t, fmt.Sprintf(`
procs:
  cache:
    command: [python3, %q, "%d", %q]
    framework: redis
    port: %[2]d
`, script, port, flag), Options{NoWatchdog: true})
	te.waitLine("cache", "loading")
	te.waitLine("cache", "loading") // the probe asked again and was still refused
	st, err := te.StatusOf("cache")
	require.NoError(t, err)
	require.Equal(t, rules.StateStarting, st.State, "ready while the server answers -LOADING: %+v", st)

	require.NoError(t, os.WriteFile(flag, nil, 0o644))
	ev := te.waitState("cache", rules.StateReady)
	assert.Contains(t, ev.Message, fmt.Sprintf(`probe "PING\r\n" to localhost:%d answered "+PONG"`, port))
}

// The preset's probe asks the port the process runs on, and only when
// procs.yaml has no healthcheck of its own.
func TestReadyProbeOf(t *testing.T) {
	redis, _ := frameworks.Lookup("redis")
	rabbit, _ := frameworks.Lookup("rabbitmq")
	postgres, _ := frameworks.Lookup("postgres")
	proc := func(yamlText string) *config.Proc {
		cfg := parseConfig(t, "procs:\n  p:\n"+yamlText)
		return cfg.Procs["p"]
	}
	tests := []struct {
		name   string
		proc   *config.Proc
		preset *frameworks.Preset
		port   int
		addr   string
	}{
		{"default port", proc("    command: redis-server\n"), redis, 6379, "localhost:6379"},
		{"port flag", proc("    command: sh -c 'redis-server --port 7001 --save \"\"'\n"), redis, 7001, "localhost:7001"},
		{"declared port wins", proc("    command: redis-server --port 7001\n    port: 7002\n"), redis, 7002, "localhost:7002"},
		{"port variable", proc("    command: rabbitmq-server\n    env: {RABBITMQ_NODE_PORT: \"5673\"}\n"), rabbit, 5673, "localhost:5673"},
		{"port variable in the command", proc("    command: RABBITMQ_NODE_PORT=5674 rabbitmq-server\n"), rabbit, 5674, "localhost:5674"},
		{"healthcheck replaces it", proc("    command: redis-server\n    healthcheck: {tcp: \"127.0.0.1:6379\"}\n"), redis, 0, ""},
		{"task", proc("    command: redis-server\n    kind: task\n"), redis, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec, port := readyProbeOf(tt.proc, tt.preset, nil)
			assert.Equal(t, tt.port, port)
			if tt.port == 0 {
				assert.Nil(t, spec)
				return
			}
			require.NotNil(t, spec)
			assert.Equal(t, tt.addr, spec.Addr)
		})
	}
	t.Run("exec with its port", func(t *testing.T) {
		needProgram(t, "pg_isready")
		spec, port := readyProbeOf(proc("    command: postgres -D data -p 5433\n"), postgres, nil)
		require.NotNil(t, spec)
		assert.Equal(t, 5433, port)
		assert.Equal(t, "pg_isready -q -h localhost -p 5433 -U postgres", strings.Join(spec.Argv, " "))
	})
	t.Run("exec not installed", func(t *testing.T) {
		t.Setenv("PATH", t.TempDir())
		spec, _ := readyProbeOf(proc("    command: postgres -D data\n"), postgres, nil)
		assert.Nil(t, spec, "a probe whose program is missing would never pass")
	})
}

// etcd's ready line comes a few ms before /health answers: its preset's
// HTTP probe, on the real server, is what makes it ready.
func TestRealEtcdReadyByItsHealthProbe(t *testing.T) {
	needProgram(t, "etcd")
	client, peer := freePort(t), freePort(t)
	te := startEngine(t, fmt.Sprintf(`
procs:
  kv:
    command: etcd --data-dir %s --listen-client-urls http://127.0.0.1:%[2]d --advertise-client-urls http://127.0.0.1:%[2]d --listen-peer-urls http://127.0.0.1:%d
    port: %[2]d
`, filepath.Join(t.TempDir(), "data"), client, peer), Options{NoWatchdog: true})
	ev := te.waitState("kv", rules.StateReady)
	assert.Contains(t, ev.Message, "ready to serve client requests")
	assert.Contains(t, ev.Message, fmt.Sprintf("GET http://localhost:%d/health answered 200", client))
}
