package control

import (
	"context"
	"net/http"

	"github.com/procsdev/procs/compose/wire"
)

// handlePermission holds an agent CLI's permission request (procs' MCP
// server makes it for Claude Code's --permission-prompt-tool) until a
// person answers it; the request ends when the asker hangs up.
func (s *Server) handlePermission(w http.ResponseWriter, r *http.Request) {
	var req wire.PermissionRequest
	if !decodeBody(w, r, &req) {
		return
	}
	decision, err := s.engine.AskPermission(r.Context(), r.PathValue("name"), req)
	if err != nil {
		writeEngineError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, decision)
}

// AskPermission asks whether the agent process name may use a tool, and
// waits, without a time limit of its own, until a person answers with
// procs send, the web page or MCP's send_input; the run ending or procs
// stopping answers with a denial. Ending ctx withdraws the request.
func (c *Client) AskPermission(ctx context.Context, name string, req wire.PermissionRequest) (wire.PermissionDecision, error) {
	var out wire.PermissionDecision
	return out, c.getJSON(ctx, http.MethodPost, procPath(name, "permission"), nil, req, &out)
}
