package webui

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose/wire"
)

const twoProcs = `
procs:
  db:
    command: sh -c 'echo "db ready"; printf "\033[31mred\033[0m plain\n"; echo oops >&2; exec sleep 600'
    readyPatterns: ['db ready']
  web:
    command: sh -c 'echo web up; exec sleep 600'
    readyPatterns: ['web up']
    dependsOn: [db]
`

func noRedirect(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

func TestRefusals(t *testing.T) {
	h := startHarness(t, twoProcs)
	h.waitReady(t, "db", "web")
	in := h.signedIn(t)
	anon := &http.Client{CheckRedirect: noRedirect}
	origin := map[string]string{"Origin": h.base}
	tests := []struct {
		name   string
		client *http.Client
		method string
		path   string
		header map[string]string
		want   int
	}{
		{"no token", anon, "GET", "/v1/procs", nil, http.StatusUnauthorized},
		{"no token for the page", anon, "GET", "/", nil, http.StatusUnauthorized},
		{"wrong token in the link", anon, "GET", "/?token=" + strings.Repeat("0", 64), nil, http.StatusUnauthorized},
		{"wrong cookie", anon, "GET", "/v1/procs", map[string]string{"Cookie": "procs_ui_1=" + h.token(t)}, http.StatusUnauthorized},
		{"DNS rebinding: foreign Host", in, "GET", "/v1/procs", map[string]string{"Host": "evil.example:80"}, http.StatusMisdirectedRequest},
		{"foreign Host even with the token", anon, "GET", "/?token=" + h.token(t), map[string]string{"Host": "evil.example"}, http.StatusMisdirectedRequest},
		{"POST without Origin", in, "POST", "/v1/procs/db/restart?wait=false", nil, http.StatusForbidden},
		{"POST from another origin", in, "POST", "/v1/procs/db/restart?wait=false", map[string]string{"Origin": "http://evil.example"}, http.StatusForbidden},
		{"POST from another port", in, "POST", "/v1/procs/db/restart?wait=false", map[string]string{"Origin": "http://127.0.0.1:1"}, http.StatusForbidden},
		{"down without Origin", in, "POST", "/v1/down", nil, http.StatusForbidden},
		{"restart all from another origin", in, "POST", "/v1/restart", map[string]string{"Origin": "http://evil.example"}, http.StatusForbidden},
		{"reload is not offered", in, "POST", "/v1/reload", origin, http.StatusNotFound},
		{"the favicon", in, "GET", "/favicon.ico", nil, http.StatusOK},
		{"signed in GET", in, "GET", "/v1/procs", nil, http.StatusOK},
		{"signed in as localhost", anon, "GET", "/v1/procs", map[string]string{"Host": "localhost", "Cookie": h.cookie(t)}, http.StatusOK},
		{"signed in as [::1]", anon, "GET", "/v1/procs", map[string]string{"Host": "[::1]", "Cookie": h.cookie(t)}, http.StatusOK},
		{"the token in the link", anon, "GET", "/?token=" + h.token(t), nil, http.StatusSeeOther},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := h.do(t, tt.client, tt.method, tt.path, tt.header)
			defer resp.Body.Close()
			assert.Equal(t, tt.want, resp.StatusCode)
		})
	}
	t.Run("the link sets an HttpOnly SameSite=Strict cookie and leaves the token out of the address", func(t *testing.T) {
		resp := h.do(t, anon, "GET", "/?token="+h.token(t), nil)
		resp.Body.Close()
		require.Equal(t, http.StatusSeeOther, resp.StatusCode)
		assert.Equal(t, "/", resp.Header.Get("Location"))
		cookies := resp.Cookies()
		require.Len(t, cookies, 1)
		assert.True(t, cookies[0].HttpOnly)
		assert.Equal(t, http.SameSiteStrictMode, cookies[0].SameSite)
		assert.Equal(t, h.token(t), cookies[0].Value)
	})
	t.Run("a POST from the page is let through", func(t *testing.T) {
		resp := h.do(t, in, "POST", "/v1/procs/db/restart?wait=false", origin)
		defer resp.Body.Close()
		assert.Equal(t, http.StatusAccepted, resp.StatusCode)
	})
}

