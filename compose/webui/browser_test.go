package webui

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/internal/testenv"
)

// browser starts a headless Chromium for one test and returns its tab. A
// machine without chromium skips the test (testenv), unless PROCS_REQUIRE_E2E=1.
func browser(t testing.TB) context.Context {
	t.Helper()
	path := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			path = p
			break
		}
	}
	if path == "" {
		testenv.Missing(t, "chromium is not installed (.ci/run installs it)")
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
		// Chromium makes a folder for its singleton socket in TMPDIR and
		// leaves it when it is killed, as the end of a test does: in the
		// test's own folder it goes with the test.
		chromedp.Env("TMPDIR=" + t.TempDir()),
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	tab, cancelTab := chromedp.NewContext(allocCtx)
	t.Cleanup(func() { cancelTab(); cancelAlloc() })
	require.NoError(t, chromedp.Do(tab), "start chromium")
	return tab
}

// pollJS waits (generously) until the expression is truthy and returns it.
func pollJS[T any](t testing.TB, tab context.Context, what, expr string) T {
	t.Helper()
	v, err := chromedp.Run(tab, chromedp.Poll[T](expr, chromedp.WithPollingTimeout(testDeadline), chromedp.WithPollingInterval(20*time.Millisecond)))
	require.NoError(t, err, "waiting for %s: %s", what, expr)
	return v
}

