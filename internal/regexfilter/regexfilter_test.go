package regexfilter

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRequiredLiterals(t *testing.T) {
	for _, tc := range []struct {
		pattern string
		want    []string
	}{
		{`ready`, []string{"ready"}},
		{`(^|[\s/])vite\b`, []string{"vite"}},
		{`(^|[\s/])ng\s+(serve|s|dev)\b`, []string{"ng"}},
		{`(^|[\s/])celery\s+(.*\s)?worker\b`, []string{"celery"}},
		{`-m\s+celery\s+(.*\s)?worker\b`, []string{"celery"}},
		{`(^|[\s/])rails\s+(s|server)\b`, []string{"rails"}},
		{`\b(next|nuxt)\s+dev\b`, []string{"ext", "uxt"}}, // parsed as n(ext|uxt)
		{`(foo)+bar?`, []string{"foo"}},
		{`x{2,}yz`, []string{"yz"}},
		{`(abc){0,3}`, nil},
		{`\d+`, nil},
		{`(?i)ready`, nil},
		{`a|\d`, nil},
		{`^$`, nil},
	} {
		got := For(regexp.MustCompile(tc.pattern)).anyOf
		if tc.want == nil {
			assert.Nil(t, got, tc.pattern)
			continue
		}
		assert.ElementsMatch(t, tc.want, got, tc.pattern)
	}
}

func TestMayMatch(t *testing.T) {
	f := For(regexp.MustCompile(`(^|[\s/])(vite|astro)\s+dev\b`))
	assert.True(t, f.MayMatch("npx vite dev"))
	assert.True(t, f.MayMatch("astro dev --port 1"))
	assert.True(t, f.MayMatch("invited"), "true only says the regexp must decide")
	assert.False(t, f.MayMatch("next dev"))
	assert.True(t, Filter{}.MayMatch("anything"), "the zero Filter lets every text through")
}

// FuzzFilterNeverHidesAMatch: whatever the pattern and the text, a text
// the expression matches in is never ruled out.
func FuzzFilterNeverHidesAMatch(f *testing.F) {
	for _, seed := range [][2]string{
		{`(^|[\s/])vite\b`, "npx vite"},
		{`\b(next|nuxt)\s+dev\b`, "nuxt dev"},
		{`(?i)READY`, "ready"},
		{`a(?i:b)c`, "aBc"},
		{`x{2,}yz`, "xxyz"},
		{`(ab|a)(c|bcd)`, "abcd"},
		{`[Rr]eady`, "ready"},
		{`héllo|wörld`, "wörld"},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, pattern, text string) {
		re, err := regexp.Compile(pattern)
		if err != nil {
			return
		}
		if re.MatchString(text) && !For(re).MayMatch(text) {
			t.Fatalf("%q matches %q but the filter rules it out (literals %q)", pattern, text, For(re).anyOf)
		}
	})
}