func TestPageJSON(t *testing.T) {
	h := startHarness(t, twoProcs)
	h.waitReady(t, "db", "web")
	in := h.signedIn(t)

	resp := h.do(t, in, "GET", "/", nil)
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Contains(t, string(page), `<script src="/static/app.js"`)
	assert.Contains(t, resp.Header.Get("Content-Security-Policy"), "default-src 'self'")

	resp = h.do(t, in, "GET", "/v1/procs", nil)
	var list []wire.ProcStatus
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&list))
	resp.Body.Close()
	require.Len(t, list, 2)
	assert.Equal(t, "db", list[0].Name)
	assert.Equal(t, []string{"db"}, list[1].DependsOn)

	resp = h.do(t, in, "GET", "/ui/logs?proc=db&tail=10", nil)
	defer resp.Body.Close()
	assert.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
	lines := readLogEvents(t, resp.Body, 3)
	byText := map[string]LogLine{}
	for _, l := range lines {
		var text strings.Builder
		for _, s := range l.Spans {
			text.WriteString(s.Text)
		}
		byText[text.String()] = l
	}
	require.Contains(t, byText, "red plain")
	assert.Equal(t, []Span{{Text: "red", Fg: "c1"}, {Text: " plain"}}, byText["red plain"].Spans)
	require.Contains(t, byText, "oops")
	assert.Equal(t, "stderr", byText["oops"].Stream)

	resp2 := h.do(t, in, "GET", "/ui/logs?proc=nosuch", nil)
	resp2.Body.Close()
	assert.Equal(t, http.StatusNotFound, resp2.StatusCode)
}

// readLogEvents reads the log stream until it has n lines.
func readLogEvents(t *testing.T, body io.Reader, n int) []LogLine {
	t.Helper()
	var out []LogLine
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	sawReset := false
	for len(out) < n && sc.Scan() {
		line := sc.Text()
		if line == "event: reset" {
			sawReset = true
		}
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok || data == "{}" {
			continue
		}
		var batch []LogLine
		require.NoError(t, json.Unmarshal([]byte(data), &batch))
		out = append(out, batch...)
	}
	require.True(t, sawReset, "the stream starts with a reset")
	require.GreaterOrEqual(t, len(out), n)
	return out
}

// The token is new with every run of procs. A page signed in to
// the run before is told that procs restarted, on the same port, instead
// of being let in or failing silently.
func TestTokenIsNewWithEveryRun(t *testing.T) {
	dir := t.TempDir()
	first := startHarnessIn(t, dir, twoProcs)
	first.waitReady(t, "db", "web")
	oldToken, oldCookie, oldAddr := first.token(t), first.cookie(t), first.ui.Addr()
	first.stop()

	second := startHarnessIn(t, dir, twoProcs)
	second.waitReady(t, "db", "web")
	assert.NotEqual(t, oldToken, second.token(t), "a new token for the new run")
	require.Equal(t, oldAddr, second.ui.Addr(), "the port of the last run, so that an open page finds the new procs")

	anon := &http.Client{CheckRedirect: noRedirect}
	resp := second.do(t, anon, "GET", "/v1/info", map[string]string{"Cookie": oldCookie})
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	assert.Equal(t, "1", resp.Header.Get("X-Procs-Restarted"))
	assert.Contains(t, string(body), "procs was restarted since this page was opened; run `procs ui`")

	resp = second.do(t, anon, "GET", "/?token="+oldToken, nil)
	resp.Body.Close()
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode, "the old link does not sign in")

	resp = second.do(t, anon, "GET", "/v1/info", nil)
	resp.Body.Close()
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	assert.Empty(t, resp.Header.Get("X-Procs-Restarted"), "no sign-in at all is not a restart")

	resp = second.do(t, second.signedIn(t), "GET", "/v1/info", nil)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
}

// The screen of a PTY process reaches the page in its colours.
func TestScreenKeepsColours(t *testing.T) {
	h := startHarness(t, `
procs:
  prompt:
    command: sh -c 'printf "\033[1;32muser@host\033[0m:\033[34m~\033[0m$ "; exec sleep 600'
    pty: true
`)
	h.waitReady(t, "prompt")
	resp := h.do(t, h.signedIn(t), "GET", "/ui/screen?proc=prompt", nil)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	var s Screen
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&s))
	assert.Equal(t, "user@host:~$ ", s.Text, "the row up to the cursor")
	require.NotEmpty(t, s.Lines)
	assert.Equal(t, []Span{{Text: "user@host", Fg: "c10", Bold: true}, {Text: ":"}, {Text: "~", Fg: "c4"}, {Text: "$ "}}, s.Lines[0])
	require.NotNil(t, s.Cursor)
	assert.Equal(t, Cursor{Col: 13, Row: 0}, *s.Cursor)

	resp = h.do(t, h.signedIn(t), "GET", "/ui/screen?proc=nope", nil)
	resp.Body.Close()
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
}
