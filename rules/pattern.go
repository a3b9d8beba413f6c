package rules

import (
	"fmt"
	"regexp"
	"sync"
)

// Pattern is a compiled readyPatterns / errorPatterns / notReadyPatterns
// entry, matched against the ANSI-stripped text of each line.
type Pattern struct {
	// Source is the regex as written, for messages.
	Source string
	Re     *regexp.Regexp
}

// CompilePatterns compiles RE2 regexes, naming the one that fails. A
// source compiled before is not compiled again (cachedRegexp).
func CompilePatterns(srcs []string) ([]Pattern, error) {
	out := make([]Pattern, 0, len(srcs))
	for _, src := range srcs {
		re, err := cachedRegexp(src)
		if err != nil {
			return nil, fmt.Errorf("compile pattern %q: %w", src, err)
		}
		out = append(out, Pattern{Source: src, Re: re})
	}
	return out, nil
}

// matchAny returns the first pattern that matches text.
func matchAny(patterns []Pattern, text string) (Pattern, bool) {
	for _, p := range patterns {
		if p.Re.MatchString(text) {
			return p, true
		}
	}
	return Pattern{}, false
}

// regexCache holds every regex rules compile, readiness patterns and the
// regexes of log.matches and screen.matches, once per distinct source for
// the life of the program: they come from configs and presets, so the
// cache stays small. The processes of a config mostly share their
// patterns (two hundred `ready`s were two hundred compiles before the
// first process could start), and a Regexp serves any number of users at
// once.
var regexCache sync.Map // string -> *regexp.Regexp or error

// cachedRegexp compiles src once and returns the same result, the regex or
// regexp's error, ever after.
func cachedRegexp(src string) (*regexp.Regexp, error) {
	if v, ok := regexCache.Load(src); ok {
		return cacheValue(v)
	}
	re, err := regexp.Compile(src)
	var v any = re
	if err != nil {
		v = err
	}
	v, _ = regexCache.LoadOrStore(src, v)
	return cacheValue(v)
}

func cacheValue(v any) (*regexp.Regexp, error) {
	if err, ok := v.(error); ok {
		return nil, err
	}
	return v.(*regexp.Regexp), nil
}

// checkRuleRegexp says why src, a regex an expr rule names, does not
// compile.
func checkRuleRegexp(src string) error {
	if _, err := cachedRegexp(src); err != nil {
		return fmt.Errorf("compile log.matches regex %q: %w", src, err)
	}
	return nil
}
