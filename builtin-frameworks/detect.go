package frameworks

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/procsdev/procs/internal/lazyregexp"
	"github.com/procsdev/procs/internal/regexfilter"
)

// Detection is the preset Detect chose and why.
type Detection struct {
	Preset *Preset
	// Reason explains the choice to a person, e.g.
	// `command "vite --port 3000" matches /\bvite\b/` or
	// `package.json script "dev" runs "next dev"` or `manage.py in ./api`.
	Reason string
	// Runtime names the runtime the program runs on ("node", "python")
	// when the preset is that runtime's, read from the program's first
	// line (detectRuntime): the program is not the preset's own, and the
	// preset is the runtime's variant for such programs (runtimeVariant).
	// "" otherwise.
	Runtime string
}

// commandPattern is one compiled detect.command regex, with the literals
// a command line must contain for it to match: every command is matched
// against every preset's patterns, and most are ruled out by a substring
// search.
type commandPattern struct {
	source string
	re     *regexp.Regexp
	filter regexfilter.Filter
}

func compileCommands(srcs []string) ([]commandPattern, error) {
	res, err := compileAll(srcs)
	if err != nil {
		return nil, err
	}
	out := make([]commandPattern, len(res))
	for i, re := range res {
		out[i] = commandPattern{source: srcs[i], re: re, filter: regexfilter.For(re)}
	}
	return out, nil
}

func compileAll(srcs []string) ([]*regexp.Regexp, error) {
	out := make([]*regexp.Regexp, 0, len(srcs))
	for _, src := range srcs {
		re, err := regexp.Compile(src)
		if err != nil {
			return nil, fmt.Errorf("compile %q: %w", src, err)
		}
		out = append(out, re)
	}
	return out, nil
}

// maxScriptDepth bounds `npm run a` → "npm run b" → ... chains.
const maxScriptDepth = 4

// Detect picks the preset for a process from its command line (command is
// the shell string, or argv joined; argv is used when command is empty) and
// its working directory dir. The package documentation gives the order.
func Detect(command string, argv []string, dir string) (Detection, bool) {
	if strings.TrimSpace(command) == "" {
		command = strings.Join(argv, " ")
	}
	command = dropOptionalExpansions(command)
	if d, ok := loaded().detect(command, dir, 0); ok {
		return d, true
	}
	return loaded().detectRuntime(command, dir, 0)
}

var (
	// optionalExpansion is ${NAME:+words} (or $${...} as procs.yaml
	// writes it): words only when NAME is set, as in Rails' Procfile.dev
	// `bundle exec ${DEBUG:+rdbg -O -n -c --} bin/rails server`.
	optionalExpansion = lazyregexp.New(`\$?\$\{[A-Za-z_][A-Za-z0-9_]*:?\+[^{}]*\}`)
	// defaultExpansion is ${NAME:-word}: word when NAME is not set.
	defaultExpansion = lazyregexp.New(`\$?\$\{[A-Za-z_][A-Za-z0-9_]*:?-([^{}]*)\}`)
)

// dropOptionalExpansions is the command as it usually runs: the words a
// variable adds only when set taken out, a default written in place of
// its variable, so that the program behind them is recognised.
func dropOptionalExpansions(command string) string {
	if !strings.Contains(command, "${") {
		return command
	}
	command = optionalExpansion.ReplaceAllString(command, "")
	return defaultExpansion.ReplaceAllString(command, "$1")
}

func (c *catalog) detect(command, dir string, depth int) (Detection, bool) {
	words, cmdDir := commandWords(command)
	if len(words) == 0 {
		return Detection{}, false
	}
	if cmdDir != "" {
		dir = resolveDir(dir, cmdDir)
	}
	d, ok := c.pick(words, dir, depth)
	if ok && depth == 0 {
		d = c.refine(d, dir)
	}
	return d, ok
}

