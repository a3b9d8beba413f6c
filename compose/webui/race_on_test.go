//go:build race

package webui

// raceEnabled says the tests run under the race detector, which slows
// procs (not the page) several times.
const raceEnabled = true
