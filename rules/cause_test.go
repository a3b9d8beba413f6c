package rules

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// highestCause is what a caller of CauseRank does: the highest-ranked line,
// the first of equal ones.
func highestCause(lines []string) string {
	best, bestRank := "", CauseNone
	for _, l := range lines {
		if r := CauseRank(l); r > bestRank {
			best, bestRank = l, r
		}
	}
	return best
}

// Each output is real, recorded here: the captures named (in
// builtin-frameworks/testdata/captures) or the command shown.
func TestCauseRankPicksTheLineThatExplains(t *testing.T) {
	tests := []struct {
		name   string
		output string
		want   string
	}{
		{"python import error (python3 imp.py)", `Traceback (most recent call last):
  File "/tmp/x/imp.py", line 1, in <module>
    import nosuchmod
ModuleNotFoundError: No module named 'nosuchmod'`, "ModuleNotFoundError: No module named 'nosuchmod'"},
		{"python syntax error (python3 bad.py)", `  File "/tmp/x/bad.py", line 2
    def f(:
          ^
SyntaxError: invalid syntax`, "SyntaxError: invalid syntax"},
		{"flask import error (captures flask/import-error)", `Usage: flask run [OPTIONS]
Try 'flask run --help' for help.

Error: While importing 'app', an ImportError was raised:

Traceback (most recent call last):
  File "/usr/lib/python3/dist-packages/flask/cli.py", line 218, in locate_app
    __import__(module_name)
  File "/tmp/procs-capture-3735820677/app.py", line 1, in <module>
    import no_such_module
ModuleNotFoundError: No module named 'no_such_module'`, "ModuleNotFoundError: No module named 'no_such_module'"},
		{"node throw (node b.js)", `/tmp/x/b.js:1
throw new Error("boom")
^

Error: boom
    at Object.<anonymous> (/tmp/x/b.js:1:7)
    at Module._compile (node:internal/modules/cjs/loader:1521:14)

Node.js v20.20.2`, "Error: boom"},
		{"node TypeError (node -e 'null.x')", `[eval]:1
null.x
     ^

TypeError: Cannot read properties of null (reading 'x')
    at [eval]:1:6
Node.js v20.20.2`, "TypeError: Cannot read properties of null (reading 'x')"},
		{"node missing module (node a.js)", `node:internal/modules/cjs/loader:1210
  throw err;
  ^

Error: Cannot find module './nope'
Require stack:
- /tmp/x/a.js
    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)`, "Error: Cannot find module './nope'"},
		{"go panic (go run p.go)", `panic: assignment to entry in nil map

goroutine 1 [running]:
main.main()
	/tmp/x/p.go:2 +0x28
exit status 2`, "panic: assignment to entry in nil map"},
		{"initdb as root (initdb -D db)", `initdb: error: cannot be run as root
initdb: hint: Please log in (using, e.g., "su") as the (unprivileged) user that will own the server process.`,
			"initdb: error: cannot be run as root"},
		{"postgres port in use (captures postgres/port-in-use)", `2026-11-22 22:02:45.745 UTC [25474] LOG:  could not bind IPv4 address "127.0.0.1": Address already in use
2026-11-22 22:02:45.745 UTC [25474] HINT:  Is another postmaster already running on port 27203? If not, wait a few seconds and retry.
2026-11-22 22:02:45.745 UTC [25474] WARNING:  could not create listen socket for "127.0.0.1"
2026-11-22 22:02:45.745 UTC [25474] FATAL:  could not create any TCP/IP sockets
2026-11-22 22:02:45.747 UTC [25474] LOG:  database system is shut down`, "2026-11-22 22:02:45.745 UTC [25474] FATAL:  could not create any TCP/IP sockets"},
		{"vite config parse error (captures vite/bad-config)", `✘ [ERROR] Expected identifier but found end of file

    vite.config.js:2:0:
      2 │ 
        ╵ ^

failed to load config from /tmp/procs-capture-2571338656/vite.config.js
error when starting dev server:
Error: Build failed with 1 error:
vite.config.js:2:0: ERROR: Expected identifier but found end of file
    at failureErrorWithLog (/tmp/procs-npm/node_modules/esbuild/lib/main.js:1472:15)`,
			"vite.config.js:2:0: ERROR: Expected identifier but found end of file"},
		{"sveltekit bad config (captures sveltekit/bad-config)", `error when starting dev server:
SyntaxError: Unexpected end of input
    at compileSourceTextModule (node:internal/modules/esm/utils:346:16)`, "SyntaxError: Unexpected end of input"},
		{"mariadb port in use (captures mysql/port-in-use)", `2026-11-22 22:05:27 0 [ERROR] Can't start server: Bind on TCP/IP port. Got error: 98: Address already in use
2026-11-22 22:05:27 0 [ERROR] Do you already have another server running on port: 27502 ?
2026-11-22 22:05:27 0 [ERROR] Aborting`, "2026-11-22 22:05:27 0 [ERROR] Can't start server: Bind on TCP/IP port. Got error: 98: Address already in use"},
		{"nginx bad config (captures nginx/bad-config)", `2026/11/22 22:02:50 [emerg] 25623#25623: unknown directive "bogus_directive" in /tmp/procs-capture-2091188702/nginx.conf:1`,
			`2026/11/22 22:02:50 [emerg] 25623#25623: unknown directive "bogus_directive" in /tmp/procs-capture-2091188702/nginx.conf:1`},
		{"puma bad rackup (captures rails/puma-bad-rackup)", "config.ru:1:in `block in <main>': uninitialized constant NoSuchApp (NameError)\n" +
			"\tfrom /usr/share/rubygems-integration/all/gems/rack-2.2.22/lib/rack/builder.rb:116:in `eval'\n" +
			"! Unable to load application: NameError: uninitialized constant NoSuchApp",
			"config.ru:1:in `block in <main>': uninitialized constant NoSuchApp (NameError)"},
		{"uvicorn import error (captures uvicorn/import-error)", `INFO:     Will watch for changes in these directories: ['/tmp/x']
ERROR:    Error loading ASGI app. Could not import module "nosuch".`, `ERROR:    Error loading ASGI app. Could not import module "nosuch".`},
		{"go compile error (go run . with an undefined name)", `# example.com/app
./main.go:4:2: undefined: undefinedThing`, "./main.go:4:2: undefined: undefinedThing"},
		{"go unused variable (go run .)", `# example.com/app
./main.go:4:2: declared and not used: x`, "./main.go:4:2: declared and not used: x"},
		{"go module not found (go run . with GOPROXY=off)", `go: finding module for package github.com/gin-gonic/gin
main.go:3:8: cannot find module providing package github.com/gin-gonic/gin: module lookup disabled by GOPROXY=off`,
			"main.go:3:8: cannot find module providing package github.com/gin-gonic/gin: module lookup disabled by GOPROXY=off"},
		{"go log.Fatal with file names (log.Lshortfile)", `2026/11/29 09:53:28 main.go:10: loading config
2026/11/29 09:53:28 main.go:12: open config.yaml: no such file or directory
exit status 1`, "2026/11/29 09:53:28 main.go:12: open config.yaml: no such file or directory"},
		{"parcel library target in serve mode (parcel serve src/index.html, package.json with main)", "🚨 Build failed.\n\n@parcel/core: \nLibrary targets are not supported in serve mode.\n\n" +
			"  /tmp/procs-npm/parcel/package.json:5:11\n    4 |   \"description\": \"\",\n  > 5 |   \"main\": \"index.js\",\n" +
			"  >   |           ^^^^^^^^^^ Target declared here\n    6 |   \"scripts\": {\n" +
			"    7 |     \"test\": \"echo \\\"Error: no test specified\\\" && exit 1\"\n\n" +
			"  💡 The \"main\" field is meant for libraries, not applications. Either remove\n      the \"main\" field or choose a different target name.",
			"Library targets are not supported in serve mode."},
		{"parcel syntax error (parcel serve src/index.html)", "Building...\n🚨 Build failed.\n\n@parcel/transformer-js: Expected ',', got 'let'\n\n" +
			"  /tmp/procs-npm/parcel/src/app.js:2:1\n    1 | console.log(\"hi\"\n  > 2 | let x = ;\n  >   | ^^^\n    3 | ",
			"@parcel/transformer-js: Expected ',', got 'let'"},
		{"go port in use (fixtures go/port-in-use)", `listening on :30932
listen tcp :30932: bind: address already in use
exit status 1`, "listen tcp :30932: bind: address already in use"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, highestCause(strings.Split(tt.output, "\n")))
		})
	}
}

