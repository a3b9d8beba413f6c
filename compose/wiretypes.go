package compose

import "github.com/procsdev/procs/compose/wire"

// The types that cross the API live in compose/wire, so the clients of the
// API need not link the engine; these names keep the engine's own code, and
// its callers, as they were.

// KeySequence returns what a terminal sends for the key name (wire.KeySequence).
var KeySequence = wire.KeySequence

// KeyNames lists the named keys, sorted (wire.KeyNames).
var KeyNames = wire.KeyNames
