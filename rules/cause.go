package rules

import (
	"strings"

	"github.com/procsdev/procs/internal/lazyregexp"
)

// Ranks CauseRank gives a line, from "says nothing of why" to "the line a
// person looks for". A caller choosing the line that explains a failure
// takes the highest rank, and the first of equal ones.
const (
	// CauseNone: no word of a failure, or a line that only points at one
	// (a hint, a usage line, a stack frame, a traceback's header).
	CauseNone = 0
	// CauseReport: a line that only reports that something failed
	// ("Aborting", "Retrying", "Failed listening on port 6379 (TCP),
	// aborting."), whatever its tag: the line that says why is elsewhere
	// (Redis' "bind: Address already in use" just above it).
	CauseReport = 1
	// CauseMention: a failure named in passing ("could not", "already in
	// use"), or a line that introduces the cause that follows ("error when
	// starting dev server:").
	CauseMention = 2
	// CauseTagged: a line of severity error, fatal or emerg
	// ("initdb: error: …", "FATAL:  …", "[emerg]", "[ERROR]").
	CauseTagged = 3
	// CauseException: the exception itself: Python's final traceback line,
	// Node's "Error:"/"TypeError:", Go's "panic:", Java's and Rust's.
	CauseException = 4
)

// causeLocationBonus is added to a ranked line that also says where the
// fault is (file.ext:line, `, line N`): "vite.config.js:2:0: ERROR: …"
// outranks the "Error: Build failed with 1 error:" around it.
const causeLocationBonus = 1

