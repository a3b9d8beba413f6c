// Package regexfilter tells, from a regular expression's syntax, which
// literal strings a text must contain for the expression to match in it,
// so that a caller matching many expressions against a text (the presets'
// command patterns against a command line) can rule most of them out with
// a substring search instead of running the regexp engine: Go's regexp has
// no such prefilter for a pattern that does not start with a literal
// (`(^|[\s/])vite\b`), and runs its matcher over the whole text.
// It imports nothing of procs.
package regexfilter

import (
	"regexp"
	"regexp/syntax"
	"strings"
)

// Filter holds literals of which every match of its expression contains at
// least one. The zero Filter knows none and lets every text through.
type Filter struct {
	anyOf []string
}

// For returns the Filter of re, parsed again from its source with the
// flags regexp.Compile uses. An expression whose matches need no literal
// (`\d+`, `(?i)ready`) gets the zero Filter.
func For(re *regexp.Regexp) Filter {
	parsed, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return Filter{} // cannot happen for a compiled re; the zero Filter is always safe
	}
	return Filter{anyOf: required(parsed.Simplify())}
}

// MayMatch reports whether text contains one of the literals, that is
// whether the expression may match in it. False is certain; true only
// says the regexp must decide.
func (f Filter) MayMatch(text string) bool {
	if f.anyOf == nil {
		return true
	}
	for _, lit := range f.anyOf {
		if strings.Contains(text, lit) {
			return true
		}
	}
	return false
}

// required returns literals one of which every match of re contains, or
// nil when it cannot tell. Case-folded literals are not used: a substring
// search is case-sensitive.
func required(re *syntax.Regexp) []string {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 || len(re.Rune) == 0 {
			return nil
		}
		return []string{string(re.Rune)}
	case syntax.OpCapture, syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min < 1 {
			return nil
		}
		return required(re.Sub[0])
	case syntax.OpConcat:
		var best []string
		for _, sub := range re.Sub {
			if lits := required(sub); lits != nil && (best == nil || shortest(lits) > shortest(best)) {
				best = lits
			}
		}
		return best
	case syntax.OpAlternate:
		var all []string
		for _, sub := range re.Sub {
			lits := required(sub)
			if lits == nil {
				return nil // that branch matches without any literal we know
			}
			all = append(all, lits...)
		}
		return all
	}
	return nil
}

// shortest is the length of the shortest literal: the longer it is, the
// fewer texts contain one by chance.
func shortest(lits []string) int {
	n := len(lits[0])
	for _, lit := range lits[1:] {
		n = min(n, len(lit))
	}
	return n
}
