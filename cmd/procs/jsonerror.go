package main

import (
	"encoding/json"
	"errors"
	"io"

	"github.com/spf13/cobra"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/compose/control"
)

// jsonError is how a command run with --json reports the error it ends
// with: on stdout, where a script reads the rest of its JSON, as one line.
type jsonError struct {
	Error string `json:"error"`
	// Known are the process names, when the error is an unknown one.
	Known []string `json:"known,omitempty"`
	// Errors are the config errors, each with its place, as procs check
	// --json gives them, when the error is a broken procs.yaml.
	Errors []checkError `json:"errors,omitempty"`
}

// jsonErrorOf is err as JSON, with the known names of an unknown process
// from procs' answer or from the config.
func jsonErrorOf(err error) jsonError {
	out := jsonError{Error: err.Error()}
	var apiErr *control.APIError
	var unknown *config.UnknownProcessError
	var cfgErrs config.ConfigErrors
	switch {
	case errors.As(err, &cfgErrs):
		out.Errors = checkErrors(cfgErrs)
	case errors.As(err, &unknown):
		out.Known = unknown.Known
	case errors.As(err, &apiErr):
		out.Known = apiErr.Known
	}
	return out
}

// wantsJSON reports whether cmd registered --json (addJSONFlag) and was
// given it.
func wantsJSON(cmd *cobra.Command) bool {
	if cmd == nil || cmd.Annotations[jsonAnnotation] == "" {
		return false
	}
	on, err := cmd.Flags().GetBool("json")
	return err == nil && on
}

// printJSONError writes err as one line of JSON on w.
func printJSONError(w io.Writer, err error) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(jsonErrorOf(err)) // stdout gone: nothing left to tell
}