var (
	// causeNotLines point at a cause without being one.
	causeNotLines = lazyregexp.New(`(?i)` +
		`^\s+at\s|^\s+File "|^\s*\^+\s*$|^\s*~+\s*$|^Traceback \(most recent call last\)|` +
		`^goroutine \d+ \[|^Node\.js v\d|^exit status \d+$|\bhint\s*:|^\s*usage:|` +
		`^\s*(try|run) ['"]?\S+ --help|^Require stack:|^\s*- /|^\s*throw \w+;|^\s+from \S+:\d+:in |` +
		// A code frame's line quotes the source at fault, whatever it
		// says: "  > 5 |   main: …", "    7 |", vite's "      2 │".
		`^\s*>?\s*\d*\s+[|│]|` +
		// An excerpt's heading names the file ("╭─[ bad.ts:1:19 ]"): the
		// line above it says what is wrong there.
		`^\s*(,-|╭─)\[|` +
		// Webpack's heading of a plugin's errors ("ERROR in [eslint]"):
		// the lines below say what they are.
		`^ERROR in \[[\w-]+\]\s*$|` +
		// An Erlang stack frame: "rabbit:start/2, line 831".
		`\b[a-z]\w*:['\w]+/\d+, line \d+$|` +
		// A title banner names the kind of error over the lines that say
		// what it is (Redis' "*** FATAL CONFIG FILE ERROR (Redis 7.0.15) ***").
		`^\*{3} [A-Z][A-Z ]+( \([^)]*\))? \*{3}$`)
	// warningLine is a line of severity warning: "[wrangler:warn] ",
	// "WARN ", "warning: ".
	warningLine = lazyregexp.New(`(?i)^\s*\[[\w:.-]*\bwarn(ing)?\]|^\s*warn(ing)?\b:?\s`)
	// causeExceptions are the lines naming the exception or panic.
	causeExceptions = lazyregexp.New(`` +
		`^(Uncaught\s+)?([A-Za-z_][\w$]*\.)*([A-Z][\w$]*)?(Error|Exception|Exit|Interrupt|Fault)( \[\w+\])?(:|$)|` +
		`^([a-z_]\w*\.)+[A-Z]\w*: |` +
		`^(panic|fatal error): |^Exception in thread |^thread '.*' panicked at |` +
		// Erlang's class:reason ("throw:{feature_flags_file_read_error,…}").
		`^(throw|error|exit):\{|` +
		`:\d+:in .*\([A-Z]\w*(Error|Exception)\)$`)
	// causeTags are severity markers: bracketed, or a word and a colon.
	causeTags = lazyregexp.New(`` +
		`\[(ERROR|FATAL|PANIC|CRITICAL|CRIT|EMERG|ALERT|FTL|ERR|error|fatal|emerg|crit|alert)\]|` +
		`\b(ERROR|FATAL|PANIC|CRITICAL|Error|error|fatal)(\[\w+\])?:\s|` +
		`\*\*\* FATAL|# Fatal|^ERROR in |✘ `)
	// causeDiagnostics are a compiler's messages, in words that need no
	// "error" to be one: the file, line and column, then what is wrong
	// ("./main.go:4:2: undefined: x", gcc's "main.c:3:5: …"; a logger's
	// "main.go:12: …", Go's Lshortfile, has no column and comes after a
	// timestamp), or the plugin that says it (Parcel's
	// "@parcel/transformer-js: Expected ',', got 'let'").
	causeDiagnostics = lazyregexp.New(`^(\./|/)?[\w./-]+\.[A-Za-z]\w{0,4}:\d+:\d+: \S|^@[\w.-]+/[\w.-]+: \S`)
	// causeReports only say that something failed, not what.
	causeReports = lazyregexp.New(`(?i)` +
		`\baborting\b|\bretrying\b|\bcompiled with \d+ errors?\b|\bfailed with \d+ errors?\b|` +
		`^\s*\d+ errors?\b|\bworker failed to boot\b|\bshutting down\b|^\W*build failed\W*$|` +
		// Where the error above is (mosquitto's "Error found at
		// mosquitto.conf:3."), and that loading gave up (lighttpd's
		// "loading plugins finally failed" under the dlopen error).
		`\berrors? (was |were )?found (at|in)\b|\bfinally failed\b`)
	// causeWords name a failure in passing.
	causeWords = lazyregexp.New(`(?i)` +
		`\b(error|errors|failed|failure|fatal|exception|panic|abort\w*|cannot|can't|could not|unable|bad|` +
		`denied|refused|invalid|unknown|not found|no such|already in use|in use|` +
		`not permitted|timed out|traceback|not supported|unsupported)\b`)
	// causeLocations say where: file.ext:line, or Python's ", line N".
	causeLocations = lazyregexp.New(`[\w./-]+\.[A-Za-z]{1,5}:\d+|, line \d+\b`)
	// causeQuotedInput quotes the input at fault, and the line below it
	// says what is wrong with it in words of its own (Redis' ">>> 'maxmemory
	// "lots"'" over "argument must be a memory value"): that line is the
	// cause, and the quote says where.
	causeQuotedInput = lazyregexp.New(`^>>> ('.*')$`)
	// excerptHeading heads the excerpt of the source a diagnostic is about,
	// naming the file, line and column: swc's (Next.js) "   ,-[/app/page.js:1:1]",
	// miette's and Oxc's (Vite 8, Rolldown, oxlint) "   ╭─[ src/App.ts:1:19 ]".
	excerptHeading = lazyregexp.New(`^\s*(?:,-|╭─)\[\s*([^\]\s]+\.\w+)(:\d+(?::\d+)?)\s*\]`)
	// moduleErrorHeading is webpack's heading of the error of one module,
	// and where in the code webpack parsed: "ERROR in ./src/index.js 1:10",
	// where a parse failed, or "26:0-23", the range of an import. Both
	// are places in what the module's loaders made of the file (webpack
	// maps neither back): a parse failure comes from webpack only where no
	// loader parsed the file first, so its place is the file's own; an
	// import's range is in what babel-loader wrote, wherever one ran
	// (line 26 of an 18-line file under react-scripts 5), so only the file
	// is kept (failure.go, causeLocation).
	moduleErrorHeading = lazyregexp.New(`^ERROR in (\S+\.\w+)(?: (\d+:\d+)(-\d+(?::\d+)?)?)?$`)
	// lintMessage is ESLint's message as react-dev-utils prints it (Create
	// React App): "  Line 5:3:  'foo' is not defined  no-undef", below the
	// file it is in ("src/App.js", lintFile), under a heading that says
	// whether the block is of errors or of warnings ("ERROR in [eslint]").
	lintMessage = lazyregexp.New(`^\s+Line (\d+:\d+):\s+\S`)
	lintFile    = lazyregexp.New(`^(\S+\.\w+)\s*$`)
	// helpOption is a help text's line naming an option alone ("--pretty",
	// "-w, --watch").
	helpOption = lazyregexp.New(`^\s*--?\w[\w-]*(,\s*--?\w[\w-]*)*\s*$`)
	// helpSection starts the list of a help text's options or commands
	// ("Options:", yargs' and commander's).
	helpSection = lazyregexp.New(`^\s*(Options|Commands|Flags|Arguments):\s*$`)
	// severityHeading is a line that is only a severity, with the error's
	// id or category: Gatsby's reporter heads each error so (" ERROR
	// #98123  WEBPACK.DEVELOP", " ERROR  UNKNOWN") and says what it is on
	// the lines below.
	severityHeading = lazyregexp.New(`^\s*(ERROR|FATAL|PANIC)(\s+#\d+)?(\s+[A-Z][A-Z0-9_.]*)?\s*$`)
)

