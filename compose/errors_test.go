package compose

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDidYouMean(t *testing.T) {
	assert.Equal(t, ` (did you mean "readyPatterns"?)`, didYouMean("readyPatern", procKeys))
	assert.Equal(t, ` (did you mean "readyTimeout"?)`, didYouMean("readytimeout", procKeys))
	assert.Equal(t, "", didYouMean("banana", procKeys))
	assert.Equal(t, "", didYouMean("x", []string{"yz"}), "short words need a close match")
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
