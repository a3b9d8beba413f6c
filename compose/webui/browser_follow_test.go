package webui

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBrowserLogFollowsThroughItsOwnScrolls: the log view stops following
// the tail when the reader scrolls up, not when its own scroll to the tail
// reports after more lines made the log taller (a flood on a loaded
// machine: the view then stopped at a line of the flood and never showed
// its end).
func TestBrowserLogFollowsThroughItsOwnScrolls(t *testing.T) {
	tab := browser(t)
	h := startHarness(t, `
procs:
  talk:
    command: sh -c 'seq 1 300; echo ready; exec sleep 600'
    readyPatterns: ['^ready$']
`)
	h.waitReady(t, "talk")
	require.NoError(t, chromedp.Do(tab, chromedp.Navigate(h.ui.URL())))
	require.NoError(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS(`tr[data-proc="talk"]`))))
	pollJS[bool](t, tab, "the log's tail", `Array.from(document.querySelectorAll('#logs .line')).some(l => l.textContent === 'ready')`)
	require.True(t, evalJS[bool](t, tab, `ui.following`))

	grewThenReported := evalJS[bool](t, tab, `(() => {
		const logs = document.getElementById('logs');
		for (let i = 0; i < 50; i++) {
			const line = document.createElement('div');
			line.className = 'line';
			line.textContent = 'late ' + i;
			logs.appendChild(line);
		}
		onLogScroll(); // the scroll event of the page's last scroll to the tail
		return ui.following; })()`)
	assert.True(t, grewThenReported, "the page's own scroll, reported late, stopped the following")

	readerScrolledUp := evalJS[bool](t, tab, `(() => {
		const logs = document.getElementById('logs');
		logs.scrollTop = 0;
		onLogScroll();
		return ui.following; })()`)
	assert.False(t, readerScrolledUp, "a scroll up by the reader must stop the following")
}
