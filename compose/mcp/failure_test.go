package mcp

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/procsdev/procs/compose/control"
)

// TestPermissionFailuresSayWhatToDo: a procs of another user and a
// .procs this user may not read are told apart, each with its own next
// step: the second is no procs known to run at all.
func TestPermissionFailuresSayWhatToDo(t *testing.T) {
	s := &Server{opts: Options{Dir: "/project"}}
	for _, tc := range []struct {
		err        error
		text, next string
	}{
		{
			&control.PermissionError{Path: "/project/.procs/procs.sock", UID: 0},
			"belongs to another user (uid 0)",
			"Next: run this MCP server as the user who runs procs in that folder.",
		},
		{
			&control.PermissionError{Path: "/project/.procs", UID: -1, Unreadable: true},
			"/project/.procs/ is not readable by this user: procs cannot tell whether a procs runs in this folder",
			"Next: ask the user to fix the permissions of /project/.procs, or to run this MCP server as its owner.",
		},
	} {
		t.Run(tc.text, func(t *testing.T) {
			msg := s.failure(nil, fmt.Errorf("dial: %w", tc.err), "web").Error()
			assert.Contains(t, msg, tc.text)
			assert.Contains(t, msg, tc.next)
			assert.NotContains(t, msg, "belongs to another user;")
		})
	}
}
