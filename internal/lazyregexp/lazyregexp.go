// Package lazyregexp is a regular expression compiled on its first use,
// for patterns declared at package level: a command that never matches
// them (procs status, procs --version) does not compile them at start.
// It imports nothing of procs but regexfilter, which imports nothing.
package lazyregexp

import (
	"regexp"
	"sync"

	"github.com/procsdev/procs/internal/regexfilter"
)

// Regexp is a regexp.Regexp compiled from its pattern when first used; an
// invalid pattern panics then, as regexp.MustCompile does. It is safe for
// concurrent use. Its string matches first look for the literals a match
// needs (regexfilter), since most texts do not contain them.
type Regexp struct {
	compiled func() compiled
}

type compiled struct {
	re     *regexp.Regexp
	filter regexfilter.Filter
}

// New returns a Regexp for pattern, not compiled yet.
func New(pattern string) *Regexp {
	return &Regexp{compiled: sync.OnceValue(func() compiled {
		re := regexp.MustCompile(pattern)
		return compiled{re: re, filter: regexfilter.For(re)}
	})}
}

// Regexp returns the compiled expression, compiling it on the first call.
func (r *Regexp) Regexp() *regexp.Regexp { return r.compiled().re }

// MatchString is regexp.Regexp.MatchString.
func (r *Regexp) MatchString(s string) bool {
	c := r.compiled()
	return c.filter.MayMatch(s) && c.re.MatchString(s)
}

// FindStringSubmatch is regexp.Regexp.FindStringSubmatch.
func (r *Regexp) FindStringSubmatch(s string) []string {
	c := r.compiled()
	if !c.filter.MayMatch(s) {
		return nil
	}
	return c.re.FindStringSubmatch(s)
}

// FindAllIndex is regexp.Regexp.FindAllIndex.
func (r *Regexp) FindAllIndex(b []byte, n int) [][]int { return r.compiled().re.FindAllIndex(b, n) }

// ReplaceAll is regexp.Regexp.ReplaceAll.
func (r *Regexp) ReplaceAll(src, repl []byte) []byte { return r.compiled().re.ReplaceAll(src, repl) }

// ReplaceAllFunc is regexp.Regexp.ReplaceAllFunc.
func (r *Regexp) ReplaceAllFunc(src []byte, repl func([]byte) []byte) []byte {
	return r.compiled().re.ReplaceAllFunc(src, repl)
}

// ReplaceAllString is regexp.Regexp.ReplaceAllString.
func (r *Regexp) ReplaceAllString(src, repl string) string {
	return r.compiled().re.ReplaceAllString(src, repl)
}