func TestCauseRankOfLinesThatAreNotCauses(t *testing.T) {
	for _, line := range []string{
		"",
		"Traceback (most recent call last):",
		`  File "/tmp/x/app.py", line 6, in <module>`,
		"    at Object.<anonymous> (/tmp/x/b.js:1:7)",
		`initdb: hint: Please log in (using, e.g., "su") as the (unprivileged) user that will own the server process.`,
		"2026-11-22 22:02:45.745 UTC [25474] HINT:  Is another postmaster already running on port 27203?",
		"Usage: flask run [OPTIONS]",
		"Try 'flask run --help' for help.",
		"goroutine 1 [running]:",
		"exit status 2",
		"Node.js v20.20.2",
		" * Running on http://127.0.0.1:5000",
		// A code frame quotes the source at fault, whatever it says
		// (parcel's, babel's, vite's: "  > 5 |", "    7 |", "      2 │").
		`    7 |     "test": "echo \"Error: no test specified\" && exit 1"`,
		`  > 5 |   throw new Error("boom");`,
		`      2 │ export default { bad: }`,
	} {
		assert.Equal(t, CauseNone, CauseRank(line), "%q", line)
	}
}

// An exception with its place outranks the one without; a severity tag
// outranks a word in passing; a line that only introduces or reports a
// failure ranks as a mention.
func TestCauseRankOrder(t *testing.T) {
	assert.Greater(t, CauseRank("vite.config.js:2:0: ERROR: Expected identifier"), CauseRank("✘ [ERROR] Expected identifier"))
	assert.Greater(t, CauseRank("FATAL:  could not create any TCP/IP sockets"), CauseRank(`LOG:  could not bind IPv4 address "127.0.0.1": Address already in use`))
	assert.Equal(t, CauseMention, CauseRank("error when starting dev server:"))
	assert.Equal(t, CauseReport, CauseRank("2026-11-22 22:05:27 0 [ERROR] Aborting"))
	assert.Equal(t, CauseReport, CauseRank("🚨 Build failed."), "parcel's line over the error it explains")
	assert.Equal(t, CauseException, CauseRank("ValueError: bad value 42"))
	assert.Equal(t, CauseException, CauseRank("django.core.exceptions.ImproperlyConfigured: The SECRET_KEY setting must not be empty."))
	assert.Equal(t, CauseTagged, CauseRank("2026/11/22 22:03:30.950074 [FTL] Error listening on port: 127.0.0.1:28202"))
}

