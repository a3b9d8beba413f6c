package webui

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBrowserShowsTheSchedule: a scheduled task's row says when it runs
// next, and its detail line its schedule and how its last run ended.
func TestBrowserShowsTheSchedule(t *testing.T) {
	tab := browser(t)
	h := startHarness(t, `
procs:
  api:
    command: sh -c 'echo ready; exec sleep 600'
    readyPatterns: [ready]
  backup:
    kind: task
    command: echo backed up
    schedule: {every: 1h, runOnStart: true}
`)
	h.waitReady(t, "api", "backup")
	require.NoError(t, chromedp.Do(tab, chromedp.Navigate(h.ui.URL())))
	msg := pollJS[string](t, tab, "backup's next run", `(t => t.includes('next run') && t)((document.querySelector('tr[data-proc="backup"] td.msg') || {}).textContent || '')`)
	assert.Regexp(t, `^next run in (59|60)m \(.+\) · exit code 0$`, msg)
	require.NoError(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS(`tr[data-proc="backup"]`))))
	line := pollJS[string](t, tab, "backup's schedule line", `(e => !e.hidden && e.textContent)(document.getElementById('d-schedule'))`)
	assert.Regexp(t, `^every 1h · last: completed \(exit 0\) at .+$`, line)
	assert.True(t, evalJS[bool](t, tab, `document.querySelector('tr[data-proc="api"] td.msg').textContent.indexOf('next run') < 0`), "a service has no next run")
}
