package compose

import (
	"github.com/procsdev/procs/compose/bus"
	"github.com/procsdev/procs/compose/wire"
)

// The types that cross the API live in compose/wire, so the clients of the
// API need not link the engine; these names keep the engine's own code, and
// its callers, as they were.

// KeySequence returns what a terminal sends for the key name (wire.KeySequence).
var KeySequence = wire.KeySequence

// KeyNames lists the named keys, sorted (wire.KeyNames).
var KeyNames = wire.KeyNames

// Bus fans events out to subscribers (bus.Bus).
type Bus = bus.Bus

// Subscription is one subscriber's queue of events (bus.Subscription).
type Subscription = bus.Subscription

// NewBus returns an empty bus (bus.NewBus).
var NewBus = bus.NewBus

// TotalDropped adds up the line events dropped for each process (bus.TotalDropped).
var TotalDropped = bus.TotalDropped

// Event is one thing that happened, as published on the bus (bus.Event).
type Event = bus.Event

// EventType says what an Event reports (bus.EventType).
type EventType = bus.EventType

// The event types (bus.EventState, bus.EventLine, bus.EventInfo).
const (
	EventState = bus.EventState
	EventLine  = bus.EventLine
	EventInfo  = bus.EventInfo
)
