package config

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// procs check warns when a ${VAR} from the environment or .env is pasted
// outside quotes into a shell command and its value would be split or
// interpreted by the shell; quoted, or a value of one plain word, or the
// argv form of command, is fine.
func TestCheckWarnsOfAnUnquotedVariableTheShellSplits(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".env"), []byte("DATA_DIR=/tmp/my data\nPORT=8080\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "procs.yaml"), []byte(`procs:
  bad:
    command: ls ${DATA_DIR} ${SECRET}
  quoted:
    command: ls "${DATA_DIR}" '${DATA_DIR}' && echo "$${DATA_DIR}"
  word:
    command: serve --port ${PORT}
  argv:
    command: [ls, "${DATA_DIR}"]
`), 0o644))
	cfg, err := Load(LoadOptions{File: filepath.Join(dir, "procs.yaml"), Environ: []string{"SECRET=a;b"}})
	require.NoError(t, err)
	assert.Equal(t, []string{
		`procs.yaml:3:14: procs.bad.command: ${DATA_DIR} is outside quotes in a shell command, and its value has spaces or shell characters (not shown: it may be a secret): the shell splits or interprets it; write "${DATA_DIR}"`,
		`procs.yaml:3:14: procs.bad.command: ${SECRET} is outside quotes in a shell command, and its value has spaces or shell characters (not shown: it may be a secret): the shell splits or interprets it; write "${SECRET}"`,
	}, warningTexts(cfg))
}

func TestUnquotedNames(t *testing.T) {
	assert.Equal(t, []string{"A", "D"}, unquotedNames(`x ${A} "${B}" '${C}' \${E} $${F} ${D:-x}`))
}

// procs runs a command string with sh, which on Debian and Ubuntu is dash:
// bash's source, [[, pushd and declare are "not found" there, though the
// same procs.yaml works where sh is bash (macOS). procs check says so at
// the command; in quotes, or as an argument, the word is not a command.
func TestCheckWarnsOfBashOnlyCommands(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "procs.yaml"), []byte(`procs:
  venv:
    command: source .venv/bin/activate && uvicorn app:app
  test:
    kind: task
    command: cd web; [[ -f x ]] && pushd src
  fine:
    command: . .venv/bin/activate && echo "source it" && grep source notes.txt
  argv:
    command: [source, x]
`), 0o644))
	cfg, err := Load(LoadOptions{File: filepath.Join(dir, "procs.yaml")})
	require.NoError(t, err)
	assert.Equal(t, []string{
		`procs.yaml:3:14: procs.venv.command: source is bash's, and procs runs the command with sh, which may not have it (Debian's and Ubuntu's dash does not): write . FILE, or bash -c '...'`,
		`procs.yaml:6:14: procs.test.command: [[ is bash's, and procs runs the command with sh, which may not have it (Debian's and Ubuntu's dash does not): write [ ... ], or bash -c '...'`,
		`procs.yaml:6:14: procs.test.command: pushd is bash's, and procs runs the command with sh, which may not have it (Debian's and Ubuntu's dash does not): write cd DIR, or bash -c '...'`,
	}, warningTexts(cfg))
}

func TestCommandWords(t *testing.T) {
	assert.Equal(t, []string{"source", "uvicorn"}, commandWords(`source .venv/bin/activate && uvicorn app:app`))
	assert.Equal(t, []string{"cd", "[[", "pushd"}, commandWords("cd web; [[ -f x ]] && pushd src"))
	assert.Equal(t, []string{".", "echo", "grep"}, commandWords(`. x && echo "source; it" && grep source y`))
	assert.Equal(t, []string{"a", "b", "c", "d"}, commandWords("a | b || c\n(d)"))
	assert.Equal(t, []string{"exec"}, commandWords(`exec 'source'`))
}

// warningTexts are cfg's warnings as procs check prints them, with the
// file's base name.
func warningTexts(cfg *Config) []string {
	var texts []string
	for _, w := range cfg.Warnings {
		w.File = filepath.Base(w.File)
		texts = append(texts, w.Error())
	}
	return texts
}