// Of exception lines that rank alike, the last is the cause: the final one
// of a chained traceback, the exception that ended the program (here one
// the program raised to explain the one it caught). Python 3.11's lines.
// The rule was written as a rank of 90 on a scale that has since become
// 0 to 5, and no line had reached it.
func TestBestCauseOfAChainedTracebackIsItsFinalException(t *testing.T) {
	lines := []string{
		"Traceback (most recent call last):",
		`  File "/srv/app/load.py", line 3, in <module>`,
		`    json.loads("{")`,
		`  File "/usr/lib/python3.11/json/decoder.py", line 353, in raw_decode`,
		"    obj, end = self.scan_once(s, idx)",
		"               ^^^^^^^^^^^^^^^^^^^^^^",
		"json.decoder.JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)",
		"",
		"The above exception was the direct cause of the following exception:",
		"",
		"Traceback (most recent call last):",
		`  File "/srv/app/load.py", line 5, in <module>`,
		`    raise RuntimeError("config.json is not valid JSON") from e`,
		"RuntimeError: config.json is not valid JSON",
	}
	assert.Equal(t, len(lines)-1, bestCause(lines, 0))
}

// TestTheErrorAboveAStack: Storybook 8.6's lines for a syntax error in
// .storybook/main.js (capture storybook/bad-config). The error pattern
// matches "WARN Broken build, fix the error above.", below a stack of
// fifteen frames; esbuild's error with its place is above them, beyond the
// lines before a failure that are read, had frames counted among them.
func TestTheErrorAboveAStack(t *testing.T) {
	frames := []string{
		"    at failureErrorWithLog (/srv/sb/node_modules/esbuild/lib/main.js:1467:15)",
		"    at /srv/sb/node_modules/esbuild/lib/main.js:736:50",
		"    at responseCallbacks.<computed> (/srv/sb/node_modules/esbuild/lib/main.js:603:9)",
		"    at handleIncomingPacket (/srv/sb/node_modules/esbuild/lib/main.js:658:12)",
		"    at Socket.readFromStdout (/srv/sb/node_modules/esbuild/lib/main.js:581:7)",
		"    at Socket.emit (node:events:524:28)",
		"    at addChunk (node:internal/streams/readable:561:12)",
		"    at readableAddChunkPushByteMode (node:internal/streams/readable:512:3)",
		"    at Readable.push (node:internal/streams/readable:392:5)",
		"    at Pipe.onStreamRead (node:internal/stream_base_commons:191:23)",
		"    at loadMainConfig (/srv/sb/node_modules/@storybook/core/dist/common/index.cjs:17557:11)",
		"    at async buildDevStandalone (/srv/sb/node_modules/@storybook/core/dist/core-server/index.cjs:39498:11)",
		"    at async withTelemetry (/srv/sb/node_modules/@storybook/core/dist/core-server/index.cjs:37269:12)",
		"    at async dev (/srv/sb/node_modules/@storybook/core/dist/cli/bin/index.cjs:5874:3)",
		"    at async s.<anonymous> (/srv/sb/node_modules/@storybook/core/dist/cli/bin/index.cjs:6052:74)",
	}
	d := NewDetector(&Spec{ErrorPatterns: mustPatterns(t, `WARN Broken build, fix the error above`), ReadyTimeout: 30 * time.Second}, 1, t0)
	steps := []step{
		lineAt(10*time.Millisecond, "@storybook/core v8.6.19"),
		lineAt(10*time.Millisecond, "SB_CORE-SERVER_0007 (MainFileEvaluationError): Storybook couldn't evaluate your .storybook/main.js file."),
		lineAt(10*time.Millisecond, "Original error:"),
		lineAt(10*time.Millisecond, "Error: Transform failed with 1 error:"),
		lineAt(10*time.Millisecond, `/.storybook/main.js:2:13: ERROR: Expected identifier but found "="`),
	}
	for _, frame := range frames {
		steps = append(steps, lineAt(10*time.Millisecond, frame))
	}
	steps = append(steps,
		lineAt(10*time.Millisecond, "WARN Broken build, fix the error above."),
		lineAt(10*time.Millisecond, "WARN You may need to refresh the browser."),
		exitAt(20*time.Millisecond, Exit{Code: 1}))
	history := drive(d, steps, time.Second)
	require.NotEmpty(t, history)
	v := history[len(history)-1]
	assert.Equal(t, StateFailed, v.State)
	assert.Contains(t, v.Message, `error line "/.storybook/main.js:2:13: ERROR: Expected identifier but found \"=\""`)
}

