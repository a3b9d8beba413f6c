// Package compose is the procs engine: it starts the processes of a checked
// config.Config in dependency order, supervises each run, decides their
// states from the rules package's verdicts, and publishes every transition
// and output line on one event bus that the printer, log files and the
// control API read.
//
// compose is the only package that starts processes. It may import
// compose/config, rules and builtin-frameworks; it must not import
// compose/control or any client of the API.
package compose
