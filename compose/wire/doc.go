// Package wire holds the types that cross the procs API: the status of a
// process, events, screens, key names, wait targets, what a reload or a
// restart set in motion, and the sentinel errors callers branch on. The
// engine (compose) makes them, the control server carries them as JSON,
// and the clients (the CLI, MCP, the dashboards) read them, as
// process-compose's src/types does.
//
// wire is a leaf: it imports the standard library, rules and compose/config,
// and nothing of the engine, so a client of the API links no engine code
// (ARCHITECTURE.md §1; importrules_test.go checks it). The JSON field names
// are the API's: renaming one breaks every client.
package wire