// A help text printed on a failure (tsc --watch with no tsconfig.json,
// captures tsc/no-tsconfig) describes its options in words of failure: none
// of them is the cause.
func TestCauseRankAtSkipsAHelpTextsOptions(t *testing.T) {
	lines := []string{"tsc: The TypeScript Compiler - Version 7.0.2", "", "--pretty",
		"Enable color and formatting in TypeScript's output to make compiler errors easier to read.",
		"type: boolean", "", "-w, --watch", "Watch input files."}
	assert.Equal(t, CauseNone, causeRankAt(lines, 3))
	assert.Equal(t, 0, bestCause(lines, 0), "the first error line stays the cause")
	// An option's description may take more than a line: tsc 7's --lib
	// lists its values below it, es2022.error among them.
	lib := []string{"tsc: The TypeScript Compiler - Version 7.0.2", "", "--lib",
		"Specify a set of bundled library declaration files that describe the target runtime environment.",
		"one or more: es5, es6/es2015, es2022.array, es2022.error, es2022.intl", "default: undefined", "", "--allowJs"}
	assert.Equal(t, CauseNone, causeRankAt(lib, 4))
	assert.Equal(t, 0, bestCause(lib, 0), "the first error line stays the cause")
}

// Where a failure is, read from the lines around its cause (lines[0]).
func TestCauseLocationOfRealOutput(t *testing.T) {
	tests := []struct{ name, output, want string }{
		{"node ES module (node app.mjs): its heading is a file: URL", `file:///tmp/x/app.mjs:3
null.x;
     ^

TypeError: Cannot read properties of null (reading 'x')
    at file:///tmp/x/app.mjs:3:6
    at ModuleJob.run (node:internal/modules/esm/module_job:325:25)`, "/tmp/x/app.mjs:3"},
		{"deno: the runtime's ext: frames, then the module's", `error: Uncaught (in promise) NotCapable: Requires net access to "0.0.0.0:8000", run again with the --allow-net flag
Deno.serve({ port: 8000 }, () => new Response("hi"));
     ^
    at listen (ext:deno_net/01_net.js:1:7011)
    at serveInner (ext:deno_http/00_serve.ts:1:16735)
    at file:///srv/app/server.ts:1:6`, "/srv/app/server.ts:1:6"},
		{"vite 6: the File line of its excerpt, not its own frames", `5:26:12 PM [vite] Internal server error: Failed to resolve import "./nope.js" from "main.js". Does the file exist?
  Plugin: vite:import-analysis
  File: /srv/vt/main.js:1:16
  1  |  import x from "./nope.js"; document.body.textContent = x;
     |                 ^
      at TransformPluginContext._formatLog (file:///srv/vt/node_modules/vite/dist/node/chunks/dep-Cohbwjf9.js:42852:41)`, "/srv/vt/main.js:1:16"},
		{"esbuild (Angular 20's application builder): the place on its own line below", `Application bundle generation failed. [0.564 seconds] - 2026-11-29T19:37:52.992Z

✘ [ERROR] TS1109: Expression expected. [plugin angular-compiler]

    src/app/app.ts:11:46:
      11 │   protected readonly title = signal('ngapp') +;
         ╵                                               ^`, "src/app/app.ts:11:46"},
		{"next 16 (Turbopack): a syntax error under the file it names", `⨯ ./app/page.js:1:57
Error: Expression expected
> 1 | export default function Page() { return <h1>hello</h1> +; }
    |                                                         ^
  2 |

Parsing ecmascript source code failed`, "./app/page.js:1:57"},
		{"next 16 (Turbopack): an exception in a page, its frame relative to the project", `✓ Compiled in 6ms
⨯ TypeError: Cannot read properties of null (reading 'name')
    at Page (app/page.js:1:64)
> 1 | export default function Page() { const u = null; return <h1>{u.name}</h1>; }
    |                                                                ^
  2 | {
  digest: '3691182313'
}`, "app/page.js:1:64"},
		{"node's heading of a line in a package is not the app's place", `/srv/app/node_modules/webpack-dev-server/lib/Server.js:2746
        throw error;
        ^

Error: listen EADDRINUSE: address already in use 127.0.0.1:29102
    at Server.setupListenHandle [as _listen2] (node:net:1908:16)`, ""},
		{"a relative frame in node_modules is a package's, not the app's", `TypeError: x is not a function
    at run (node_modules/lib/index.js:3:9)
    at main (src/server.js:12:5)`, "src/server.js:12:5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lines := strings.Split(tt.output, "\n")
			i := slices.Index(lines, highestCause(lines))
			require.GreaterOrEqual(t, i, 0)
			assert.Equal(t, tt.want, causeLocation(lines, i))
		})
	}
}

