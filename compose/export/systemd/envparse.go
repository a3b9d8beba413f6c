package systemd

import "strings"

// Character classes of systemd's env-file parser.
const (
	envWhitespace = " \t\n\r"
	envNewline    = "\n\r"
	envComments   = "#;"
	// envNeedEscape are the characters a backslash escapes in double
	// quotes, as in a shell (SHELL_NEED_ESCAPE).
	envNeedEscape = "\"\\`$"
)

// The states of the parser.
const (
	preKey = iota
	inKey
	preValue
	inValue
	valueEscape
	singleQuoted
	doubleQuoted
	doubleQuotedEscape
	inComment
	commentEscape
)

// envParser is systemd's EnvironmentFile= parser, ported from
// parse_env_file_internal in src/basic/env-file.c (systemd v252-v256): a
// state machine over the file's characters. It keeps every assignment,
// valid names or not, with the line its key starts on.
type envParser struct {
	state      int
	key, value strings.Builder
	// keyEnd and valueEnd are where trailing whitespace starts, -1 when
	// there is none.
	keyEnd, valueEnd int
	line, keyLine    int
	out              []envFileEntry
}

// parseSystemdEnvFile reads an env file as systemd does.
func parseSystemdEnvFile(text string) []envFileEntry {
	p := &envParser{line: 1, keyEnd: -1, valueEnd: -1}
	for _, c := range text {
		p.step(c)
		if c == '\n' {
			p.line++
		}
	}
	switch p.state {
	case preValue, inValue, valueEscape, singleQuoted, doubleQuoted, doubleQuotedEscape:
		p.push(p.state == inValue)
	}
	return p.out
}

// step reads one character.
func (p *envParser) step(c rune) {
	is := func(set string) bool { return strings.ContainsRune(set, c) }
	switch p.state {
	case preKey:
		if is(envComments) {
			p.state = inComment
		} else if !is(envWhitespace) {
			p.state, p.keyEnd, p.keyLine = inKey, -1, p.line
			p.key.WriteRune(c)
		}
	case inKey:
		switch {
		case is(envNewline):
			p.state = preKey
			p.key.Reset()
		case c == '=':
			p.state, p.valueEnd = preValue, -1
		default:
			if !is(envWhitespace) {
				p.keyEnd = -1
			} else if p.keyEnd < 0 {
				p.keyEnd = p.key.Len()
			}
			p.key.WriteRune(c)
		}
	case preValue:
		switch {
		case is(envNewline):
			p.push(false)
		case c == '\'':
			p.state = singleQuoted
		case c == '"':
			p.state = doubleQuoted
		case c == '\\':
			p.state = valueEscape
		case !is(envWhitespace):
			p.state = inValue
			p.addValue(c)
		}
	case inValue:
		switch {
		case is(envNewline):
			p.push(true)
		case c == '\\':
			p.state, p.valueEnd = valueEscape, -1
		default:
			if !is(envWhitespace) {
				p.valueEnd = -1
			} else if p.valueEnd < 0 {
				p.valueEnd = p.value.Len()
			}
			p.addValue(c)
		}
	default:
		p.stepQuoted(c)
	}
}

// stepQuoted reads one character in the states after a backslash, in
// quotes and in a comment.
func (p *envParser) stepQuoted(c rune) {
	switch p.state {
	case valueEscape:
		p.state = inValue
		if !strings.ContainsRune(envNewline, c) { // an escaped newline is eaten
			p.addValue(c)
		}
	case singleQuoted:
		if c == '\'' {
			p.state = preValue
		} else {
			p.addValue(c)
		}
	case doubleQuoted:
		switch c {
		case '"':
			p.state = preValue
		case '\\':
			p.state = doubleQuotedEscape
		default:
			p.addValue(c)
		}
	case doubleQuotedEscape:
		p.state = doubleQuoted
		switch {
		case strings.ContainsRune(envNeedEscape, c):
			p.addValue(c)
		case c != '\n': // other characters keep their backslash, as in a shell
			p.addValue('\\')
			p.addValue(c)
		}
	case inComment:
		if c == '\\' {
			p.state = commentEscape
		} else if strings.ContainsRune(envNewline, c) {
			p.state = preKey
		}
	case commentEscape:
		if strings.ContainsRune(envNewline, c) {
			p.state = preKey
		} else {
			p.state = inComment
		}
	}
}

// addValue adds c to the value.
func (p *envParser) addValue(c rune) { p.value.WriteRune(c) }

// push ends an assignment; trimValue chops the trailing whitespace of an
// unquoted value.
func (p *envParser) push(trimValue bool) {
	key, value := p.key.String(), p.value.String()
	if p.keyEnd >= 0 {
		key = key[:p.keyEnd]
	}
	if trimValue && p.valueEnd >= 0 {
		value = value[:p.valueEnd]
	}
	p.out = append(p.out, envFileEntry{key: key, value: value, line: p.keyLine})
	p.state = preKey
	p.key.Reset()
	p.value.Reset()
}
