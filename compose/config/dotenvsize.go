package config

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"github.com/procsdev/procs/rules"
)

// godotenv expands $VAR and ${VAR} inside a dotenv file from the file's
// own earlier keys, so 31 lines of V1=${V0}${V0}, V2=${V1}${V1}... (1.5 KB)
// ask it for terabytes, and it has no limit of its own. dotEnvSizes walks the file as godotenv v1.5.1's parser.go does, statement by
// statement, adding up sizes instead of building values, and reports the
// first key whose value would pass maxExpandedValue, or the whole file
// maxExpandedTotal, before godotenv is asked to build anything. It returns
// the bound on each key's final value.
func dotEnvSizes(src []byte) (map[string]int, *envFileSizeError) {
	src = bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
	sizes := map[string]int{}
	total := 0
	for rest := dotEnvStatement(src); rest != nil; rest = dotEnvStatement(rest) {
		key, value, next, fault := dotEnvSplit(rest)
		if fault != "" {
			return sizes, nil // godotenv reports the syntax error
		}
		size := expandedSize(value, sizes)
		if size > maxExpandedValue {
			return nil, &envFileSizeError{fmt.Sprintf("too large once expanded: %s would expand to more than %d KiB; check what its $VARs hold", key, maxExpandedValue>>10)}
		}
		if total += size; total > maxExpandedTotal {
			return nil, &envFileSizeError{fmt.Sprintf("too large once expanded: its values would pass %d MiB at %s; a $VAR repeats a large value too often", maxExpandedTotal>>20, key)}
		}
		sizes[key] = size
		rest = next
	}
	return sizes, nil
}

// dotEnvStatement skips blanks and comment lines to the next statement,
// nil at the end (godotenv's getStatementStart).
func dotEnvStatement(src []byte) []byte {
	for {
		pos := bytes.IndexFunc(src, func(r rune) bool { return !unicode.IsSpace(r) })
		if pos < 0 {
			return nil
		}
		src = src[pos:]
		if src[0] != '#' {
			return src
		}
		if pos = bytes.IndexByte(src, '\n'); pos < 0 {
			return nil
		}
		src = src[pos:]
	}
}

// dotEnvSplit cuts one statement into its key and its raw value (quoted
// values with their quotes, single-quoted ones marked by them), as
// godotenv's locateKeyName and extractVarValue do. fault says, in words,
// why godotenv refuses the statement; "" when it takes it.
func dotEnvSplit(src []byte) (key string, value, rest []byte, fault string) {
	stmt := src
	src = bytes.TrimLeftFunc(src, dotEnvSpace)
	if t := bytes.TrimPrefix(src, []byte("export")); len(t) < len(src) && bytes.IndexFunc(t, dotEnvSpace) == 0 {
		src = bytes.TrimLeftFunc(t, dotEnvSpace)
	}
	end, ok := dotEnvKeyEnd(src)
	if !ok {
		line, _, _ := bytes.Cut(stmt, []byte("\n"))
		return "", nil, nil, rules.Quote(string(line)) + " is not KEY=value"
	}
	if end >= 0 {
		key = strings.TrimRightFunc(string(src[:end]), unicode.IsSpace)
		src = src[end+1:]
	}
	src = bytes.TrimLeftFunc(src, dotEnvSpace)
	if len(src) == 0 || (src[0] != '"' && src[0] != '\'') {
		eol := bytes.IndexAny(src, "\n\r")
		if eol < 0 {
			eol = len(src)
		}
		return key, src[:eol], src[eol:], ""
	}
	for i := 1; i < len(src); i++ {
		if src[i] == src[0] && src[i-1] != '\\' {
			return key, src[:i+1], src[i+1:], ""
		}
	}
	return "", nil, nil, fmt.Sprintf("the value of %s opens a quote (%c) that is never closed", key, src[0])
}

// dotEnvSyntaxError is where and why godotenv refuses a dotenv file: the
// statement it stops at, which the parser's own error does not locate.
type dotEnvSyntaxError struct {
	// Line and Col are 1-based, where the statement begins.
	Line, Col int
	// Fault says what is wrong there.
	Fault string
}

func (e *dotEnvSyntaxError) Error() string {
	return fmt.Sprintf("line %d: %s", e.Line, e.Fault)
}

// dotEnvSyntax finds the statement of src that godotenv refuses, or that
// has no variable name (which godotenv takes), walking the file as
// godotenv does; nil when it finds none.
func dotEnvSyntax(src []byte) *dotEnvSyntaxError {
	src = bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
	for rest := dotEnvStatement(src); rest != nil; {
		key, _, next, fault := dotEnvSplit(rest)
		if fault == "" && key == "" && (rest[0] == '=' || rest[0] == ':') {
			// godotenv takes it, as a variable no environment can hold.
			line, _, _ := bytes.Cut(rest, []byte("\n"))
			fault = rules.Quote(string(line)) + " has no variable name before its " + string(rest[0])
		}
		if fault != "" {
			at := len(src) - len(rest)
			return &dotEnvSyntaxError{Line: 1 + bytes.Count(src[:at], []byte("\n")),
				Col: at - bytes.LastIndexByte(src[:at], '\n'), Fault: fault}
		}
		rest = dotEnvStatement(next)
	}
	return nil
}

// dotEnvKeyEnd finds the = or : that ends a key, byte by byte as godotenv
// does: false at a byte no key holds (godotenv's error), -1 when the text
// ends first (godotenv then reads it all as the value of the key "").
func dotEnvKeyEnd(src []byte) (int, bool) {
	for i, char := range src {
		r := rune(char)
		switch {
		case dotEnvSpace(r), char == '_', unicode.IsLetter(r), unicode.IsNumber(r), char == '.':
		case char == '=' || char == ':':
			return i, true
		default:
			return 0, false
		}
	}
	return -1, true
}

// dotEnvSpace is godotenv's isSpace: a blank that is not a line break.
func dotEnvSpace(r rune) bool {
	switch r {
	case '\t', '\v', '\f', '\r', ' ', 0x85, 0xA0:
		return true
	}
	return false
}

// dotEnvRef is godotenv's expandVarRegex.
var dotEnvRef = regexp.MustCompile(`(\\)?(\$)(\()?\{?([A-Z0-9_]+)?\}?`)

// expandedSize bounds the size of value once godotenv has expanded it: its
// own bytes plus, for each reference, what the key referred to holds now.
// A single-quoted value is not expanded.
func expandedSize(value []byte, sizes map[string]int) int {
	size := len(value)
	switch {
	case len(value) > 0 && value[0] == '\'':
		return size
	case len(value) > 0 && value[0] != '"':
		// godotenv reads an unquoted value as runes: each invalid byte
		// becomes a 3-byte U+FFFD.
		size = len(string([]rune(string(value))))
	}
	for _, m := range dotEnvRef.FindAllSubmatch(value, -1) {
		// Only a backslash escapes: godotenv means $( to, but tests the
		// wrong group, so $(A expands A.
		if len(m[1]) == 0 {
			size += sizes[string(m[4])]
		}
	}
	return size
}
