package control

import (
	"errors"
	"net/http"

	"github.com/procsdev/procs/compose/wire"
)

// writeInputError answers a failed input: a refusal because the process is
// not ready for input is 409 with the process's state in the body.
func writeInputError(w http.ResponseWriter, err error) {
	var notReady *wire.NotReadyForInputError
	if errors.As(err, &notReady) {
		writeJSON(w, http.StatusConflict, ErrorBody{Error: err.Error(), State: string(notReady.State), StateMessage: notReady.Message})
		return
	}
	writeEngineError(w, err)
}
