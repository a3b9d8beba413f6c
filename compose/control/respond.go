package control

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/procsdev/procs/compose/config"
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

// writeEngineError maps an engine error to its status: arguments a task
// does not take 400, unknown process 404, shutting down 503, anything else
// (such as input to a stopped process, or a task busy) 409.
func writeEngineError(w http.ResponseWriter, err error) {
	status, body := engineErrorBody(err)
	writeJSON(w, status, body)
}

// engineErrorBody is the status and body writeEngineError answers err with.
func engineErrorBody(err error) (int, ErrorBody) {
	var unknown *wire.UnknownProcessError
	var badArgs *config.ArgError
	switch {
	case errors.As(err, &badArgs):
		return http.StatusBadRequest, ErrorBody{Error: err.Error()}
	case errors.As(err, &unknown):
		return http.StatusNotFound, ErrorBody{Error: err.Error(), Known: unknown.Known}
	case errors.Is(err, wire.ErrUnknownProcess):
		return http.StatusNotFound, ErrorBody{Error: err.Error()}
	case errors.Is(err, wire.ErrShuttingDown):
		return http.StatusServiceUnavailable, ErrorBody{Error: err.Error()}
	default:
		return http.StatusConflict, ErrorBody{Error: err.Error()}
	}
}

// writeStatusError answers err with status, or as an engine error when
// status is 0.
func writeStatusError(w http.ResponseWriter, status int, err error) {
	if status == 0 {
		writeEngineError(w, err)
		return
	}
	writeError(w, status, "%v", err)
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
