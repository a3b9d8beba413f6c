package webui

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose/control"
)

// consecutivePorts finds n free loopback ports in a row, for the instances
// of a replicated process (port+i-1).
func consecutivePorts(t *testing.T, n int) int {
	t.Helper()
	for range 50 {
		first, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		base := first.Addr().(*net.TCPAddr).Port
		held := []net.Listener{first}
		for i := 1; i < n; i++ {
			l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(base+i))
			if err != nil {
				break
			}
			held = append(held, l)
		}
		for _, l := range held {
			l.Close()
		}
		if len(held) == n {
			return base
		}
	}
	t.Fatalf("no %d free ports in a row", n)
	return 0
}

// rowsShown lists the table's rows in order: a process by its name, a
// group row as "group NAME".
const rowsShown = `Array.from(document.querySelectorAll('#procs tbody tr'))
	.map(r => r.dataset.group ? 'group ' + r.dataset.group : r.dataset.proc).join()`

// groupCells is the text of each cell of worker's group row, but the
// usage cells (what its instances use varies: browser_usage_test.go).
const groupCells = `Array.from((document.querySelector('tr.group[data-group="worker"]') || {cells: []}).cells)
	.filter(c => !c.classList.contains('usage')).map(c => c.textContent).join('|')`

func TestBrowserGroupsReplicas(t *testing.T) {
	tab := browser(t)
	port := consecutivePorts(t, 4)
	h := startHarness(t, fmt.Sprintf(`
procs:
  db:
    command: sh -c 'echo "db ready"; exec sleep 600'
    readyPatterns: ['db ready']
  worker:
    command: exec python3 -m http.server $PORT --bind 127.0.0.1
    port: %d
    replicas: 3
  api:
    command: sh -c 'echo "api up"; exec sleep 600'
    readyPatterns: ['api up']
    dependsOn: [worker]
`, port))
	h.waitReady(t, "db", "worker-1", "worker-2", "worker-3", "api")
	require.NoError(t, chromedp.Do(tab, chromedp.Navigate(h.ui.URL())))
	ports := fmt.Sprintf("%d-%d", port, port+2)

	// The subtests below click the group row, which chromedp would wait
	// for to the end of the test's time: without it they cannot run.
	require.True(t, t.Run("a group row above the instances, indented as a tree", func(t *testing.T) {
		want := "worker|ready|||" + ports + "||0|3 replicas"
		pollJS[bool](t, tab, "worker's group row", groupCells+` === `+strconv.Quote(want))
		assert.Equal(t, "db,group worker,worker-1,worker-2,worker-3,api", evalJS[string](t, tab, rowsShown))
		before := func(name string) string {
			return evalJS[string](t, tab, fmt.Sprintf(`getComputedStyle(document.querySelector('tr[data-proc=%q] td.name'), '::before').content`, name))
		}
		assert.Equal(t, `"├ "`, before("worker-1"))
		assert.Equal(t, `"├ "`, before("worker-2"))
		assert.Equal(t, `"└ "`, before("worker-3"))
		assert.Equal(t, "none", before("db"))
		assert.Equal(t, "worker-1", evalJS[string](t, tab, `document.querySelector('tr[data-proc="worker-1"] td.name').textContent`),
			"the tree is drawn, not written in the name")
	}))

	t.Run("the group row follows its instances' states, touching only what changes", func(t *testing.T) {
		evalJS[bool](t, tab, `(() => {
			window.groupMutated = new Set();
			const row = document.querySelector('tr.group[data-group="worker"]');
			// What the instances use changes as they stop: the usage cells are left out.
			new MutationObserver((ms) => { for (const m of ms) { const td = m.target.closest('td') || {className: ''}; if (!/usage/.test(td.className)) window.groupMutated.add(td.className); } })
				.observe(row, {childList: true, subtree: true, characterData: true});
			return true; })()`)
		_, err := h.client.Stop(context.Background(), "worker-2", control.ActionOptions{})
		require.NoError(t, err)
		pollJS[bool](t, tab, "2 ready, 1 stopped", `document.querySelector('tr.group[data-group="worker"] td.state').textContent === '2 ready, 1 stopped'`)
		assert.Equal(t, "s-ready,s-stopped", evalJS[string](t, tab,
			`Array.from(document.querySelectorAll('tr.group[data-group="worker"] td.state .state')).map(s => s.classList[1]).join()`), "each state in its colour")
		// The list, asked for after the event, has no pid for it any more:
		// every row has been drawn again from it.
		pollJS[bool](t, tab, "the list refreshed", `!window.procsUI.procs.get('worker-2').pid`)
		// A stopped instance listens on no port: the group's ports are
		// those of the two still running.
		pollJS[bool](t, tab, "the stopped instance's port gone", groupCells+` === `+strconv.Quote(
			fmt.Sprintf("worker|2 ready, 1 stopped|||%d, %d||0|3 replicas", port, port+2)))
		mutated := evalJS[[]string](t, tab, `[...window.groupMutated].sort()`)
		assert.Equal(t, []string{"ports", "state"}, mutated, "the cells whose text is the same were left alone")
	})

	t.Run("a click on the group row selects its first instance; keys move over instances", func(t *testing.T) {
		require.NoError(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS(`tr.group[data-group="worker"]`))))
		selected := `document.getElementById('d-name').textContent`
		pollJS[bool](t, tab, "worker-1 selected", selected+` === 'worker-1'`)
		assert.Equal(t, 0, evalJS[int](t, tab, `document.querySelectorAll('tr.group.selected').length`))
		key := func(k string) {
			evalJS[bool](t, tab, fmt.Sprintf(`document.activeElement.blur(); document.dispatchEvent(new KeyboardEvent('keydown', {key: %q})); true`, k))
		}
		key("k")
		assert.Equal(t, "db", evalJS[string](t, tab, selected), "k passes over the group row")
		key("j")
		assert.Equal(t, "worker-1", evalJS[string](t, tab, selected))
		key("j")
		assert.Equal(t, "worker-2", evalJS[string](t, tab, selected))
	})

	t.Run("procs scale adds and removes instances under the group row", func(t *testing.T) {
		_, err := h.client.Scale(context.Background(), control.ScaleRequest{Scale: map[string]int{"worker": 4}, Wait: true})
		require.NoError(t, err)
		pollJS[bool](t, tab, "worker-4 under worker", rowsShown+` === 'db,group worker,worker-1,worker-2,worker-3,worker-4,api'`)
		pollJS[bool](t, tab, "4 replicas", `document.querySelector('tr.group[data-group="worker"] td.msg').textContent === '4 replicas'`)
		assert.Equal(t, "worker-4", evalJS[string](t, tab, `Array.from(document.querySelectorAll('tr.instance.last')).map(r => r.dataset.proc).join()`),
			"the new last instance ends the tree")

		_, err = h.client.Scale(context.Background(), control.ScaleRequest{Scale: map[string]int{"worker": 1}, Wait: true})
		require.NoError(t, err)
		pollJS[bool](t, tab, "worker-1 alone under worker", rowsShown+` === 'db,group worker,worker-1,api'`)
		pollJS[bool](t, tab, "1 replica", `document.querySelector('tr.group[data-group="worker"] td.msg').textContent === '1 replica'`)
		assert.Equal(t, "worker-1", evalJS[string](t, tab, `Array.from(document.querySelectorAll('tr.instance.last')).map(r => r.dataset.proc).join()`))
	})
}
