package scaffold

import (
	"strings"

	"github.com/procsdev/procs/internal/lazyregexp"
)

// The README is what a project's developers are told to run: its
// commands are trusted above what init guesses from the stack's files.
// init reads the shell lines of its code blocks (fenced or indented) and
// the commands in `code` of its lists and tables, leaving out sections
// about deploying, containers and tests.

// readmeCommand is one command line of the README.
type readmeCommand struct {
	line    int
	command string
}

var (
	// readmeHeading is a Markdown heading; skippedSection a heading whose
	// commands are not for running the project locally.
	readmeHeading  = lazyregexp.New(`^#{1,6}\s+(.*)$`)
	skippedSection = lazyregexp.New(`(?i)deploy|production|docker|container|kubernetes|\btests?\b|testing|lint|format|publish|release|contribut|build(ing)? (a|the|for)|prod\b|optional`)
	// rstUnderline is the line under a reStructuredText heading.
	rstUnderline = lazyregexp.New(`^(={3,}|-{3,}|~{3,}|\^{3,})\s*$`)
	// inlineCommand is a `command` in a list item or a table cell.
	inlineCommand = lazyregexp.New("^\\s*(?:[-*+]|\\d+\\.|\\|)\\s.*?`([^`]+)`")
	// promptPrefix is a shell prompt written before a command.
	promptPrefix = lazyregexp.New(`^\s*(?:\$|>|%|#\s*\$)\s+`)
	// trailingComment is a comment after a command (# or //).
	trailingComment = lazyregexp.New(`\s+(#|//)\s.*$`)
)

// readmeCommands returns the command lines of the README in the project
// folder, in order.
func (pl *plan) readmeCommands() ([]readmeCommand, string) {
	for _, name := range []string{"README.md", "readme.md", "Readme.md", "README.markdown", "README.rst", "README"} {
		text := readAll(pl.abs(name))
		if text != "" {
			return parseReadme(text), name
		}
	}
	return nil, ""
}

// parseReadme finds the command lines of a Markdown text.
func parseReadme(text string) []readmeCommand {
	var out []readmeCommand
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	fence, skip, blank := "", false, true
	for i, line := range lines {
		n := i + 1
		trimmed := strings.TrimSpace(line)
		switch {
		case fence == "" && i+1 < len(lines) && rstUnderline.MatchString(lines[i+1]) && trimmed != "" && !strings.HasPrefix(line, " "):
			// A reStructuredText heading: its title, then a line of = or -.
			skip = skippedSection.MatchString(trimmed)
		case fence != "":
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			} else if !skip {
				out = appendCommand(out, n, trimmed)
			}
		case strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~"):
			fence = trimmed[:3]
		case readmeHeading.MatchString(line):
			skip = skippedSection.MatchString(readmeHeading.FindStringSubmatch(line)[1])
		case skip:
		case blank && (strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "\t")) && trimmed != "" && !strings.HasPrefix(trimmed, "*") && !strings.HasPrefix(trimmed, "-"):
			out = appendCommand(out, n, trimmed)
			continue // the next indented line is the same block
		default:
			if m := inlineCommand.FindStringSubmatch(line); m != nil {
				out = appendCommand(out, n, m[1])
			}
		}
		blank = trimmed == ""
	}
	return out
}

// labelled is a line of prose naming a command after a colon ("To run
// the application: make run"); proseStart a line that starts as a
// sentence does ("Open the following url").
var (
	labelled   = lazyregexp.New("^[A-Z][^:`$]*:\\s+(\\S.*)$")
	proseStart = lazyregexp.New(`^[A-Z][a-z]+\s`)
)

// appendCommand adds a command line, without its prompt and comment; of
// a labelled line, the command after the label; prose, never.
func appendCommand(out []readmeCommand, n int, line string) []readmeCommand {
	line = promptPrefix.ReplaceAllString(line, "")
	line = strings.TrimSpace(trailingComment.ReplaceAllString(line, ""))
	if m := labelled.FindStringSubmatch(line); m != nil {
		line = m[1]
	}
	if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "//") || proseStart.MatchString(line) {
		return out
	}
	return append(out, readmeCommand{line: n, command: line})
}

// notProcesses are the first words (or two) of commands that install,
// build, check or move around: steps, not processes.
var notProcesses = lazyregexp.New(`^(git|cd|cp|mv|rm|mkdir|ln|export|set|echo|source|\.|cat|open|curl|wget|brew|apt(-get)?|sudo|choco|winget|nvm|fnm|asdf|corepack|pip3?|pipx|python3? -m (venv|pip)|virtualenv|conda|uv (sync|pip|venv|tool|add|lock)|poetry (install|add|lock|shell)|pdm (install|add|lock)|bundle( install)?$|gem|go (get|install|build|test|mod|generate)|cargo (build|test|install|fmt|clippy|check|add)|rustup|composer (install|update|require|create-project)|mix (deps\.get|test|format|compile|archive)|npm (i|install|ci|add|test|audit|init|create|exec)|npx (create|degit)|(pnpm|yarn|bun) (i|install|add|create|dlx|test)|bunx (degit|create)|(pnpm|yarn|bun)$|yarn install|docker (build|compose|pull|push|login|exec|ps|logs)|docker-compose|kubectl|helm|terraform|fly|vercel|netlify|heroku|stripe|gh|code|touch|chmod|ssh|sh -c|bash -c|php artisan key:generate|deno (fmt|lint|test|check|install|upgrade))\b`)

// buildWords mark a script or task that checks or builds the project.
var buildWords = lazyregexp.New(`(?i)^(build|test|lint|format|fmt|check|typecheck|clean|install|deploy|publish|release|preview|prod|docs?)([:_-]|$)`)

// oneShotWords mark a step a developer runs once before starting: the
// database brought up to date, seeded, the project set up.
var oneShotWords = lazyregexp.New(`(?i)(^|[\s:_-])(migrate|migrations?|seed|setup|init|upgrade|bootstrap|db:push|db push)([\s:_-]|$)`)
