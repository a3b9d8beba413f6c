package frameworks_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/internal/testenv"
	"github.com/procsdev/procs/rules"
)

// slowServer is an npm package's command as hardhat node is one: a
// node script that works for a while (its build) before it listens.
const slowServer = `#!/usr/bin/env node
const http = require('http');
const port = Number(process.argv[2]);
console.log('[site] Writing ./_site/index.html');
setTimeout(() => {
  http.createServer((req, res) => res.end('ok')).listen(port, '127.0.0.1', () => {
    console.log('[site] Server at http://localhost:' + port + '/');
  });
}, 1500);
`

// TestE2EANodeProgramIsReadyWhenItListens: a server no preset names, run
// from node_modules/.bin, is ready once it listens, by the node runtime's
// preset, not after a second of running (ready 0.5 s before it listened,
// and what waited for it got a refused connection).
func TestE2EANodeProgramIsReadyWhenItListens(t *testing.T) {
	t.Parallel()
	r, port := startNodeProgram(t, slowServer)
	res, st := r.requireReadyBy("site", "express")
	assert.Regexp(t, fmt.Sprintf(`^ready in .*: listening on port %d$`, port), res.Message)
	assertPorts(t, res.Ports, port)
	assert.Equal(t, rules.ReasonReady, st.Reason)
}

// lineBeforeListen is a node program that says where it serves before it
// listens, as Docusaurus 3 does ("[SUCCESS] Docusaurus website is running
// at: http://localhost:3333/", its dev server bound 4 s later).
const lineBeforeListen = `#!/usr/bin/env node
const http = require('http');
const port = Number(process.argv[2]);
console.log('[SUCCESS] Website is running at: http://localhost:' + port + '/');
setTimeout(() => http.createServer((req, res) => res.end('ok')).listen(port, '127.0.0.1'), 4000);
`

// TestE2EANodeProgramsLineBeforeItListens: a program of the node runtime
// is judged by its port, not by the runtime's ready lines, whatever its
// lines say first. It was failed ("matched … but its process tree does
// not listen on port N after 3s", the rule of an Express app whose bind
// failed), then ready; then, idle for 3 s, it was assumed ready before it
// listened, as a worker of the runtime is. Having said where it serves, it
// is ready once it listens there.
func TestE2EANodeProgramsLineBeforeItListens(t *testing.T) {
	t.Parallel()
	r, port := startNodeProgram(t, lineBeforeListen)
	res, st := r.requireReadyBy("site", "express")
	assert.Regexp(t, fmt.Sprintf(`^ready in [4-9][.\d]*s: listening on port %d$`, port), res.Message)
	assert.Equal(t, rules.ReasonReady, st.Reason)
	for _, st := range r.states("site") {
		assert.NotContains(t, st, ":"+string(rules.StateFailed)+"(", "never failed on the way: %v", r.states("site"))
	}
}

// startNodeProgram writes script as an npm package's command,
// node_modules/.bin/site, and runs procs on `site PORT`, with a free port.
func startNodeProgram(t *testing.T, script string) (*procsRun, int) {
	t.Helper()
	testenv.LookPath(t, "node")
	dir := t.TempDir()
	bin := filepath.Join(dir, "node_modules", ".bin")
	require.NoError(t, os.MkdirAll(bin, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(bin, "site"), []byte(script), 0o755))
	port := freePort(t)
	return startProcs(t, dir, fmt.Sprintf("procs:\n  site: {command: node_modules/.bin/site %d}\n", port)), port
}
