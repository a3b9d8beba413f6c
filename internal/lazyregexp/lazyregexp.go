// Package lazyregexp is a regular expression compiled on its first use,
// for patterns declared at package level: a command that never matches
// them (procs status, procs --version) does not compile them at start.
// It imports nothing of procs.
package lazyregexp

import (
	"regexp"
	"sync"
)

// Regexp is a regexp.Regexp compiled from its pattern when first used; an
// invalid pattern panics then, as regexp.MustCompile does. It is safe for
// concurrent use.
type Regexp struct {
	compiled func() *regexp.Regexp
}

// New returns a Regexp for pattern, not compiled yet.
func New(pattern string) *Regexp {
	return &Regexp{compiled: sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })}
}

// Regexp returns the compiled expression, compiling it on the first call.
func (r *Regexp) Regexp() *regexp.Regexp { return r.compiled() }

// MatchString is regexp.Regexp.MatchString.
func (r *Regexp) MatchString(s string) bool { return r.compiled().MatchString(s) }

// FindStringSubmatch is regexp.Regexp.FindStringSubmatch.
func (r *Regexp) FindStringSubmatch(s string) []string { return r.compiled().FindStringSubmatch(s) }

// FindAllIndex is regexp.Regexp.FindAllIndex.
func (r *Regexp) FindAllIndex(b []byte, n int) [][]int { return r.compiled().FindAllIndex(b, n) }

// ReplaceAll is regexp.Regexp.ReplaceAll.
func (r *Regexp) ReplaceAll(src, repl []byte) []byte { return r.compiled().ReplaceAll(src, repl) }

// ReplaceAllFunc is regexp.Regexp.ReplaceAllFunc.
func (r *Regexp) ReplaceAllFunc(src []byte, repl func([]byte) []byte) []byte {
	return r.compiled().ReplaceAllFunc(src, repl)
}

// ReplaceAllString is regexp.Regexp.ReplaceAllString.
func (r *Regexp) ReplaceAllString(src, repl string) string {
	return r.compiled().ReplaceAllString(src, repl)
}
