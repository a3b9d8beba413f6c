package wire

import (
	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/rules"
)

// WaitTarget is a run of a process that a caller may wait for after a
// reconcile or a restart.
type WaitTarget struct {
	// Name is the process.
	Name string `json:"name"`
	// Run is the first run that counts.
	Run int `json:"run"`
	// Targets are the states that end the wait with success.
	Targets []rules.State `json:"targets"`
	// After names the process whose restart this one follows (restart:
	// true); if that one fails, this one is not restarted.
	After string `json:"after,omitempty"`
}

// Reconciled says what applying a new config did.
type Reconciled struct {
	// Diff is what changed in the config.
	Diff config.Diff `json:"diff"`
	// Started are processes started: new ones, and those named to up.
	Started []string `json:"started"`
	// Held are those of Started that have not begun to run when the
	// reconcile returns, with their state and why, as status shows them:
	// an added process waiting for a removed one still stopping, or for
	// its dependencies.
	Held []HeldProcess `json:"held,omitempty"`
	// Restarted are changed processes restarted, and the dependents that
	// follow them (restart: true), in start order.
	Restarted []string `json:"restarted"`
	// Stopped are processes removed from the config, stopped.
	Stopped []string `json:"stopped"`
	// Updated are changed processes that were not running (stopped on
	// request, or now disabled): they run the new definition when started.
	Updated []string `json:"updated"`
	// Scheduled are the scheduled tasks whose schedule the reconcile set
	// that the config's diff does not name (Diff.Rescheduled): a new task,
	// or one of a profile made active (procs up --profile).
	Scheduled []string `json:"scheduled"`
	// Waits are the runs to wait for to see the changes ready.
	Waits []WaitTarget `json:"waits"`
}

// RestartPlan is what RestartMany set in motion.
type RestartPlan struct {
	// Waits are the runs to wait for, in start order: the processes named
	// and the dependents that follow them (restart: true).
	Waits []WaitTarget `json:"waits"`
	// Notes say what the caller should know, such as a definition taken
	// from the edited config file.
	Notes []string `json:"notes,omitempty"`
}

// HeldProcess is a process asked to start that has not begun to run.
type HeldProcess struct {
	Name  string      `json:"name"`
	State rules.State `json:"state"`
	// Message says what it waits for.
	Message string `json:"message"`
}
