package schema_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/procsdev/procs/schema/schematest"
)

// TestSchemaArgs checks the schema of a task's args: what procs accepts
// validates, and the shapes procs check refuses do not.
func TestSchemaArgs(t *testing.T) {
	compiled := schematest.Compile(t, schemaFile)
	valid := `procs:
  test:
    kind: task
    description: Run the tests
    command: go test -run {{args.filter}} -count $COUNT
    disabled: true
    args:
      - {name: filter, description: test name pattern, required: true}
      - {name: count, type: integer, default: 1}
      - {name: ratio, type: number, default: 0.5}
      - {name: race, type: boolean, default: false}
      - {name: pkg, default: ./...}
`
	assert.NoError(t, compiled.Validate(schematest.YAMLAsJSON(t, []byte(valid))))
	for name, args := range map[string]string{
		"unknown type":  "[{name: count, type: int}]",
		"bad name":      "[{name: Filter}]",
		"no name":       "[{type: string}]",
		"unknown key":   "[{name: filter, desc: x}]",
		"not a list":    "{filter: string}",
		"list default":  "[{name: filter, default: [a]}]",
		"name a number": "[{name: 7}]",
	} {
		t.Run(name, func(t *testing.T) {
			text := "procs:\n  test:\n    kind: task\n    command: x\n    args: " + args + "\n"
			assert.Error(t, compiled.Validate(schematest.YAMLAsJSON(t, []byte(text))))
		})
	}
}