// pick runs the steps of detection on a command's words, in order.
func (c *catalog) pick(words []string, dir string, depth int) (Detection, bool) {
	if isClientTool(words[0]) {
		// psql, redis-cli, initdb: a client of a server, never the server,
		// whatever its options name (`psql -U postgres`); only a preset
		// of the client itself, read at its prompt (psql's), may be it.
		return c.matchCommand(words, false, clientPreset)
	}
	// `npm run serve` names a script, not a program called serve: only
	// package.json can say what it runs.
	if !runsScript(words) {
		if d, ok := c.matchCommand(words, false, anyPreset); ok {
			return d, true
		}
	}
	if d, ok := c.matchPackageJSON(words, dir, depth); ok {
		return d, true
	}
	if d, ok := c.matchFiles(words, dir); ok {
		return d, true
	}
	return c.matchCommand(words, true, anyPreset)
}

// anyPreset and clientPreset choose the presets matchCommand considers:
// every one, or those of a program driven at its prompt, which a client
// tool (clientTools) may be.
func anyPreset(*Preset) bool      { return true }
func clientPreset(p *Preset) bool { return p.Interactive }

// matchCommand finds the preset whose detect.command regex matches the
// command line earliest (then longest), in the words that say what runs
// (programHead): `psql -U postgres` is not the postgres server. fallback
// selects the fallback presets instead of the others; only those of
// them that consider accepts.
func (c *catalog) matchCommand(words []string, fallback bool, consider func(*Preset) bool) (Detection, bool) {
	line := strings.Join(words, " ")
	headEnd := len(strings.Join(words[:programHead(words)], " "))
	var best Detection
	bestStart, bestLen := -1, 0
	for _, p := range c.sorted {
		if p.Detect.Fallback != fallback || !consider(p) {
			continue
		}
		for _, cp := range c.commands[p.Name] {
			if !cp.filter.MayMatch(line) {
				continue
			}
			loc := cp.re.FindStringIndex(line)
			if loc == nil || loc[0] >= headEnd {
				continue
			}
			start, length := loc[0], loc[1]-loc[0]
			if bestStart < 0 || start < bestStart || (start == bestStart && length > bestLen) {
				bestStart, bestLen = start, length
				best = Detection{Preset: p, Reason: fmt.Sprintf("command %q matches /%s/", shellJoin(words), cp.source)}
			}
		}
	}
	return best, bestStart >= 0
}

// matchFiles finds a preset whose detect.files exist in dir, when the
// command's program is one of the preset's runners.
func (c *catalog) matchFiles(words []string, dir string) (Detection, bool) {
	program := programName(words)
	for _, p := range c.sorted {
		if !slices.Contains(p.Detect.Runners, program) {
			continue
		}
		for _, group := range p.Detect.Files {
			if allExist(dir, group) {
				where := "./" + filepath.Base(dir)
				if abs, err := filepath.Abs(dir); err == nil {
					where = "./" + filepath.Base(abs)
				}
				verb := "in"
				return Detection{Preset: p, Reason: fmt.Sprintf("%s %s %s", strings.Join(group, " + "), verb, where)}, true
			}
		}
	}
	return Detection{}, false
}

func allExist(dir string, files []string) bool {
	for _, f := range files {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(f))); err != nil {
			return false
		}
	}
	return true
}

