package export_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose/export"
	"github.com/procsdev/procs/compose/export/dockercompose"
	"github.com/procsdev/procs/compose/export/kube"
	"github.com/procsdev/procs/compose/export/systemd"
)

// Two processes whose names a format writes the same are refused, naming
// both and the name, rather than written as objects that replace each
// other: my_api and my-api in Kubernetes, API and api in compose (whose
// DNS ignores case). Where the names stay apart, both are written.
func TestNameClash(t *testing.T) {
	const sanitized = "procs:\n  my_api: {command: sleep 100, port: 58801}\n  my-api: {command: sleep 100, port: 58802}\n"
	p, err := export.New(loadText(t, sanitized), export.Options{})
	require.NoError(t, err)
	_, err = kube.Format{}.Export(p)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "my-api and my_api")
	assert.Contains(t, err.Error(), "my-api")

	out, err := dockercompose.Format{}.Export(p)
	require.NoError(t, err)
	assert.Contains(t, fileData(out, "compose.yaml"), "\n  my_api:\n")
	assert.Contains(t, fileData(out, "compose.yaml"), "\n  my-api:\n")
	out, err = systemd.Format{}.Export(p)
	require.NoError(t, err)
	assert.NotEmpty(t, fileData(out, p.Name+"-my_api.service"))
	assert.NotEmpty(t, fileData(out, p.Name+"-my-api.service"))

	p, err = export.New(loadText(t, "procs:\n  API: {command: sleep 100}\n  api: {command: sleep 100}\n"), export.Options{})
	require.NoError(t, err)
	_, err = dockercompose.Format{}.Export(p)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "API and api")
}

// The loopback advice names the host as each engine resolves it: the
// compose service as exported (my_api), the Kubernetes Service (my-api).
func TestLoopbackHostPerFormat(t *testing.T) {
	const text = "procs:\n  my_api: {command: sleep 100, port: 58800}\n  web: {command: sleep 100, env: {API_URL: 'http://127.0.0.1:58800/'}}\n  cli: {kind: task, command: 'curl http://127.0.0.1:58800/x'}\n"
	_, out := exportText(t, text, dockercompose.Format{})
	assertSaid(t, out, "web: env API_URL points at 127.0.0.1:58800, which is my_api", "write my_api:58800 there")
	assertSaid(t, out, "cli: its command connects to 127.0.0.1, port 58800, which is my_api", "write my_api there")
	_, out = exportText(t, text, kube.Format{})
	assertSaid(t, out, "web: env API_URL points at 127.0.0.1:58800, which is my_api", "write my-api:58800 there")
	assertSaid(t, out, "cli: its command connects to 127.0.0.1, port 58800, which is my_api", "write my-api there")
}

// Each line of an env file that systemd's EnvironmentFile= reads
// differently from procs is said, with the file, the line, the key and
// what to write: an export prefix (systemd drops the line), an inline
// comment (systemd keeps it in the value), a $VAR procs expands. A line
// both read alike is not, $lowercase included (procs expands only
// upper-case names).
func TestSystemdEnvFileDifferences(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".env"), []byte(
		"export FOO=bar\nINLINE=x # trailing comment\nSECRET=abc$def\nHOST=db\nURL=http://$HOST:80\nQUOTED='a $HOST # b'\nPLAIN=ok\n"), 0o600))
	file := filepath.Join(dir, "procs.yaml")
	require.NoError(t, os.WriteFile(file, []byte("procs:\n  job: {kind: task, command: 'echo $FOO $INLINE $SECRET'}\n  web: {command: sleep 100}\n"), 0o644))
	p, err := export.New(load(t, file), export.Options{})
	require.NoError(t, err)
	out, err := systemd.Format{}.Export(p)
	require.NoError(t, err)
	assert.Contains(t, fileData(out, p.Name+"-job.service"), "EnvironmentFile="+filepath.Join(dir, ".env"))
	assertSaid(t, out, "job, web: ", ".env line 1: FOO", "export", "write FOO=")
	assertSaid(t, out, "job, web: ", ".env line 2: INLINE", "comment", "line of its own")
	assertSaid(t, out, "job, web: ", ".env line 5: URL", "$HOST", "write the value out")
	for _, w := range warningTexts(out) {
		for _, key := range []string{"SECRET", "HOST:", "QUOTED", "PLAIN"} {
			assert.NotContains(t, w, ": "+key, "read alike by systemd and procs")
		}
	}
	_, out = exportText(t, "procs:\n  web: {command: sleep 100}\n", systemd.Format{})
	assert.Empty(t, out.Warnings, "no env file, nothing to say")
}
