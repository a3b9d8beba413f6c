package frameworks

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/rules"
)

// reloaderEdit is what a dev server printed, run by hand on the real
// program, when an edit broke the app it serves and a second edit fixed it.
type reloaderEdit struct {
	preset                 string
	started, broken, fixed []string
	// fixedToo, if set, is another way the same break ends: it is
	// replayed after broken again.
	fixedToo []string
	// cause is the line the unhealthy verdict quotes, where says where.
	cause, where string
	// port is the one its tree listens on once started.
	port int
}

var reloaderEdits = []reloaderEdit{{
	preset:  "nextjs", // next 15, next dev, app/page.js
	started: []string{"   ▲ Next.js 15.5.6", "   - Local:        http://localhost:3093", " ✓ Starting...", " ✓ Ready in 1726ms", " ○ Compiling / ...", " ✓ Compiled / in 2.1s (519 modules)", " GET / 200 in 2412ms"},
	broken: []string{" ○ Compiling /_error ...", " ⨯ ./app/page.js", "Error:   x Expected '>', got '}'",
		"   ,-[/srv/nx/app/page.js:1:1]", " 1 | export default function Page() { return <h1>hi</h1 }", "   :                                                    ^",
		"   `----", "", "Caused by:", "    Syntax Error", "Import trace for requested module:", "./app/page.js", " GET / 500 in 12418ms", " GET / 500 in 357ms"},
	fixed: []string{" ✓ Compiled /_error in 3.4s (523 modules)", " GET / 200 in 872ms"},
	cause: "Error:   x Expected '>', got '}'", where: "/srv/nx/app/page.js:1:1", port: 3093,
}, {
	preset: "angular", // Angular CLI 20.3 (npm), ng serve, the application builder; src/app/app.ts
	started: []string{"> ng serve --port 4281", "❯ Building...", "✔ Building...", "Initial chunk files | Names         | Raw size",
		"main.js             | main          | 47.72 kB | ", "Application bundle generation complete. [2.517 seconds] - 2026-11-29T19:37:13.737Z", "",
		"Watch mode enabled. Watching for file changes...", "NOTE: Raw file sizes do not reflect development server per-request transformations.",
		"  ➜  Local:   http://localhost:4281/"},
	broken: []string{"❯ Changes detected. Rebuilding...", "✔ Changes detected. Rebuilding...",
		"Application bundle generation failed. [0.564 seconds] - 2026-11-29T19:37:52.992Z", "",
		"✘ [ERROR] TS1109: Expression expected. [plugin angular-compiler]", "", "    src/app/app.ts:11:46:",
		"      11 │   protected readonly title = signal('ngapp') +;", "         ╵                                               ^", "", "",
		`✘ [ERROR] Unexpected ";"`, "", "    src/app/app.ts:27:30:", "      27 │     title = signal('ngapp') + ;", "         ╵                               ^"},
	fixed: []string{"❯ Changes detected. Rebuilding...", "✔ Changes detected. Rebuilding...", "Initial chunk files | Names         | Raw size",
		"main.js             | main          | 47.72 kB | ", "Application bundle generation complete. [0.333 seconds] - 2026-11-29T19:38:05.300Z", "", "Page reload sent to client(s)."},
	cause: "✘ [ERROR] TS1109: Expression expected. [plugin angular-compiler]", where: "src/app/app.ts:11:46", port: 4281,
}, {
	preset: "nuxt", // Nuxt 4.5.2 (npm), nuxt dev, app.vue
	started: []string{"●  Nuxt 4.5.2 (with Nitro 2.13.6, Vite 8.4.0 and Vue 3.5.45)", "", "  ➜ Local:    http://localhost:3193/",
		"✔ Vite client built in 78ms", "✔ Vite server built in 59ms", "[nitro] ✔ Nuxt Nitro server built in 1356ms",
		"ℹ Vite server warmed up in 109ms", "ℹ Vite client warmed up in 166ms"},
	broken: []string{"✔ Vite server hmr 2 files in 6.083ms", "✔ Vite server hmr 11 files in 0.81ms",
		"ERROR  [request error] [unhandled] [GET] http://localhost:3193/", "", " ",
		"ℹ Error: /app.vue — Error parsing JavaScript expression: Unexpected token (1:3)", "",
		" ⁃ at createCompilerError (node_modules/@vue/compiler-core/dist/compiler-core.cjs.js:1378:17)", "",
		"   1377 ┃    const msg = (messages || errorMessages)[code] + (additionalMessage || ``) ;",
		" ❯ 1378 ┃    const error = new SyntaxError(String(msg));"},
	fixed: []string{"✔ Vite server hmr 11 files in 0.941ms"},
	cause: "ℹ Error: /app.vue — Error parsing JavaScript expression: Unexpected token (1:3)", port: 3193,
}, {
	preset:  "uvicorn", // uvicorn 0.17.6 --reload, FastAPI 0.92
	started: []string{"INFO:     Will watch for changes in these directories: ['/srv/uv']", "INFO:     Uvicorn running on http://127.0.0.1:8093 (Press CTRL+C to quit)", "INFO:     Started reloader process [1350] using statreload", "INFO:     Started server process [1352]", "INFO:     Waiting for application startup.", "INFO:     Application startup complete."},
	broken: []string{"WARNING:  StatReload detected file change in 'main.py'. Reloading...", "Process SpawnProcess-2:", "Traceback (most recent call last):",
		`  File "/usr/lib/python3/dist-packages/uvicorn/importer.py", line 21, in import_from_string`, "    module = importlib.import_module(module_str)",
		`  File "/srv/uv/main.py", line 7`, "    def broken(:", "               ^", "SyntaxError: invalid syntax"},
	fixed: []string{"WARNING:  StatReload detected file change in 'main.py'. Reloading...", "INFO:     Started server process [1690]", "INFO:     Waiting for application startup.", "INFO:     Application startup complete."},
	cause: "SyntaxError: invalid syntax", where: "/srv/uv/main.py, line 7", port: 8093,
}, {
	preset:  "vite", // vite 6.4.6, an edit of vite.config.js
	started: []string{"  VITE v6.4.6  ready in 405 ms", "  ➜  Local:   http://localhost:5193/"},
	broken: []string{"11:59:56 AM [vite] vite.config.js changed, restarting server...", `✘ [ERROR] Expected identifier but found "}"`, "    vite.config.js:1:248:",
		"failed to load config from /srv/vt/vite.config.js", "11:59:56 AM [vite] Build failed with 1 error:",
		`vite.config.js:1:248: ERROR: Expected identifier but found "}"`, "11:59:56 AM [vite] server restart failed"},
	fixed: []string{"11:59:59 AM [vite] vite.config.js changed, restarting server...", "11:59:59 AM [vite] server restarted."},
	cause: `vite.config.js:1:248: ERROR: Expected identifier but found "}"`, port: 5193,
}, {
	preset:  "vite", // vite 6.4.6, an import of a file that does not exist, then the file made
	started: []string{"  VITE v6.4.6  ready in 292 ms", "  ➜  Local:   http://localhost:5181/"},
	broken: []string{`5:26:11 PM [vite] Pre-transform error: Failed to resolve import "./nope.js" from "main.js". Does the file exist?`,
		"  Plugin: vite:import-analysis", "  File: /srv/vt/main.js:1:16", `  1  |  import x from "./nope.js"; document.body.textContent = x;`,
		"     |                 ^", "  2  |  ",
		`5:26:12 PM [vite] Internal server error: Failed to resolve import "./nope.js" from "main.js". Does the file exist?`,
		"  Plugin: vite:import-analysis", "  File: /srv/vt/main.js:1:16", `  1  |  import x from "./nope.js"; document.body.textContent = x;`,
		"     |                 ^", "  2  |  ",
		"      at TransformPluginContext._formatLog (file:///srv/vt/node_modules/vite/dist/node/chunks/dep-Cohbwjf9.js:42852:41)",
		"      at async viteTransformMiddleware (file:///srv/vt/node_modules/vite/dist/node/chunks/dep-Cohbwjf9.js:37556:24)"},
	fixed: []string{"5:26:13 PM [vite] (client) page reload nope.js"},
	// And the reload after a re-optimization of its dependencies, as a
	// public bug report quotes Vite 3 (vitejs: brillout/vite-3-prebundler-bug).
	fixedToo: []string{"11:22:24 AM [vite] ✨ new dependencies optimized: react, react-dom/client", "11:22:24 AM [vite] ✨ optimized dependencies changed. reloading"},
	cause:    `5:26:11 PM [vite] Pre-transform error: Failed to resolve import "./nope.js" from "main.js". Does the file exist?`, where: "/srv/vt/main.js:1:16", port: 5181,
}, {
	preset: "gatsby", // gatsby 5.16.1 (npm), gatsby develop, src/pages/index.js
	started: []string{"You can now view site in the browser.", "⠀", "  http://localhost:8123/", "⠀",
		"success Building development bundle - 20.954s", "success Writing page-data.json and slice-data.json files to public directory -", "0.107s - 2/2 18.67/s"},
	broken: []string{"success onPreExtractQueries - 0.026s", "success extract queries from components - 0.369s", "success write out requires - 0.007s",
		"", " ERROR #98123  WEBPACK.DEVELOP", "", "Generating development JavaScript bundle failed", "",
		"/srv/gs/src/pages/index.js: Unexpected token (2:10)", "", "> 2 | const x = ;", "    |           ^", "",
		"File: src/pages/index.js?export=default:2:10", "", "failed Re-building development bundle - 2.121s", "",
		"ERROR in ./src/pages/index.js?export=default", "Module build failed (from ../node_modules/gatsby/dist/utils/babel-loader.js):",
		"SyntaxError: /srv/gs/src/pages/index.js: Unexpected token (2:10)", "", "> 2 | const x = ;",
		"    at constructor (/srv/gs/node_modules/@babel/parser/lib/index.js:369:19)", "", "develop compiled with 2 errors"},
	fixed: []string{"success onPreExtractQueries - 0.034s", "success extract queries from components - 0.082s",
		"success write out requires - 0.004s", "success Re-building development bundle - 1.852s"},
	cause: "SyntaxError: /srv/gs/src/pages/index.js: Unexpected token (2:10)", where: "index.js", port: 8123,
}, {
	preset:  "express", // node 20 --watch and nodemon 3 print the app's own lines again
	started: []string{"[nodemon] starting `node server.js`", "listening on port 4095"},
	broken: []string{"[nodemon] restarting due to changes...", "/srv/nmd/server.js:2", "syntax error here(", "       ^^^^^", "",
		"SyntaxError: Unexpected identifier 'error'", "    at wrapSafe (node:internal/modules/cjs/loader:1464:18)", "Node.js v20.20.2",
		"[nodemon] app crashed - waiting for file changes before starting..."},
	fixed: []string{"[nodemon] restarting due to changes...", "[nodemon] starting `node server.js`", "listening on port 4095"},
	cause: "SyntaxError: Unexpected identifier 'error'", where: "/srv/nmd/server.js:2", port: 4095,
}, {
	preset: "eleventy", // Eleventy 3.1.8 (npm), npm start running eleventy --serve, an edit of index.md
	started: []string{"> site@1.0.0 start", "> eleventy --serve", "[11ty] Writing ./_site/index.html from ./index.md (liquid)",
		"[11ty] Wrote 1 file in 0.24 seconds (v3.1.8)", "[11ty] Watching…", "[11ty] Server at http://localhost:8080/"},
	broken: []string{"[11ty] File changed: ./index.md", "[11ty] Problem writing Eleventy templates:",
		"[11ty] 1. Having trouble rendering liquid template ./index.md (via TemplateContentRenderError)",
		`[11ty] 2. output "{{ title }\n" not closed, file:./index.md, line:1, col:9 (via TokenizationError)`, "[11ty] ",
		`[11ty] Original error stack trace: output "{{ title }\n" not closed, file:./index.md, line:1, col:9`,
		"[11ty] >> 1| # Hello {{ title }", "[11ty]               ^", "[11ty]    2| ",
		`[11ty] TokenizationError: output "{{ title }\n" not closed, file:./index.md, line:1, col:9`,
		"[11ty]     at Tokenizer.error (/srv/site/node_modules/liquidjs/dist/liquid.node.js:2191:16)",
		"[11ty]     at Tokenizer.readOutputToken (/srv/site/node_modules/liquidjs/dist/liquid.node.js:2141:24)",
		"[11ty]     at async Template._render (file:///srv/site/node_modules/@11ty/eleventy/src/TemplateContent.js:639:13)",
		"[11ty] Wrote 0 files in 0.01 seconds (v3.1.8)", "[11ty] Watching…"},
	fixed: []string{"[11ty] File changed: ./index.md", "[11ty] Writing ./_site/index.html from ./index.md (liquid)",
		"[11ty] Wrote 1 file in 0.01 seconds (v3.1.8)", "[11ty] Watching…"},
	cause: `[11ty] TokenizationError: output "{{ title }\n" not closed, file:./index.md, line:1, col:9`, where: "index.md", port: 8080,
}, {
	preset: "wrangler", // Wrangler 4.86 (npm), npm run dev running wrangler dev --port 8788, offline; an edit of src/index.js
	started: []string{"> dev", "> wrangler dev --port 8788", " ⛅️ wrangler 4.86.0 (update available 4.164.0)", "──────────────────────────────────────────────",
		"[wrangler:warn] Unable to fetch the `Request.cf` object! Falling back to a default placeholder...",
		"Error: getaddrinfo ENOTFOUND workers.cloudflare.com", "    at GetAddrInfoReqWrap.onlookupall [as oncomplete] (node:dns:122:26)",
		"⎔ Starting local server...", "[wrangler:warn] Unable to fetch the `Request.cf` object! Falling back to a default placeholder...",
		"Error: getaddrinfo ENOTFOUND workers.cloudflare.com", "[wrangler:info] Ready on http://localhost:8788"},
	broken: []string{"✘ [ERROR] Build failed with 1 error:", "", `  ✘ [ERROR] Expected "}" but found ";"`, "  ", "      src/index.js:1:67:",
		`        1 │ export default { async fetch(req) { return new Response("hello") } ;`,
		"          │                                                                    ^",
		"          ╵                                                                    }", "  ", "  ", "", ""},
	fixed: []string{"⎔ Reloading local server...", "[wrangler:warn] Unable to fetch the `Request.cf` object! Falling back to a default placeholder...",
		"Error: getaddrinfo ENOTFOUND workers.cloudflare.com", "    at GetAddrInfoReqWrap.onlookupall [as oncomplete] (node:dns:122:26)",
		"⎔ Local server updated and ready"},
	cause: `  ✘ [ERROR] Expected "}" but found ";"`, where: "src/index.js:1:67", port: 8788,
}, {
	preset: "docusaurus", // Docusaurus 3 (npm), npm start running docusaurus start --port 3333, an edit of docs/intro.md
	started: []string{"> start", "> docusaurus start --port 3333 --no-open", "[INFO] Starting the development server...",
		"[SUCCESS] Docusaurus website is running at: http://localhost:3333/", "[webpackbar] ℹ Compiling Client",
		"[webpackbar] ✔ Client: Compiled successfully in 9.52s", "client (webpack 5.113.0) compiled successfully"},
	broken: []string{"[webpackbar] ℹ Compiling Client", "[webpackbar] ✔ Client: Compiled with some errors in 419.61ms",
		`Error: MDX compilation failed for file "/srv/site/docs/intro.md"`,
		"Cause: Unexpected end of file after name, expected a character that can start an attribute name, such as a letter, `$`, or `_`; whitespace before attributes; or the end of the tag", "Details:", "{", `  "column": 1,`, `  "file": "",`, "  \"message\": \"Unexpected end of file after name, expected a character that can start an attribute name, such as a letter, `$`, or `_`; whitespace before attributes; or the end of the tag\",",
		`  "line": 7,`, `  "ruleId": "unexpected-eof",`, `  "source": "micromark-extension-mdx-jsx",`, "}",
		"client (webpack 5.113.0) compiled with 1 error"},
	fixed: []string{"[webpackbar] ℹ Compiling Client", "[webpackbar] ✔ Client: Compiled successfully in 251.17ms",
		"client (webpack 5.113.0) compiled successfully"},
	cause: `Error: MDX compilation failed for file "/srv/site/docs/intro.md"`, where: "docs/intro.md", port: 3333,
}}