// CauseRank ranks how well line explains a failure: CauseNone (0) for a
// line that does not, up to CauseException plus one for an exception line
// that also names its file and line. Among the lines of a failed run, the
// highest-ranked (the first of equal ones) is the one to quote:
// Python's final exception line rather than "Traceback (most recent call
// last):", "initdb: error: …" rather than "initdb: hint: …", postgres's
// FATAL rather than its HINT. line is the ANSI-stripped text of one line.
func CauseRank(line string) int {
	text := strings.TrimRight(untagged(line), " \t\r")
	if strings.TrimSpace(text) == "" || causeNotLines.MatchString(text) {
		return CauseNone
	}
	rank := CauseNone
	switch {
	case causeExceptions.MatchString(text):
		rank = CauseException
	case causeTags.MatchString(text), causeDiagnostics.MatchString(text):
		rank = CauseTagged
	case causeWords.MatchString(text):
		rank = CauseMention
	default:
		return CauseNone
	}
	// "error when starting dev server:" introduces the cause that follows;
	// "Aborting" only reports it.
	switch {
	case causeReports.MatchString(text):
		rank = CauseReport
	case rank > CauseMention && introducesNext(text):
		rank = CauseMention
	}
	if causeLocations.MatchString(text) {
		rank += causeLocationBonus
	}
	return rank
}

// programTag is a bracketed tag a program puts in front of each of its
// lines ("[11ty] ", "[vite] ", concurrently's "[0] "), frames and
// exceptions included.
var programTag = lazyregexp.New(`^\[[\w@./:-]+\] ?`)

// untagged is line without its program's tag, so that what follows is read
// as the line it is ("[11ty]     at Tokenizer.error (…)" is a stack
// frame); a severity tag ("[ERROR] ") is kept, since it says what the line
// is.
func untagged(line string) string {
	loc := programTag.Regexp().FindStringIndex(line)
	if loc == nil || causeTags.MatchString(line[:loc[1]]) {
		return line
	}
	return line[loc[1]:]
}

// introducesNext says line introduces the one after it, which says what
// it is about: it ends with a colon ("error when starting dev server:",
// "Module build failed (from ./node_modules/babel-loader/lib/index.js):").
func introducesNext(line string) bool {
	return strings.HasSuffix(strings.TrimSpace(line), ":")
}

// moduleHeadingOf returns the match of webpack's heading of a module's
// error that lines[i] is the message of: the line just above it, or the
// one above a line that introduces it (babel-loader's error below "Module
// build failed (from ./node_modules/babel-loader/lib/index.js):"); nil
// when there is none.
func moduleHeadingOf(lines []string, i int) []string {
	if i > 0 {
		if m := moduleErrorHeading.FindStringSubmatch(lines[i-1]); m != nil {
			return m
		}
	}
	if i > 1 && introducesNext(lines[i-1]) {
		return moduleErrorHeading.FindStringSubmatch(lines[i-2])
	}
	return nil
}

// inHelpOption reports whether lines[i] describes an option of a help text:
// it is below a line naming the option alone, with no blank line between
// (tsc's "--lib", its description, then "one or more: es5, …, es2022.error").
func inHelpOption(lines []string, i int) bool {
	for j := i - 1; j >= 0 && j >= i-helpOptionLinesMax; j-- {
		switch {
		case strings.TrimSpace(lines[j]) == "":
			return false
		case helpOption.MatchString(lines[j]):
			return true
		}
	}
	return false
}

