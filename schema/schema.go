// Package schema holds the JSON Schema of procs.yaml. The schema is made
// from the Go config types by package schema/generate, and this package's
// tests fail when the file differs from what the types generate
// (`go test ./schema -update` writes it), so it cannot drift from what
// procs accepts.
//
// It imports nothing of procs.
package schema

import _ "embed"

// ID is the $id of the schema.
const ID = "https://procs.dev/schema/procs.schema.json"

//go:embed procs.schema.json
var document []byte

// JSON returns the schema document, indented, with a final newline. The
// caller must not modify it.
func JSON() []byte { return document }
