package mcp

import (
	"bytes"
	"context"
	"encoding/json"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// nullArguments turns `"arguments": null` into `{}` before a tool sees
// it: go-sdk v1.8.0 panics applying schema defaults to the nil map that
// null decodes to, which would take the whole server down with one call.
func nullArguments(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		if call, ok := req.(*sdk.CallToolRequest); ok && call.Params != nil &&
			bytes.Equal(bytes.TrimSpace(call.Params.Arguments), []byte("null")) {
			call.Params.Arguments = json.RawMessage("{}")
		}
		return next(ctx, method, req)
	}
}
