package mcp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose/config"
)

// TestExampleClientConfigs checks the MCP client configs of examples/mcp:
// each runs `procs mcp` on the example's procs.yaml, which loads.
func TestExampleClientConfigs(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "examples", "mcp"))
	require.NoError(t, err)
	for _, file := range []string{".mcp.json", filepath.Join(".cursor", "mcp.json")} {
		t.Run(file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, file))
			require.NoError(t, err)
			var cfg struct {
				MCPServers map[string]struct {
					Command string   `json:"command"`
					Args    []string `json:"args"`
				} `json:"mcpServers"`
			}
			require.NoError(t, json.Unmarshal(data, &cfg))
			server, ok := cfg.MCPServers["procs"]
			require.True(t, ok, "no procs server in %s", file)
			assert.Equal(t, "procs", server.Command)
			require.NotEmpty(t, server.Args)
			assert.Equal(t, "mcp", server.Args[0])

			// The file the server would load: -f as Cursor expands it, else the folder's procs.yaml.
			opts := config.LoadOptions{Dir: dir, Environ: []string{}}
			for i, arg := range server.Args {
				if (arg == "--file" || arg == "-f") && i+1 < len(server.Args) {
					opts.File = strings.ReplaceAll(server.Args[i+1], "${workspaceFolder}", dir)
				}
			}
			loaded, err := config.Load(opts)
			require.NoError(t, err)
			assert.Contains(t, loaded.Procs, "web")
		})
	}
}
