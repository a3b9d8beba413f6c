package config

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestExpandString(t *testing.T) {
	lookup := chain(map[string]string{"SET": "value", "EMPTY": ""})
	cases := []struct{ in, want string }{
		{"plain", "plain"},
		{"${SET}", "value"},
		{"a ${SET} b ${SET}", "a value b value"},
		{"${UNSET}", ""},
		{"${UNSET:-fallback}", "fallback"},
		{"${EMPTY:-fallback}", "fallback"},
		{"${EMPTY-fallback}", ""},
		{"${UNSET-fallback}", "fallback"},
		{"${SET:-fallback}", "value"},
		{"cost $$5", "cost $5"},
		{"$$${SET}", "$value"},
		{"$HOME stays", "$HOME stays"},
		{"trailing $", "trailing $"},
		{"${UNSET:-a:-b}", "a:-b"},
	}
	for _, tc := range cases {
		got, err := expandString(tc.in, lookup, maxExpandedValue)
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, got, tc.in)
	}
}

func TestExpandStringErrors(t *testing.T) {
	lookup := chain(map[string]string{})
	cases := map[string]string{
		"${OPEN":          `unclosed "${" in "${OPEN": close it with }, or write $$ for a literal $`,
		"${}":             `invalid variable "" in ${}: use ${NAME} or ${NAME:-default}, or $$ for a literal $`,
		"${1X}":           `invalid variable "1X" in ${1X}: use ${NAME} or ${NAME:-default}, or $$ for a literal $`,
		"${TOKEN:?login}": "variable TOKEN is required: login",
		"${A:x}":          "invalid ${A:x}: use ${NAME}, ${NAME:-default} or ${NAME:?message}",
	}
	for in, want := range cases {
		_, err := expandString(in, lookup, maxExpandedValue)
		assert.EqualError(t, err, want, in)
	}
}

// A value that is bad because a variable it reads is not set says so: the
// warning that would have named the variable is not printed when the
// config does not load.
func TestABadValueNamesTheUnsetVariable(t *testing.T) {
	_, err := Parse("procs.yaml", []byte("procs:\n  api:\n    command: ./api\n    port: ${API_PORT}\n    readyTimeout: ${WAIT}s\n"), nil)
	var errs ConfigErrors
	require.ErrorAs(t, err, &errs)
	var got []string
	for _, e := range errs {
		got = append(got, e.Error())
	}
	assert.Equal(t, []string{
		`procs.yaml:4:11: procs.api.port: "" is not a port (${API_PORT} is not set: set it in the environment, env: or .env, or write ${API_PORT:-default})`,
		`procs.yaml:5:19: procs.api.readyTimeout: "s" is not a duration (e.g. 30s) (${WAIT} is not set: set it in the environment, env: or .env, or write ${WAIT:-default})`,
	}, got)
}

// TestABadValueNamesWhereItsVariableWasSet: a bad value that came from an
// env file or the environment is reported at the field that reads it, and
// says where the variable was set: the fix is there, not in procs.yaml.
func TestABadValueNamesWhereItsVariableWasSet(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	write(".env", "# ports\nOTHER=1\nAPI_PORT=80a\n")
	write("web.env", "\n\nexport WEB_WAIT=soon\n")
	write("procs.yaml", `procs:
  api:
    command: ./api
    port: ${API_PORT}
  web:
    envFile: web.env
    command: ./web
    readyTimeout: ${WEB_WAIT}
  worker:
    command: ./worker
    port: ${WORKER_PORT}
`)
	_, err := Load(LoadOptions{Dir: dir, Environ: []string{"WORKER_PORT=none"}})
	var errs ConfigErrors
	require.ErrorAs(t, err, &errs)
	var got []string
	for _, e := range errs {
		got = append(got, e.Error())
	}
	yaml := filepath.Join(dir, "procs.yaml")
	assert.Equal(t, []string{
		yaml + `:4:11: procs.api.port: "80a" is not a port (${API_PORT} is set to "80a" at .env:3)`,
		yaml + `:8:19: procs.web.readyTimeout: "soon" is not a duration (e.g. 30s) (${WEB_WAIT} is set to "soon" at web.env:3)`,
		yaml + `:11:11: procs.worker.port: "none" is not a port (${WORKER_PORT} is set to "none" in the environment procs runs in)`,
	}, got)
}

// A value the expander refused has that one error: what the decoder then
// says of the text it left ("127.0.0.1:" is not host:port, ${PORT} not
// set) contradicts it and names a wrong fix.
func TestARefusedValueHasOneError(t *testing.T) {
	_, err := Parse("procs.yaml", []byte(`procs:
  api:
    command: ./api
    port: 8000
    replicas: 2
    healthcheck: {tcp: "127.0.0.1:${PORT}"}
`), nil)
	var errs ConfigErrors
	require.ErrorAs(t, err, &errs)
	var got []string
	for _, e := range errs {
		got = append(got, e.Error())
	}
	assert.Equal(t, []string{
		"procs.yaml:6:24: procs.api.healthcheck.tcp: ${PORT} is each instance's own port, and only a shell command expands it for each: write the healthcheck as one, healthcheck: {exec: 'curl -fsS http://127.0.0.1:${PORT}/health'}, which runs in each instance's environment",
	}, got)
}
