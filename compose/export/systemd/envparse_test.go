package systemd

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestParseSystemdEnvFile checks the port of systemd's env-file parser
// against the rules of systemd.exec(5), EnvironmentFile=.
func TestParseSystemdEnvFile(t *testing.T) {
	text := "# a comment\n; another\nA=1 # not a comment\nexport B=2\nC='x $Y # z'\n" +
		`D="a\"b\\c\$d\e"` + "\nE=a\\ b\\\\\n  F =  spaced  \nno separator\nH=multi\\\nline\nI=\"two\nlines\"\nJ=\n"
	assert.Equal(t, []envFileEntry{
		{key: "A", value: "1 # not a comment", line: 3},
		{key: "export B", value: "2", line: 4},
		{key: "C", value: "x $Y # z", line: 5},
		{key: "D", value: `a"b\c$d\e`, line: 6},
		{key: "E", value: `a b\`, line: 7},
		{key: "F", value: "spaced", line: 8},
		{key: "H", value: "multiline", line: 10},
		{key: "I", value: "two\nlines", line: 12},
		{key: "J", value: "", line: 14},
	}, parseSystemdEnvFile(text))
}