// TestDevServersRecoverFromAnEdit replays, through each preset, a dev
// server whose own reloader met an edit that broke the app and then one
// that fixed it: unhealthy, quoting the line that explains it and where,
// then ready again without a restart by procs.
func TestDevServersRecoverFromAnEdit(t *testing.T) {
	for _, e := range reloaderEdits {
		t.Run(e.preset, func(t *testing.T) {
			r := newReplay(t, e.preset)
			require.Equal(t, rules.StateReady, r.feed(e.started, e.port).State)

			broken := r.feed(e.broken)
			assert.Equal(t, rules.StateUnhealthy, broken.State, broken.Message)
			assert.Equal(t, e.cause, broken.Line)
			assert.Contains(t, broken.Message, e.where)

			fixed := r.feed(e.fixed)
			assert.Equal(t, rules.StateReady, fixed.State, fixed.Message)
			assert.Equal(t, rules.ReasonRecovered, fixed.Reason)
			if e.fixedToo != nil {
				require.Equal(t, rules.StateUnhealthy, r.feed(e.broken).State)
				fixed = r.feed(e.fixedToo)
				assert.Equal(t, rules.StateReady, fixed.State, fixed.Message)
				assert.Equal(t, rules.ReasonRecovered, fixed.Reason)
			}
		})
	}
}