// evalJS evaluates an expression (awaiting a promise) and returns its value.
func evalJS[T any](t testing.TB, tab context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(tab, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	require.NoError(t, err, "evaluate %s", expr)
	return v
}

// stateOf is the expression of a row's state text.
func stateOf(name string) string {
	return fmt.Sprintf(`(document.querySelector('tr[data-proc=%q] td.state .state') || {}).textContent`, name)
}

const stack = `
procs:
  db:
    command: sh -c 'echo "db ready"; printf "\033[32mgreen\033[0m \033[1;31mbold red\033[0m\n"; exec sleep 600'
    readyPatterns: ['db ready']
  web:
    command: python3 -m http.server 0 --bind 127.0.0.1
    dependsOn: [db]
  echo:
    command: sh -c 'echo listening; while read line; do echo "got $line"; done'
    readyPatterns: ['listening']
  repl:
    command: python3 -i -q
    pty: true
  prompt:
    command: sh -c 'printf "\033[1;32muser@host\033[0m:\033[34m~\033[0m$ "; exec sleep 600'
    pty: true
`

func TestBrowserDashboard(t *testing.T) {
	tab := browser(t)
	h := startHarness(t, stack)
	h.waitReady(t, "db", "web", "echo", "repl", "prompt")
	require.NoError(t, chromedp.Do(tab, chromedp.Navigate(h.ui.URL())))

	t.Run("the states shown are procs status's", func(t *testing.T) {
		list, err := h.client.List(context.Background())
		require.NoError(t, err)
		for _, p := range list {
			shown := pollJS[string](t, tab, p.Name+" row", stateOf(p.Name))
			assert.Equal(t, string(p.State), shown, p.Name)
		}
		assert.Equal(t, "/", evalJS[string](t, tab, `location.pathname + location.search`), "the token left the address bar")
	})

	t.Run("ANSI colours are drawn", func(t *testing.T) {
		require.NoError(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS(`tr[data-proc="db"]`))))
		cls := pollJS[string](t, tab, "a red bold span", `Array.from(document.querySelectorAll('#logs .line span')).filter(s => s.textContent === 'bold red').map(s => s.className).join()`)
		assert.Equal(t, "fg-c1 b", cls)
	})

	t.Run("restart: the run goes up, starting then ready", func(t *testing.T) {
		before, err := h.client.Get(context.Background(), "web")
		require.NoError(t, err)
		require.NoError(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS(`tr[data-proc="web"]`))))
		pollJS[bool](t, tab, "web selected", `document.getElementById('d-name').textContent === 'web'`)
		// Record every state the row shows from now on.
		evalJS[bool](t, tab, `(() => {
			window.seenStates = [];
			const cell = document.querySelector('tr[data-proc="web"] td.state');
			new MutationObserver(() => window.seenStates.push(cell.querySelector('.state').textContent))
				.observe(cell, {childList: true, subtree: true, characterData: true});
			return true; })()`)
		require.NoError(t, chromedp.Do(tab, chromedp.Click(chromedp.ID("b-restart"))))
		run := fmt.Sprint(before.Run + 1)
		pollJS[bool](t, tab, "run "+run+" ready", fmt.Sprintf(`document.querySelector('tr[data-proc="web"] td.run').textContent === %q && %s === 'ready'`, run, stateOf("web")))
		seen := evalJS[[]string](t, tab, `window.seenStates`)
		require.Contains(t, seen, "starting")
		assert.Less(t, indexOf(seen, "starting"), lastIndexOf(seen, "ready"), "states seen: %v", seen)
		result := pollJS[string](t, tab, "the restart's result", `(t => t.startsWith('restart: ') && t)(document.getElementById('d-result').textContent)`)
		assert.Contains(t, result, "✓ ready (run "+run+")")

		// The ready event and the restart's answer come on two connections,
		// in either order. One that comes after the answer must not cover
		// it with the state's untimed "last result".
		after := evalJS[string](t, tab, fmt.Sprintf(`(async () => {
			onEvent({type: 'state', proc: 'web', to: 'ready', run: %s, time: new Date().toISOString()});
			await loadResult();
			return document.getElementById('d-result').textContent; })()`, run))
		assert.Equal(t, result, after, "the restart's answer after a late ready event")
	})

	t.Run("a new log line shows within 200 ms", func(t *testing.T) {
		require.NoError(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS(`tr[data-proc="echo"]`))))
		pollJS[bool](t, tab, "echo's logs", `Array.from(document.querySelectorAll('#logs .line')).some(l => l.textContent === 'listening')`)
		evalJS[bool](t, tab, `(() => {
			window.lineDelay = new Promise(resolve => {
				const logs = document.getElementById('logs');
				const obs = new MutationObserver(() => {
					for (const l of logs.querySelectorAll('.line')) {
						if (l.textContent !== 'got ping-42') continue;
						obs.disconnect();
						resolve(Date.now() - Date.parse(l.title.split(' · ')[1]));
					}
				});
				obs.observe(logs, {childList: true});
			});
			return true; })()`)
		require.NoError(t, h.client.Input(context.Background(), "echo", "ping-42", true))
		delay := evalJS[float64](t, tab, `window.lineDelay`)
		t.Logf("line printed → shown: %.0f ms", delay)
		assert.Less(t, delay, 200.0)
	})

	t.Run("1+1 Enter in a python3 -i terminal shows 2", func(t *testing.T) {
		require.NoError(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS(`tr[data-proc="repl"]`))))
		pollJS[bool](t, tab, "the repl's screen", `document.getElementById('screen').textContent.includes('>>>')`)
		require.NoError(t, chromedp.Do(tab, chromedp.SendKeys(chromedp.ID("send-text"), "1+1\r")))
		pollJS[bool](t, tab, "2 on the screen", `document.getElementById('screen').textContent.split('\n').some(l => l.trim() === '2')`)
		screen, err := h.client.Screen(context.Background(), "repl")
		require.NoError(t, err)
		assert.Contains(t, screen.Text, ">>> 1+1\n2")
	})

	t.Run("a coloured prompt is drawn in its colours, with the cursor after it", func(t *testing.T) {
		require.NoError(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS(`tr[data-proc="prompt"]`))))
		cls := pollJS[string](t, tab, "the prompt's green span", `Array.from(document.querySelectorAll('#screen span')).filter(s => s.textContent === 'user@host').map(s => s.className).join()`)
		assert.Equal(t, "fg-c10 b", cls, "bold green, which the terminal shows bright")
		assert.Equal(t, "fg-c4", evalJS[string](t, tab, `Array.from(document.querySelectorAll('#screen span')).filter(s => s.textContent === '~').map(s => s.className).join()`))
		assert.Equal(t, "user@host:~$  ", evalJS[string](t, tab, `document.getElementById('screen').textContent`), "the cursor cell after the prompt")
		assert.Equal(t, 1, evalJS[int](t, tab, `document.querySelectorAll('#screen .cursor').length`))
	})

	t.Run("keys: j/k move, / searches, t switches the theme", func(t *testing.T) {
		key := func(k string) string {
			return fmt.Sprintf(`document.activeElement.blur(); document.dispatchEvent(new KeyboardEvent('keydown', {key: %q})); true`, k)
		}
		selected := `document.getElementById('d-name').textContent`
		before := evalJS[string](t, tab, selected)
		evalJS[bool](t, tab, key("k"))
		after := evalJS[string](t, tab, selected)
		assert.NotEqual(t, before, after, "k selects the process above")
		evalJS[bool](t, tab, key("j"))
		assert.Equal(t, before, evalJS[string](t, tab, selected), "j comes back")
		evalJS[bool](t, tab, key("/"))
		assert.Equal(t, "log-search", evalJS[string](t, tab, `document.activeElement.id`))
		theme := evalJS[string](t, tab, `document.documentElement.dataset.theme || ''`)
		evalJS[bool](t, tab, key("t"))
		assert.NotEqual(t, theme, evalJS[string](t, tab, `document.documentElement.dataset.theme`))
		evalJS[bool](t, tab, key("t"))
	})

	t.Run("screenshot", func(t *testing.T) {
		png, err := chromedp.Run(tab, chromedp.FullScreenshot(100))
		require.NoError(t, err)
		file := filepath.Join(t.TempDir(), "dashboard.png")
		require.NoError(t, os.WriteFile(file, png, 0o644))
		info, err := os.Stat(file)
		require.NoError(t, err)
		assert.Greater(t, info.Size(), int64(10_000))
		keepScreenshot(t, "dashboard.png", png)
	})
}

