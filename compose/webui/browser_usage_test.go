package webui

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// usageCells is the CPU and MEM text of a process's row, "CPU|MEM".
func usageCells(name string) string {
	return `(r => r ? r.querySelector('td.cpu').textContent + '|' + r.querySelector('td.mem').textContent : '')(document.querySelector('tr[data-proc="` + name + `"]'))`
}

// TestBrowserUsage: the table shows what each process uses, as procs
// measures it while the page looks: a busy loop much of a core, a program
// holding 200 MiB at least that, a stopped task "-"; the sparkline of the
// last minutes fills in as measures come, and a replicated process's row
// sums its instances.
func TestBrowserUsage(t *testing.T) {
	tab := browser(t)
	h := startHarness(t, `
procs:
  loop:
    command: sh -c 'echo looping; while :; do :; done'
    readyPatterns: [looping]
  mem:
    command: python3 -c 'import time; b = bytearray(200 * 2**20); b[::4096] = b"\x01" * len(b[::4096]); print("holding", flush=True); time.sleep(600)'
    readyPatterns: [holding]
  setup:
    command: echo done
    kind: task
  worker:
    command: sh -c 'echo up; exec sleep 600'
    readyPatterns: [up]
    replicas: 2
`)
	h.waitReady(t, "loop", "mem", "worker-1", "worker-2")
	require.NoError(t, chromedp.Do(tab, chromedp.Navigate(h.ui.URL())))

	assert.Equal(t, "name|state|run|pid|cpu|mem|cpu · 5 min|ports", evalJS[string](t, tab,
		`Array.from(document.querySelectorAll('#procs th')).slice(0, 8).map(th => th.textContent).join('|')`))
	busy := pollJS[float64](t, tab, "loop's CPU", `(t => t.endsWith('%') && parseFloat(t) > 20 && parseFloat(t))(`+usageCells("loop")+`.split('|')[0])`)
	t.Logf("loop: %.1f%% CPU", busy)
	pollJS[bool](t, tab, "mem's memory", `/^\d+(\.\d)?%\|(2\d\d|[3-9]\d\d)M$/.test(`+usageCells("mem")+`)`)
	pollJS[bool](t, tab, "the stopped task", usageCells("setup")+` === '-|-'`)
	pollJS[bool](t, tab, "worker's row sums its instances",
		`/^\d+\.\d%\|\d/.test(Array.from(document.querySelectorAll('tr.group[data-group="worker"] td.usage')).map(c => c.textContent).join('|'))`)

	// Two measures make a line; procs measures every 2 s while the page asks.
	d := pollJS[string](t, tab, "loop's sparkline", `(p => p && p.getAttribute('d'))(document.querySelector('tr[data-proc="loop"] td.spark svg path'))`)
	assert.Regexp(t, `^M[\d.]+ [\d.]+(L[\d.]+ [\d.]+)+$`, d)
	assert.Contains(t, evalJS[string](t, tab, `document.querySelector('tr[data-proc="loop"] td.spark').title`), "CPU over the last")

	png, err := chromedp.Run(tab, chromedp.FullScreenshot(100))
	require.NoError(t, err)
	keepScreenshot(t, "usage.png", png)
}
