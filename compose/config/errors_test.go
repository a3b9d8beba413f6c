package config

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDidYouMean(t *testing.T) {
	assert.Equal(t, ` (did you mean "readyPatterns"?)`, didYouMean("readyPatern", procKeys))
	assert.Equal(t, ` (did you mean "readyTimeout"?)`, didYouMean("readytimeout", procKeys))
	assert.Equal(t, "", didYouMean("banana", procKeys))
	assert.Equal(t, "", didYouMean("x", []string{"yz"}), "short words need a close match")
	assert.Equal(t, ` (did you mean "web"?)`, didYouMean("wbe", []string{"api", "web"}), "a swap of neighbours is one typo")
	assert.Equal(t, ` (did you mean "env"?)`, didYouMean("enviroment", procKeys), "a typo of another tool's name for it")
}

func TestConfigErrorsSortedAndJoined(t *testing.T) {
	errs := ConfigErrors{
		{File: "b.yaml", Line: 1, Col: 1, Msg: "third"},
		{File: "a.yaml", Line: 2, Col: 1, Path: "procs", Msg: "second"},
		{File: "a.yaml", Line: 1, Col: 9, Msg: "first"},
	}
	sortErrors(errs)
	assert.Equal(t, "a.yaml:1:9: first\na.yaml:2:1: procs: second\nb.yaml:1:1: third", errs.Error())
}

// A config error never writes a raw control character to the terminal: a
// name or value from an untrusted file could clear the screen or set the
// clipboard with an escape sequence.
func TestConfigErrorsEscapeControlCharacters(t *testing.T) {
	e := &ConfigError{File: "procs.yaml", Line: 2, Col: 3, Path: "procs.a\x1b]52;c;aGk=\x07b",
		Msg: "invalid process name \"x\x1b[2J\""}
	text := e.Error()
	assert.NotContains(t, text, "\x1b")
	assert.NotContains(t, text, "\x07")
	assert.Contains(t, text, `procs.a\x1b]52;c;aGk=\ab`)
	assert.Contains(t, text, `x\x1b[2J`)
}

// An unknown name is told the one likely meant; a pattern that matches
// none says so, not that a process of that name is unknown.
func TestUnknownProcessErrorSaysWhatWasMeant(t *testing.T) {
	known := []string{"api", "web", "worker-1"}
	assert.Equal(t, `unknown process "wbe" (did you mean "web"?) (known: api, web, worker-1)`,
		(&UnknownProcessError{Name: "wbe", Known: known}).Error())
	assert.Equal(t, `unknown process: no process matches "zz*" (known: api, web, worker-1)`,
		(&UnknownProcessError{Name: "zz*", Known: known}).Error())
}