// Oxc and Rolldown (Vite 8) report a diagnostic as a message over a
// miette-style excerpt headed "╭─[ path:line:col ]": the message is the
// cause, whatever its words, and the heading says where, made absolute by
// Vite's "File:" line below when there is one. Output recorded here: Vite
// 8.4.0 (npm), `vite` serving a .ts file with a syntax error, and `vite
// build` of it. Webpack heads the message with the module instead:
// "ERROR in ./src/index.js 1:10" (webpack 5.113 under webpack-dev-server 6),
// a place in the code webpack parsed: the file's own where no loader made
// it (a parse error), not where one did (an import's range, "26:0-23", in
// what babel-loader wrote for a file of 18 lines under react-scripts 5).
func TestHeadedDiagnostics(t *testing.T) {
	frame := `   ╭─[ src/App.ts:1:19 ]
   │
 1 │ const x: number = ;
   │                   ┬  
   │                   ╰── 
───╯
`
	tests := []struct{ name, output, line, where string }{
		{"vite 8 dev: an oxc parse error", `6:57:42 PM [vite] Internal server error: Transform failed with 1 error:

[PARSE_ERROR] Unexpected token
` + frame + `
  Plugin: vite:oxc
  File: /srv/u8/src/App.ts
      at transformWithOxc (file:///srv/u8/node_modules/vite/dist/node/chunks/node.js:7249:19)
      at async loadAndTransform (file:///srv/u8/node_modules/vite/dist/node/chunks/node.js:19302:26)`,
			"[PARSE_ERROR] Unexpected token", "/srv/u8/src/App.ts:1:19"},
		{"vite 8 build: a plugin's message, the path relative to the project", `✗ Build failed in 90ms
error during build:
Build failed with 1 error:

[builtin:vite-transform] Unexpected token
` + frame + `
    at aggregateBindingErrorsIntoJsError (file:///srv/u8/node_modules/rolldown/dist/shared/error-z4CTM_u3.mjs:110:18)
    at unwrapBindingResult (file:///srv/u8/node_modules/rolldown/dist/shared/error-z4CTM_u3.mjs:78:128)`,
			"[builtin:vite-transform] Unexpected token", "src/App.ts:1:19"},
		{"webpack 5: the line below its heading of the module's error", `webpack 5.113.0 compiled with 1 error in 963 ms
ERROR in ./src/index.js 1:10
Module parse failed: Unexpected token (1:10)
File was parsed as module type 'javascript/auto'.
You may need an appropriate loader to handle this file type, currently no loaders are configured to process this file. See https://webpack.js.org/concepts#loaders
> 1 | const x = ;
    |           ^`, "Module parse failed: Unexpected token (1:10)", "./src/index.js:1:10"},
		{"webpack 5: a module it cannot resolve, the heading naming no place", `ERROR in ./src/index.js
Module not found: Error: Can't resolve './nope' in '/srv/app/src'`, "Module not found: Error: Can't resolve './nope' in '/srv/app/src'", "./src/index.js"},
		{"webpack 5 under create-react-app: an import's range is in the code babel-loader made, not the file", `Failed to compile.

Module not found: Error: Can't resolve './nope' in '/srv/app/src'
ERROR in ./src/index.js 26:0-23
Module not found: Error: Can't resolve './nope' in '/srv/app/src'`, "Module not found: Error: Can't resolve './nope' in '/srv/app/src'", "./src/index.js"},
		{"webpack 5 under create-react-app: a loader's error, introduced below the heading", `Failed to compile.

[eslint] 
src/App.js
Syntax error: Unexpected token (9:17) (9:17)
ERROR in ./src/App.js
Module build failed (from ./node_modules/babel-loader/lib/index.js):
SyntaxError: /srv/app/src/App.js: Unexpected token (9:17)

   7 |       <header className="App-header">
>  9 |         <p>{ x = ; }
     |                  ^
    at constructor (/srv/app/node_modules/@babel/parser/lib/index.js:369:19)`,
			"SyntaxError: /srv/app/src/App.js: Unexpected token (9:17)", "./src/App.js"},
		{"create-react-app: ESLint's message in react-dev-utils' format, under the file it is in", `Failed to compile.

[eslint] 
src/App.js
  Line 5:3:  'foo' is not defined  no-undef

Search for the keywords to learn more about each error.
ERROR in [eslint] 
src/App.js
  Line 5:3:  'foo' is not defined  no-undef

Search for the keywords to learn more about each error.

webpack compiled with 1 error`, "  Line 5:3:  'foo' is not defined  no-undef", "src/App.js:5:3"},
		{"a heading whose file has a word of failure in its name", `[PARSE_ERROR] Unexpected token
   ╭─[ bad.ts:1:19 ]
   │
  File: /srv/u8/bad.ts`, "[PARSE_ERROR] Unexpected token", "/srv/u8/bad.ts:1:19"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lines := strings.Split(tt.output, "\n")
			line := bestOf(lines)
			assert.Equal(t, tt.line, line)
			at := len(lines) - 1 // bestOf's line is the latest of the best
			for at > 0 && lines[at] != line {
				at--
			}
			assert.Equal(t, tt.where, causeLocation(lines, at))
		})
	}
}