// shellJoin writes words back as a shell would read them, for a message:
// an empty word, or one with blanks or quotes, is quoted (an empty --save
// value shows as two quotes), which a plain join loses. A word holding a
// $ is double-quoted, so that what the shell expands still reads so, and so
// is one holding single quotes and nothing a double quote would escape.
func shellJoin(words []string) string {
	out := make([]string, len(words))
	for i, w := range words {
		switch {
		case w != "" && !strings.ContainsAny(w, " \t\n'\"\\`"):
			out[i] = w
		case strings.Contains(w, "$"):
			out[i] = `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "`", "\\`").Replace(w) + `"`
		case strings.Contains(w, "'") && !strings.ContainsAny(w, "\"\\`"):
			out[i] = `"` + w + `"` // as written: "print('x')", not 'print('\''x'\'')
		default:
			out[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
		}
	}
	return strings.Join(out, " ")
}

// programName is the base name of the program words run (wrappers such
// as `uv run` and `bundle exec` are already stripped).
func programName(words []string) string {
	return filepath.Base(words[0])
}

func resolveDir(base, sub string) string {
	if filepath.IsAbs(sub) {
		return sub
	}
	return filepath.Join(base, sub)
}

// commandWords splits a shell command into words, looking through the
// wrappers that do not change what runs: `sh -c '...'`, `su -c '...'`,
// VAR=value prefixes, the wrappers of stripWrappers, and `cd DIR && ...`
// (whose DIR it returns). Of a `a && b` or `a; b` list it keeps the last command, the
// one that stays running.
func commandWords(command string) (words []string, dir string) {
	for range 4 {
		segments := splitList(shellWords(command))
		if len(segments) == 0 {
			return nil, dir
		}
		for _, seg := range segments[:len(segments)-1] {
			if len(seg) == 2 && seg[0] == "cd" {
				dir = joinDir(dir, seg[1])
			}
		}
		words = stripWrappers(segments[len(segments)-1])
		if len(words) >= 3 && isShell(words[0]) && words[1] == "-c" {
			command = words[2]
			continue
		}
		if inner, ok := suCommand(words); ok {
			command = inner
			continue
		}
		return words, dir
	}
	return words, dir
}

func joinDir(dir, sub string) string {
	if dir == "" || filepath.IsAbs(sub) {
		return sub
	}
	return filepath.Join(dir, sub)
}

func isShell(w string) bool {
	switch filepath.Base(w) {
	case "sh", "bash", "zsh", "dash":
		return true
	}
	return false
}

func isAssignment(w string) bool {
	eq := strings.IndexByte(w, '=')
	if eq <= 0 {
		return false
	}
	for i, r := range w[:eq] {
		if !(r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// listOperators separate the commands of a shell list.
var listOperators = map[string]bool{"&&": true, "||": true, ";": true, "&": true}

func splitList(words []string) [][]string {
	var out [][]string
	var cur []string
	inPipe := false
	for _, w := range words {
		if w == "|" {
			// The first command of a pipeline is the one that serves;
			// the rest (tee, grep) only filter its output.
			inPipe = true
			continue
		}
		if listOperators[w] {
			inPipe = false
			if len(cur) > 0 {
				out = append(out, cur)
			}
			cur = nil
			continue
		}
		if !inPipe {
			cur = append(cur, w)
		}
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// shellWords splits s like a POSIX shell would for simple commands:
// whitespace separates words, quotes group, a backslash escapes, and
// &&, ||, ; and & become words of their own. Expansions are left as they
// are: detection only needs the shape of the command.
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	inWord := false
	flush := func() {
		if inWord {
			words = append(words, cur.String())
			cur.Reset()
			inWord = false
		}
	}
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == ' ' || ch == '\t' || ch == '\n':
			flush()
		case ch == '\'':
			inWord = true
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				end = len(s) - i - 1
			}
			cur.WriteString(s[i+1 : i+1+end])
			i += end + 1
		case ch == '"':
			inWord = true
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte(`"\$`+"`", s[i+1]) >= 0 {
					i++
				}
				cur.WriteByte(s[i])
			}
		case ch == '\\' && i+1 < len(s):
			inWord = true
			i++
			cur.WriteByte(s[i])
		case ch == ';' || ch == '&' || ch == '|':
			flush()
			op := string(ch)
			if i+1 < len(s) && s[i+1] == ch && ch != ';' {
				op += string(ch)
				i++
			}
			words = append(words, op)
		default:
			inWord = true
			cur.WriteByte(ch)
		}
	}
	flush()
	return words
}
