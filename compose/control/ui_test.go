package control

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const oneLine = `
procs:
  web:
    command: sh -c 'printf "\033[32mready\033[0m\n"; exec sleep 600'
    readyPatterns: ['ready']
`

func TestUIEndpoint(t *testing.T) {
	h := startHarness(t, oneLine)
	_, err := h.client.UI(testCtx(t), UIRequest{})
	var apiErr *APIError
	require.ErrorAs(t, err, &apiErr, "no dashboard hooked")
	assert.Equal(t, http.StatusNotImplemented, apiErr.Status)

	var got []UIRequest
	h.server.SetUI(func(ctx context.Context, req UIRequest) (UIInfo, error) {
		got = append(got, req)
		if req.Listen == "bad" {
			return UIInfo{}, errors.New("listen on bad: no")
		}
		return UIInfo{URL: "http://127.0.0.1:1/?token=x", Addr: "127.0.0.1:1"}, nil
	})
	info, err := h.client.UI(testCtx(t), UIRequest{Listen: "127.0.0.1:0"})
	require.NoError(t, err)
	assert.Equal(t, "http://127.0.0.1:1/?token=x", info.URL)
	_, err = h.client.UI(testCtx(t), UIRequest{Listen: "bad"})
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusInternalServerError, apiErr.Status)
	assert.Contains(t, apiErr.Message, "listen on bad")
	assert.Equal(t, []UIRequest{{Listen: "127.0.0.1:0"}, {Listen: "bad"}}, got)
}

func TestLogsCarryRawLines(t *testing.T) {
	h := startHarness(t, oneLine)
	h.waitReady(t, "web")
	var lines []LogLine
	require.NoError(t, h.client.Logs(testCtx(t), LogsOptions{Procs: []string{"web"}}, func(l LogLine) error {
		lines = append(lines, l)
		return nil
	}))
	require.Len(t, lines, 1)
	assert.Equal(t, "ready", lines[0].Line)
	assert.Equal(t, "\x1b[32mready\x1b[0m", lines[0].Raw, "the colours, for the dashboard")
}

func TestRoundTripPassesStatuses(t *testing.T) {
	h := startHarness(t, oneLine)
	req, err := http.NewRequestWithContext(testCtx(t), http.MethodGet, "http://anything.example/v1/procs/nosuch", nil)
	require.NoError(t, err)
	resp, err := h.client.RoundTrip(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
}