// An edit that fixes one error and makes another, while the server is
// unhealthy, is news: the verdict quotes the new error and where it is,
// not the one the edit fixed. Lines of Next.js 16.4.6 (Turbopack, npm),
// `next dev`, app/page.js: a syntax error, then a page that reads a
// property of null.
func TestANewErrorAfterAReloadIsNews(t *testing.T) {
	r := newReplay(t, "nextjs")
	require.Equal(t, rules.StateReady, r.feed([]string{"▲ Next.js 16.4.6 (Turbopack)", "- Local:         http://localhost:3091",
		"✓ Ready in 576ms", " GET / 200 in 524ms (next.js: 333ms, application-code: 190ms)"}, 3091).State)
	broken := r.feed([]string{"⨯ ./app/page.js:1:57", "Error: Expression expected",
		"> 1 | export default function Page() { return <h1>hello</h1> +; }", "    |                                                         ^",
		"  2 |", "", "Parsing ecmascript source code failed", "", " GET / 500 in 1590ms (next.js: 1447ms, application-code: 143ms)"})
	require.Equal(t, rules.StateUnhealthy, broken.State, broken.Message)
	assert.Equal(t, "Error: Expression expected", broken.Line)
	assert.Contains(t, broken.Message, "at ./app/page.js:1:57")

	other := r.feed([]string{"✓ Compiled in 15ms", "⨯ TypeError: Cannot read properties of null (reading 'name')",
		"    at Page (app/page.js:1:64)", "> 1 | export default function Page() { const u = null; return <h1>{u.name}</h1>; }",
		"    |                                                                ^", "  2 | {", "  digest: '2893483040'", "}",
		" GET / 500 in 521ms (next.js: 328ms, application-code: 193ms)"})
	assert.Equal(t, rules.StateUnhealthy, other.State, other.Message)
	assert.Equal(t, "⨯ TypeError: Cannot read properties of null (reading 'name')", other.Line)
	assert.Contains(t, other.Message, "at app/page.js:1:64")

	fixed := r.feed([]string{"✓ Compiled in 35ms", " GET / 200 in 55ms (next.js: 4ms, application-code: 51ms)"})
	assert.Equal(t, rules.StateReady, fixed.State, fixed.Message)
}