// keepScreenshot copies a screenshot to $PROCS_UI_SCREENSHOTS, if set, to
// be looked at after the test.
func keepScreenshot(t *testing.T, name string, png []byte) {
	if dir := os.Getenv("PROCS_UI_SCREENSHOTS"); dir != "" {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), png, 0o644))
	}
}

func indexOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}

func lastIndexOf(list []string, s string) int {
	for i := len(list) - 1; i >= 0; i-- {
		if list[i] == s {
			return i
		}
	}
	return -1
}

// A page open when procs restarts says so, and how to open it
// again, rather than retrying for ever a sign-in the new procs refuses.
func TestBrowserSaysProcsRestarted(t *testing.T) {
	tab := browser(t)
	dir := t.TempDir()
	const one = `
procs:
  db:
    command: sh -c 'echo "db ready"; exec sleep 600'
    readyPatterns: ['db ready']
`
	first := startHarnessIn(t, dir, one)
	first.waitReady(t, "db")
	require.NoError(t, chromedp.Do(tab, chromedp.Navigate(first.ui.URL())))
	pollJS[string](t, tab, "db row", stateOf("db"))
	first.stop()
	pollJS[bool](t, tab, "reconnecting", `document.getElementById('conn').textContent.includes('reconnecting')`)

	second := startHarnessIn(t, dir, one)
	second.waitReady(t, "db")
	banner := pollJS[string](t, tab, "the restarted banner", `(b => !b.hidden && b.textContent)(document.getElementById('restarted'))`)
	assert.Contains(t, banner, "procs ui")
	assert.Equal(t, "procs restarted: reopen with procs ui", evalJS[string](t, tab, `document.getElementById('conn').textContent`))
	png, err := chromedp.Run(tab, chromedp.FullScreenshot(100))
	require.NoError(t, err)
	keepScreenshot(t, "restarted.png", png)

	require.NoError(t, chromedp.Do(tab, chromedp.Navigate(second.ui.URL())))
	pollJS[bool](t, tab, "the new link signs in", `document.getElementById('restarted').hidden && document.getElementById('conn').textContent === 'live'`)
}
