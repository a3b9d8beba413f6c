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
// source compiled before is not compiled again: the processes of a config
// mostly share their patterns (two hundred `ready`s were two hundred
// compiles before the first process could start), and a Regexp serves
// any number of detectors at once.
func CompilePatterns(srcs []string) ([]Pattern, error) {
	out := make([]Pattern, 0, len(srcs))
	for _, src := range srcs {
		re, err := compiledPattern(src)
		if err != nil {
			return nil, fmt.Errorf("compile pattern %q: %w", src, err)
		}
		out = append(out, Pattern{Source: src, Re: re})
	}
	return out, nil
}

// patternCache holds the patterns compiled so far, for the life of the
// program: they come from configs and presets, so it stays small.
var patternCache sync.Map // string -> *regexp.Regexp

func compiledPattern(src string) (*regexp.Regexp, error) {
	if re, ok := patternCache.Load(src); ok {
		return re.(*regexp.Regexp), nil
	}
	re, err := regexp.Compile(src)
	if err != nil {
		return nil, err
	}
	patternCache.Store(src, re)
	return re, nil
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

// regexCache holds the regexes `log.matches(re)` uses, compiled once per
// distinct source for the life of the program: rules are few and fixed at
// config load, so the cache stays small.
var regexCache sync.Map // string -> *regexp.Regexp or error

// cachedRegexp compiles src once and returns the same result ever after.
func cachedRegexp(src string) (*regexp.Regexp, error) {
	if v, ok := regexCache.Load(src); ok {
		return cacheValue(v)
	}
	re, err := regexp.Compile(src)
	var v any = re
	if err != nil {
		v = fmt.Errorf("compile log.matches regex %q: %w", src, err)
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