// TestLinesUnderAProgramsTag: a program that tags each of its lines
// ("[11ty] ", "[vite] ", concurrently's "[0] ") prints its stack frames and
// its exception under the tag too. Eleventy 3.1's failed first build
// (npm start running eleventy --serve, a broken Liquid tag) was quoted by
// a stack frame, "[11ty]     at Tokenizer.error (…)", for the word error
// in it; the exception above the stack says what is wrong, and where.
func TestLinesUnderAProgramsTag(t *testing.T) {
	lines := []string{
		"> site@1.0.0 start",
		"> eleventy --serve",
		"[11ty] Problem writing Eleventy templates:",
		"[11ty] 1. Having trouble rendering liquid template ./index.md (via TemplateContentRenderError)",
		`[11ty] 2. output "{{ title }\n{% if %}\n" not closed, file:./index.md, line:1, col:9 (via TokenizationError)`,
		"[11ty] ",
		`[11ty] Original error stack trace: output "{{ title }\n{% if %}\n" not closed, file:./index.md, line:1, col:9`,
		"[11ty] >> 1| # Hello {{ title }",
		"[11ty]               ^",
		"[11ty]    2| {% if %}",
		`[11ty] TokenizationError: output "{{ title }\n{% if %}\n" not closed, file:./index.md, line:1, col:9`,
		"[11ty]     at Tokenizer.error (/srv/site/node_modules/liquidjs/dist/liquid.node.js:2191:16)",
		"[11ty]     at Tokenizer.readOutputToken (/srv/site/node_modules/liquidjs/dist/liquid.node.js:2141:24)",
		"[11ty]     at async Template._render (file:///srv/site/node_modules/@11ty/eleventy/src/TemplateContent.js:639:13)",
		"[11ty] Wrote 0 files in 0.47 seconds (v3.1.8)",
	}
	v := verdictAfterExit(t, &Spec{ReadyTimeout: 30 * time.Second}, lines)
	assert.Equal(t, StateFailed, v.State)
	assert.Contains(t, v.Message, `error line "[11ty] TokenizationError: output`)

	for line, rank := range map[string]int{
		"[11ty]     at Tokenizer.error (/srv/liquid.node.js:2191:16)": CauseNone,
		"[0] TypeError: Cannot read properties of undefined":          CauseException,
		"[ERROR] could not bind":                                      CauseTagged,
		"[vite] Internal server error: Failed to resolve import":      CauseTagged,
	} {
		assert.Equal(t, rank, CauseRank(line), line)
	}
}

