package compose

import (
	"github.com/procsdev/procs/compose/bus"
	"github.com/procsdev/procs/compose/wire"
)

// The types that cross the API live in compose/wire, and the event bus in
// compose/bus, so the clients of the API need not link the engine. These
// names keep the engine's own code, and its callers, as they were.

// ProcStatus is a snapshot of one process (wire.ProcStatus).
type ProcStatus = wire.ProcStatus

// IdleStatus is the onIdle state of a process (wire.IdleStatus).
type IdleStatus = wire.IdleStatus

// LogHealth is the state of a process log (wire.LogHealth).
type LogHealth = wire.LogHealth

// Event is one thing that happened, as published on the bus (wire.Event).
type Event = wire.Event

// EventType says what an Event reports (wire.EventType).
type EventType = wire.EventType

// The event types (wire.EventState, wire.EventLine, wire.EventInfo).
const (
	EventState = wire.EventState
	EventLine  = wire.EventLine
	EventInfo  = wire.EventInfo
)

// ScreenText is what a PTY process shows now (wire.ScreenText).
type ScreenText = wire.ScreenText

// StyledScreen is what a PTY process shows now, with its colours (wire.StyledScreen).
type StyledScreen = wire.StyledScreen

// WaitTarget is a run of a process to wait for (wire.WaitTarget).
type WaitTarget = wire.WaitTarget

// Reconciled says what applying a new config did (wire.Reconciled).
type Reconciled = wire.Reconciled

// RestartPlan is what RestartMany set in motion (wire.RestartPlan).
type RestartPlan = wire.RestartPlan

// NotReadyForInputError is input refused because an interactive process is
// not waiting for it (wire.NotReadyForInputError).
type NotReadyForInputError = wire.NotReadyForInputError

// ErrUnknownProcess is returned for a process name not in the config
// (wire.ErrUnknownProcess, itself config.ErrUnknownProcess).
var ErrUnknownProcess = wire.ErrUnknownProcess

// ErrShuttingDown is returned for requests that arrive while procs stops
// (wire.ErrShuttingDown).
var ErrShuttingDown = wire.ErrShuttingDown

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

// Attachment is a terminal connected to a PTY process (wire.Attachment).
type Attachment = wire.Attachment
