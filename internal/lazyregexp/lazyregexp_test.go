package lazyregexp

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCompilesOnFirstUseOnce(t *testing.T) {
	r := New(`(\w+)@(\w+)`)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() { assert.True(t, r.MatchString("me@host")) })
	}
	wg.Wait()
	assert.Same(t, r.Regexp(), r.Regexp(), "compiled once")
	assert.Equal(t, []string{"me@host", "me", "host"}, r.FindStringSubmatch("to me@host"))
	assert.Equal(t, [][]int{{0, 3}, {4, 7}}, r.FindAllIndex([]byte("a@b c@d"), -1))
	assert.Equal(t, "x x", r.ReplaceAllString("a@b c@d", "x"))
	assert.Equal(t, []byte("b@a"), r.ReplaceAll([]byte("a@b"), []byte("$2@$1")))
	assert.Equal(t, []byte("A@B"), r.ReplaceAllFunc([]byte("a@b"), func(b []byte) []byte { return []byte("A@B") }))
}

func TestInvalidPatternPanicsOnFirstUse(t *testing.T) {
	r := New(`(`)
	assert.Panics(t, func() { r.MatchString("x") })
}

func TestFilteredMatchesAgreeWithTheRegexp(t *testing.T) {
	r := New(`(^|[\s/])claude(\s|$)`)
	for _, text := range []string{"claude", "npx claude --continue", "/usr/bin/claude", "claudette", "codex", ""} {
		assert.Equal(t, r.Regexp().MatchString(text), r.MatchString(text), text)
		assert.Equal(t, r.Regexp().FindStringSubmatch(text), r.FindStringSubmatch(text), text)
	}
}
