package rules

import "time"

// Env is the environment a `ready` rule is evaluated against (ARCHITECTURE.md §4).
// Field tags give the names a rule uses; function fields let rules call
// log.matches("re") and portOpen(3000) with lower-case names.
type Env struct {
	Log      LogView           `expr:"log"`
	Line     string            `expr:"line"`
	Port     PortView          `expr:"port"`
	Ports    []int             `expr:"ports"`
	PortOpen func(int) bool    `expr:"portOpen"`
	HTTP     HTTPView          `expr:"http"`
	Exec     ExecView          `expr:"exec"`
	Elapsed  time.Duration     `expr:"elapsed"`
	Deps     map[string]string `expr:"deps"`
	Run      int               `expr:"run"`
	Screen   ScreenView        `expr:"screen"`
}

// LogView is what a rule can ask of the output of the current run.
type LogView struct {
	Matches  func(re string) bool `expr:"matches"`
	Contains func(s string) bool  `expr:"contains"`
	Last     string               `expr:"last"`
	Lines    int                  `expr:"lines"`
}

// PortView is the state of the process's configured port.
type PortView struct {
	Open bool `expr:"open"`
}

// HTTPView is the last HTTP probe result.
type HTTPView struct {
	Status int `expr:"status"`
}

// ExecView is the last exec probe result.
type ExecView struct {
	OK bool `expr:"ok"`
}

// ScreenView is what a rule can ask of the screen of a PTY process: what is
// on it now, after cursor moves and redraws. Without a PTY it is empty.
type ScreenView struct {
	Contains func(s string) bool  `expr:"contains"`
	Matches  func(re string) bool `expr:"matches"`
}
