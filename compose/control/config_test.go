package control

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestConfigIsWhatRuns(t *testing.T) {
	h := startHarness(t, twoServices)
	raw, err := h.client.Config(testCtx(t))
	require.NoError(t, err)
	var cfg struct {
		Procs map[string]struct {
			Command any `json:"command"`
		} `json:"procs"`
	}
	require.NoError(t, json.Unmarshal(raw, &cfg))
	assert.Contains(t, cfg.Procs, "web")
	assert.Contains(t, cfg.Procs, "api")
	assert.NotNil(t, cfg.Procs["web"].Command)
}
