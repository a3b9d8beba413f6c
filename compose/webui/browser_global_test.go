package webui

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose/control"
	"github.com/procsdev/procs/rules"
)

// globalStack has two chatty services and one that failed (no ready line
// in time) while its process still runs.
const globalStack = `
procs:
  api:
    command: sh -c 'echo "api up"; i=0; while true; do i=$((i+1)); echo "api tick $i"; sleep 0.2; done'
    readyPatterns: ['api up']
  web:
    command: sh -c 'echo "web up"; i=0; while true; do i=$((i+1)); echo "web tick $i"; sleep 0.2; done'
    readyPatterns: ['web up']
  bad:
    command: sh -c 'echo "bad waits"; exec sleep 600'
    readyPatterns: ['never printed']
    readyTimeout: 300ms
`

func TestBrowserActsOnEveryProcess(t *testing.T) {
	tab := browser(t)
	h := startHarness(t, globalStack)
	h.waitReady(t, "api", "web")
	waitState(t, h, "bad", rules.StateFailed)
	require.NoError(t, chromedp.Do(tab, chromedp.Navigate(h.ui.URL())))
	pollJS[string](t, tab, "web row", stateOf("web"))

	t.Run("the page has an embedded favicon", func(t *testing.T) {
		assert.Equal(t, "/favicon.ico", evalJS[string](t, tab, `document.querySelector('link[rel=icon]').getAttribute('href')`))
		icon := evalJS[string](t, tab, `fetch('/favicon.ico').then(r => r.headers.get('Content-Type') + ' ' + r.status)`)
		assert.Equal(t, "image/svg+xml 200", icon)
		assert.True(t, evalJS[bool](t, tab, `fetch('/favicon.ico').then(r => r.text()).then(t => t.startsWith('<svg'))`))
	})

	t.Run("a failed process whose pid runs shows its uptime", func(t *testing.T) {
		shown := pollJS[string](t, tab, "bad's uptime", `document.querySelector('tr[data-proc="bad"] td.uptime').textContent`)
		assert.Regexp(t, `^\d+s$`, shown)
		assert.Equal(t, "failed", evalJS[string](t, tab, stateOf("bad")))
	})

	t.Run("no start button on a running process, one on a stopped one", func(t *testing.T) {
		require.NoError(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS(`tr[data-proc="web"]`))))
		pollJS[bool](t, tab, "web selected", `document.getElementById('d-name').textContent === 'web'`)
		assert.True(t, evalJS[bool](t, tab, `document.getElementById('b-start').hidden`), "web is ready")
		assert.False(t, evalJS[bool](t, tab, `document.getElementById('b-stop').hidden`))
		_, err := h.client.Stop(context.Background(), "web", control.ActionOptions{})
		require.NoError(t, err)
		pollJS[bool](t, tab, "a start button for the stopped web", `!document.getElementById('b-start').hidden`)
		_, err = h.client.Start(context.Background(), "web", control.ActionOptions{})
		require.NoError(t, err)
		pollJS[bool](t, tab, "no start button once web runs again", `document.getElementById('b-start').hidden`)
	})

	t.Run("all logs: every process's lines, prefixed by name", func(t *testing.T) {
		require.NoError(t, chromedp.Do(tab, chromedp.Click(chromedp.ID("b-all-logs"))))
		pollJS[bool](t, tab, "the all view", `document.getElementById('d-name').textContent === 'all processes'`)
		lines := `Array.from(document.querySelectorAll('#logs .line')).map(l => l.textContent)`
		pollJS[bool](t, tab, "lines of api, web and bad", fmt.Sprintf(`(ls => ls.some(l => l.startsWith('api | api tick')) && ls.some(l => l.startsWith('web | web tick')) && ls.includes('bad | bad waits'))(%s)`, lines))
		assert.True(t, evalJS[bool](t, tab, `document.getElementById('b-restart').hidden`), "no process's buttons in the all view")
		assert.Equal(t, "", evalJS[string](t, tab, `Array.from(document.querySelectorAll('tbody tr.selected')).map(r => r.dataset.proc).join()`))
		// Interleaved: api's and web's ticks alternate rather than come in two
		// blocks. The tail arrives in batches, so wait for the lines rather
		// than judge the first batch: two blocks would never alternate.
		ticks := fmt.Sprintf(`%s.filter(l => l.includes(' tick ')).map(l => l.split(' | ')[0])`, lines)
		pollJS[bool](t, tab, "api's and web's ticks alternating", fmt.Sprintf(`(ps => ps.filter((p, i) => i > 0 && p !== ps[i-1]).length > 2)(%s)`, ticks))
		procs := evalJS[[]string](t, tab, ticks)
		assert.Greater(t, switches(procs), 2, "the lines of api and web are interleaved: %v", procs)
		require.NoError(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS(`tr[data-proc="api"]`))))
		pollJS[bool](t, tab, "api's own log again", `document.getElementById('d-name').textContent === 'api' && Array.from(document.querySelectorAll('#logs .line')).some(l => l.textContent.startsWith('api tick'))`)
		assert.False(t, evalJS[bool](t, tab, `Array.from(document.querySelectorAll('#logs .line')).some(l => l.textContent.includes(' | '))`))
	})

	t.Run("restart all restarts every process", func(t *testing.T) {
		before, err := h.client.Get(context.Background(), "api")
		require.NoError(t, err)
		require.NoError(t, chromedp.Do(tab, chromedp.Click(chromedp.ID("b-restart-all"))))
		result := pollJS[string](t, tab, "the restart's answer", `(t => t.startsWith('restart all: ✗') || t.startsWith('restart all: ✓') ? t : '')(document.getElementById('g-result').textContent)`)
		assert.Contains(t, result, "bad failed", "bad fails again: no ready line")
		after, err := h.client.Get(context.Background(), "api")
		require.NoError(t, err)
		assert.Equal(t, before.Run+1, after.Run)
	})

	t.Run("down asks first, and stops everything when confirmed", func(t *testing.T) {
		evalJS[bool](t, tab, `(() => { window.asked = []; window.confirm = (q) => { window.asked.push(q); return false; }; return true; })()`)
		require.NoError(t, chromedp.Do(tab, chromedp.Click(chromedp.ID("b-down"))))
		assert.Equal(t, []string{"Stop every process and end procs?"}, evalJS[[]string](t, tab, `window.asked`))
		st, err := h.client.Get(context.Background(), "api")
		require.NoError(t, err)
		assert.Equal(t, rules.StateReady, st.State, "a refused confirm stops nothing")

		evalJS[bool](t, tab, `(() => { window.confirm = () => true; return true; })()`)
		require.NoError(t, chromedp.Do(tab, chromedp.Click(chromedp.ID("b-down"))))
		pollJS[bool](t, tab, "down's answer", `document.getElementById('g-result').textContent.startsWith('down: procs is stopping')`)
		require.Eventually(t, func() bool {
			list, err := h.client.List(context.Background())
			if err != nil {
				return true // procs ended
			}
			for _, p := range list {
				if p.State != rules.StateStopped {
					return false
				}
			}
			return true
		}, testDeadline, 20*time.Millisecond, "every process stopped")
	})
}

// switches counts the changes of process along the lines.
func switches(procs []string) int {
	n := 0
	for i := 1; i < len(procs); i++ {
		if procs[i] != procs[i-1] {
			n++
		}
	}
	return n
}

// waitState waits until name is in state.
func waitState(t *testing.T, h *harness, name string, state rules.State) {
	t.Helper()
	require.Eventually(t, func() bool {
		st, err := h.client.Get(context.Background(), name)
		return err == nil && st.State == state
	}, testDeadline, 20*time.Millisecond, "%s %s", name, state)
}