// Turbopack's error of the whole build, after Next.js 16 said it was
// ready, makes it unhealthy, quoting what the error is. Lines of Next.js
// 16.4.6 (npm) run with its node_modules a symlink to another folder.
func TestTurbopackBuildErrorMakesNextUnhealthy(t *testing.T) {
	r := newReplay(t, "nextjs")
	require.Equal(t, rules.StateReady, r.feed([]string{"▲ Next.js 16.4.6 (Turbopack)", "- Local:         http://localhost:28903",
		"✓ Ready in 556ms"}, 28903).State)
	v := r.feed([]string{"✓ Running next.config took 24ms", "Turbopack build encountered 1 error:", "./app",
		"Error: Could not find the Next.js package (next/package.json)", "Resolved from: /srv/app/app",
		"Filesystem root used for resolution: /srv/app", "", "Possible causes:",
		"  - node_modules is being reorganized by a concurrent install (e.g. pnpm adding a package with a `next` peer dependency). This is transient and should clear once the install completes.",
		"  - node_modules/next was removed, renamed, or has a broken symlink."})
	assert.Equal(t, rules.StateUnhealthy, v.State, v.Message)
	assert.Equal(t, "Error: Could not find the Next.js package (next/package.json)", v.Line)
}

// lineReplay feeds a preset's detector lines as a run prints them.
type lineReplay struct {
	d  *rules.Detector
	at time.Time
}

func newReplay(t *testing.T, preset string) *lineReplay {
	t.Helper()
	p, ok := Lookup(preset)
	require.True(t, ok)
	t0 := time.Now()
	return &lineReplay{d: detectorFor(t, p, 0, t0), at: t0}
}

// feed hands the detector lines 10 ms apart and then, if given, the ports
// its tree listens on (the engine looks on a ready line that names one),
// and returns the verdict once the stability delay and an error's burst
// have ended.
func (r *lineReplay) feed(lines []string, ports ...int) rules.Verdict {
	for _, text := range lines {
		r.at = r.at.Add(10 * time.Millisecond)
		r.d.Handle(rules.Event{Kind: rules.EventLine, Time: r.at, Line: rules.Line{Text: text}})
	}
	if ports != nil {
		r.d.Handle(rules.Event{Kind: rules.EventPorts, Time: r.at, Ports: ports})
	}
	r.at = r.at.Add(time.Second)
	v, _ := r.d.Handle(rules.Event{Kind: rules.EventTimer, Time: r.at})
	return v
}