// TestAnExceptionUnderAWarningIsItsDetail: Wrangler 4, offline, warns that
// it cannot fetch the Request.cf object and logs the DNS error with its
// stack, then goes on; when workerd then fails to bind a port in use, the
// cause is the bind, not the warning's detail (it was quoted: "Error:
// getaddrinfo ENOTFOUND workers.cloudflare.com"). Real lines, ANSI
// stripped, of `wrangler dev --port 29922` with the port held.
func TestAnExceptionUnderAWarningIsItsDetail(t *testing.T) {
	lines := []string{
		" ⛅️ wrangler 4.86.0",
		"───────────────────",
		"[wrangler:warn] Unable to fetch the `Request.cf` object! Falling back to a default placeholder...",
		"Error: getaddrinfo ENOTFOUND workers.cloudflare.com",
		"    at GetAddrInfoReqWrap.onlookupall [as oncomplete] (node:dns:122:26)",
		"    at GetAddrInfoReqWrap.callbackTrampoline (node:internal/async_hooks:130:17)",
		"⎔ Starting local server...",
		"*** Fatal uncaught kj::Exception: kj/async-io-unix.c++:945: failed: ::bind(sockfd, &addr.generic, addrlen): Address already in use; toString() = 127.0.0.1:29922",
		"stack: /srv/w/node_modules/@cloudflare/workerd-linux-64/bin/workerd@51f7db6 /srv/w/node_modules/@cloudflare/workerd-linux-64/bin/workerd@51f7b89",
		"✘ [ERROR] Address already in use (127.0.0.1:29922). Please check that you are not already running a server on this address or specify a different port with --port.",
		`🪵  Logs were written to "/root/.config/.wrangler/logs/wrangler-2026-11-30_04-23-40_018.log"`,
	}
	spec := &Spec{ErrorPatterns: mustPatterns(t, `^\s*✘ \[ERROR\] `, `\bAddress already in use\b`), ReadyTimeout: 30 * time.Second}
	v := verdictAfterExit(t, spec, lines)
	assert.Equal(t, StateFailed, v.State)
	assert.Contains(t, v.Message, `error line "✘ [ERROR] Address already in use (127.0.0.1:29922).`)

	// Not under a warning, the same exception is the cause.
	assert.Equal(t, CauseException, causeRankAt([]string{"⎔ Starting local server...", "Error: getaddrinfo ENOTFOUND db.internal"}, 1))
}

// verdictAfterExit is the last verdict of a run of spec that printed
// lines, 10 ms apart, and then exited with code 1.
func verdictAfterExit(t *testing.T, spec *Spec, lines []string) Verdict {
	t.Helper()
	var steps []step
	for _, l := range lines {
		steps = append(steps, lineAt(10*time.Millisecond, l))
	}
	steps = append(steps, exitAt(20*time.Millisecond, Exit{Code: 1}))
	history := drive(NewDetector(spec, 1, t0), steps, time.Second)
	require.NotEmpty(t, history)
	return history[len(history)-1]
}
