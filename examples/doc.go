// Package examples holds runnable procs projects, one per folder, each with
// its own procs.yaml and README.md. Its tests run every example the way its
// README does, with the procs binary, check what the example serves, and
// check that nothing of it is left once procs is down.
package examples