// helpOptionLinesMax is how many lines an option's description may take.
const helpOptionLinesMax = 4

// causeRankAt is CauseRank of lines[i] among the lines around it:
//   - the line over an excerpt's heading is the diagnostic it quotes the
//     source for (Oxc's "[PARSE_ERROR] Unexpected token" over "╭─[
//     src/App.ts:1:19 ]"), and so is the line below webpack's heading of a
//     module's error ("ERROR in ./src/index.js 1:10" over "Module parse
//     failed: Unexpected token"): each ranks as a tagged error line that
//     says where. Below the heading, a line that introduces the next
//     (introducesNext) is not the message; the one it introduces is;
//   - the line below a quote of the input at fault (causeQuotedInput) says
//     what is wrong with it, and ranks as a tagged error line at least;
//   - a lint message in a block under the file it is in (lintPlace) ranks
//     as a tagged error line at least;
//   - an error logged right below a warning is the warning's detail, and
//     ranks as a mention at most;
//   - the lines below an option of a help text describe the option,
//     whatever their words ("--pretty" over "Enable color and formatting
//     ... compiler errors").
func causeRankAt(lines []string, i int) int {
	if inHelpOption(lines, i) {
		return CauseNone
	}
	rank := CauseRank(lines[i])
	blank := strings.TrimSpace(lines[i]) == ""
	if !blank && (i+1 < len(lines) && excerptHeading.MatchString(lines[i+1]) ||
		moduleHeadingOf(lines, i) != nil && !introducesNext(lines[i])) {
		return max(rank, CauseTagged+causeLocationBonus)
	}
	if i > 0 && rank < CauseTagged && !blank && causeQuotedInput.MatchString(lines[i-1]) {
		rank = CauseTagged
	}
	if rank < CauseTagged && !blank && underSeverityHeading(lines, i) && !titlesHelp(lines, i) {
		// The first line under a bare heading says what the error is, in
		// words that need not name one ("gatsby <develop> can only be run
		// for a gatsby site."); the heading says only that there is one.
		rank = CauseTagged
	}
	if i > 0 && rank > CauseMention && warningLine.MatchString(lines[i-1]) {
		// The error a warning logs below it is its detail: the program
		// went on ("[wrangler:warn] Unable to fetch … Falling back to a
		// default placeholder..." over "Error: getaddrinfo ENOTFOUND").
		rank = CauseMention
	}
	if lintPlace(lines, i) != "" {
		// A lint message of a block of errors is an error line, which
		// says no word of one ("'foo' is not defined"). Not above one
		// that explains more: a build that fails also lints what the
		// error made of the file ("Import in body of module").
		rank = max(rank, CauseTagged)
	}
	return rank
}

// underSeverityHeading reports whether lines[i] is the first line under a
// bare severity heading (severityHeading), right below it or below one
// blank line.
func underSeverityHeading(lines []string, i int) bool {
	switch {
	case i > 0 && severityHeading.MatchString(lines[i-1]):
		return true
	case i > 1 && strings.TrimSpace(lines[i-1]) == "":
		return severityHeading.MatchString(lines[i-2])
	}
	return false
}

// titlesHelp reports whether lines[i] is the title of a help text, whose
// options follow within helpTitleLinesMax lines ("gatsby develop", a blank
// line, what the command does, then "Options:"): yargs prints the help of
// the command that failed under an error heading of its own.
func titlesHelp(lines []string, i int) bool {
	for j := i + 1; j < len(lines) && j <= i+helpTitleLinesMax; j++ {
		if helpSection.MatchString(lines[j]) {
			return true
		}
	}
	return false
}

// helpTitleLinesMax is how far below its title a help text lists its
// options: a blank line and a description of a few lines between.
const helpTitleLinesMax = 6

// lintPlace returns where the lint message lines[i] is (lintMessage): the
// file its block names above it, and the line and column it gives; ""
// when lines[i] is not one.
func lintPlace(lines []string, i int) string {
	m := lintMessage.FindStringSubmatch(lines[i])
	if m == nil {
		return ""
	}
	for j := i - 1; j >= 0 && strings.TrimSpace(lines[j]) != ""; j-- {
		if f := lintFile.FindStringSubmatch(lines[j]); f != nil {
			return f[1] + ":" + m[1]
		}
	}
	return ""
}
