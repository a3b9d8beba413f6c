package config

import (
	"fmt"
	"strings"
)

// shellSpecial are the characters the shell splits a word on or gives a
// meaning to: a value holding one, pasted unquoted into a shell command,
// is not the one word its author meant (a path with a space, a password
// with a ;).
const shellSpecial = " \t\n;&|<>()$`\\\"'*?[]#~"

// unquotedVar is one ${NAME} of a shell command outside quotes whose value
// the shell would split or interpret.
type unquotedVar struct {
	path []string
	name string
}

// noteUnquoted records, for the warnings of procs check, each ${NAME} of
// the shell command text (command: as a string, run by sh -c) that is
// outside quotes and whose value has shell characters.
func (ex *expander) noteUnquoted(path []string, text string, lookup lookupFunc) {
	for _, name := range unquotedNames(text) {
		// A variable left to the shell (${PORT}, see ownPort) is no value.
		if v, ok := lookup(name); ok && v != "${"+name+"}" && strings.ContainsAny(v, shellSpecial) {
			ex.unquoted = append(ex.unquoted, unquotedVar{path: path, name: name})
		}
	}
}

// unquotedNames returns the names of the ${NAME...} of a shell command
// that are outside single and double quotes, in order.
func unquotedNames(text string) []string {
	var names []string
	var quote byte
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' {
				i++
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '\\':
			i++
		case c == '$' && strings.HasPrefix(text[i:], "$$"):
			i++
		case c == '$' && strings.HasPrefix(text[i:], "${"):
			end := strings.IndexByte(text[i:], '}')
			if end < 0 {
				return names
			}
			inner := text[i+2 : i+end]
			if j := strings.IndexAny(inner, ":-"); j >= 0 {
				inner = inner[:j]
			}
			names = append(names, inner)
			i += end
		}
	}
	return names
}

// unquotedWarnings turns the unquoted variables into warnings at the
// commands that use them.
func (ex *expander) unquotedWarnings() ConfigErrors {
	var out ConfigErrors
	for _, u := range ex.unquoted {
		out = append(out, ex.p.src.errorAt(u.path, false, fmt.Sprintf(
			"${%s} is outside quotes in a shell command, and its value has spaces or shell characters (not shown: it may be a secret): the shell splits or interprets it; write \"${%s}\"",
			u.name, u.name)))
	}
	return out
}

// isShellCommand reports whether path is a process's command, or its
// exec healthcheck, written as one string, which procs runs with sh -c,
// in the run's environment.
func isShellCommand(path []string) bool {
	switch {
	case len(path) == 3:
		return path[0] == "procs" && path[2] == "command"
	case len(path) == 4:
		return path[0] == "procs" && path[2] == "healthcheck" && path[3] == "exec"
	}
	return false
}

// bashOnly are commands bash has and POSIX sh may not (Debian's and
// Ubuntu's dash has none of them), with what sh takes instead: a
// procs.yaml written where sh is bash (macOS) fails with "sh: 1: source:
// not found" where it is dash.
var bashOnly = map[string]string{
	"source":  ". FILE",
	"[[":      "[ ... ]",
	"pushd":   "cd DIR",
	"popd":    "cd -",
	"declare": "NAME=value, or export NAME=value",
	"shopt":   "set -o",
}

// ShInstead says, for a command bash has and POSIX sh may not (source,
// [[, pushd...), what to write for sh instead.
func ShInstead(command string) (string, bool) {
	instead, ok := bashOnly[command]
	return instead, ok
}

// bashOnlyCommand is a command of a shell command string that sh may not
// have (bashOnly).
type bashOnlyCommand struct {
	path []string
	word string
}

// noteBashOnly records, for the warnings of procs check, each command of
// the shell command text that is bash's alone.
func (ex *expander) noteBashOnly(path []string, text string) {
	for _, word := range commandWords(text) {
		if _, ok := bashOnly[word]; ok {
			ex.bashOnly = append(ex.bashOnly, bashOnlyCommand{path: path, word: word})
		}
	}
}

// bashOnlyWarnings turns the bash-only commands into warnings at the
// commands that run them.
func (ex *expander) bashOnlyWarnings() ConfigErrors {
	var out ConfigErrors
	for _, b := range ex.bashOnly {
		out = append(out, ex.p.src.errorAt(b.path, false, fmt.Sprintf(
			"%s is bash's, and procs runs the command with sh, which may not have it (Debian's and Ubuntu's dash does not): write %s, or bash -c '...'",
			b.word, bashOnly[b.word])))
	}
	return out
}

// commandWords returns the first word of each command of a shell command
// string, outside quotes, in order: at its start and after ;, &, |, (, a
// newline (and so after && and ||). What follows is the command's own
// (echo "source it", grep source x), and a quoted word is never a command
// here.
func commandWords(text string) []string {
	var words []string
	var quote byte
	atCommand := true
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' {
				i++
			}
		case c == '\'' || c == '"':
			quote, atCommand = c, false
		case strings.IndexByte(";&|(\n", c) >= 0:
			atCommand = true
		case c == ' ' || c == '\t':
		case atCommand:
			end := i
			for end < len(text) && strings.IndexByte(" \t\n;&|()'\"", text[end]) < 0 {
				end++
			}
			words = append(words, text[i:end])
			i, atCommand = end-1, false
		case c == '\\':
			i++
		}
	}
	return words
}
