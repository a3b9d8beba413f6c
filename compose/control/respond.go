package control

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/procsdev/procs/compose/wire"
)

// writeJSON sends v as the JSON body of a response with the given status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // the client may have gone; nothing to do about it
}

// writeError sends {"error": ...} with the given status.
func writeError(w http.ResponseWriter, status int, format string, args ...any) {
	writeJSON(w, status, ErrorBody{Error: fmt.Sprintf(format, args...)})
}

// writeEngineError maps an engine error to its status: unknown process 404,
// shutting down 503, anything else (such as input to a stopped process) 409.
func writeEngineError(w http.ResponseWriter, err error) {
	var unknown *wire.UnknownProcessError
	switch {
	case errors.As(err, &unknown):
		writeJSON(w, http.StatusNotFound, ErrorBody{Error: err.Error(), Known: unknown.Known})
	case errors.Is(err, wire.ErrUnknownProcess):
		writeError(w, http.StatusNotFound, "%v", err)
	case errors.Is(err, wire.ErrShuttingDown):
		writeError(w, http.StatusServiceUnavailable, "%v", err)
	default:
		writeError(w, http.StatusConflict, "%v", err)
	}
}

// decodeBody reads a JSON body of at most maxBodyBytes into v, answering
// 413 or 400 itself and returning false when it cannot.
func decodeBody(w http.ResponseWriter, r *http.Request, v any) bool {
	r.Body = http.MaxBytesReader(w, r.Body, maxBodyBytes)
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil && dec.More() {
		err = errors.New("unexpected data after the JSON object")
	}
	if err == nil {
		return true
	}
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		writeError(w, http.StatusRequestEntityTooLarge, "request body larger than %d bytes", tooBig.Limit)
		return false
	}
	writeError(w, http.StatusBadRequest, "bad JSON body: %v", err)
	return false
}
