package webui

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/rules"
)

// TestBrowserDrivesJSONAgent: an agent CLI in its JSON mode (the stand-in
// speaking Claude Code's stream-json, cmd/procs/testdata/agentjson_standin.py)
// shows the page an input box but no screen; text typed there reaches the
// agent as a protocol message (it answers "echo: TEXT" only to a
// {"type":"user",...} line), the row goes busy then ready, and says what
// the session has spent (issue 31 items 1 and 3).
func TestBrowserDrivesJSONAgent(t *testing.T) {
	standin, err := filepath.Abs("../../cmd/procs/testdata/agentjson_standin.py")
	require.NoError(t, err)
	tab := browser(t)
	h := startHarness(t, fmt.Sprintf(`
procs:
  agent:
    command: python3 %s claude
    agent: {protocol: claude-stream-json}
`, standin))
	h.waitReady(t, "agent")
	require.NoError(t, chromedp.Do(tab, chromedp.Navigate(h.ui.URL())))
	pollJS[bool](t, tab, "agent ready", stateOf("agent")+` === 'ready'`)
	require.NoError(t, chromedp.Do(tab, chromedp.Click(chromedp.CSS(`tr[data-proc="agent"]`))))
	pollJS[bool](t, tab, "the input box", `!document.getElementById('term').hidden && document.getElementById('screen').hidden`)

	// Record every state the row shows from now on.
	evalJS[bool](t, tab, `(() => {
		window.seenStates = [];
		const cell = document.querySelector('tr[data-proc="agent"] td.state');
		new MutationObserver(() => window.seenStates.push(cell.querySelector('.state').textContent))
			.observe(cell, {childList: true, subtree: true, characterData: true});
		return true; })()`)
	msg := `document.querySelector('tr[data-proc="agent"] td.msg').textContent`
	for i, prompt := range []string{"hello", "and again"} {
		require.NoError(t, chromedp.Do(tab, chromedp.SendKeys(chromedp.ID("send-text"), prompt+"\r")))
		turns := "1 turn"
		if i == 1 {
			turns = "2 turns"
		}
		spent := fmt.Sprintf("$%.2f · %d in / %d out tokens · %s", 0.25*float64(i+1), 100*(i+1), 10*(i+1), turns)
		shown := pollJS[string](t, tab, "the answer to "+prompt+" and the cost", fmt.Sprintf(`(t => t.includes(%q) && t.includes(%q) && t)(%s)`, "echo: "+prompt, spent, msg))
		assert.Equal(t, fmt.Sprintf(`answered: "echo: %s" · %s`, prompt, spent), shown)
	}
	seen := evalJS[[]string](t, tab, `window.seenStates`)
	require.Contains(t, seen, "busy", "states seen: %v", seen)
	assert.Less(t, indexOf(seen, "busy"), lastIndexOf(seen, "ready"), "states seen: %v", seen)
	assert.Empty(t, evalJS[string](t, tab, `document.getElementById('send-msg').textContent`), "nothing refused")

	st, err := h.client.Get(context.Background(), "agent")
	require.NoError(t, err)
	assert.Equal(t, rules.StateReady, st.State)
	require.NotNil(t, st.Agent)
	assert.Equal(t, "echo: and again", st.Agent.Answer)
	assert.Equal(t, 2, st.Agent.Total.Turns)
}
