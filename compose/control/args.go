package control

import "net/http"

// StartRequest is the optional body of POST /v1/procs/{name}/start: the
// arguments of the task's run. Without a body (or without args), the task
// starts as procs start does, joining a run going.
type StartRequest struct {
	// Args are the values of the task's args:, by name, as text; they are
	// checked against the task's declaration (400 when one is wrong), and
	// a run going is not joined (409).
	Args map[string]string `json:"args,omitempty"`
}

// startArgs reads the arguments of a start request, answering 400 itself
// when its body is not a StartRequest. Other actions take no body.
func startArgs(w http.ResponseWriter, r *http.Request, act action) (map[string]string, bool) {
	if act != actionStart || r.ContentLength == 0 {
		return nil, true
	}
	var req StartRequest
	if !decodeBody(w, r, &req) {
		return nil, false
	}
	if req.Args == nil {
		return map[string]string{}, true // a body asks for a run of its own, with the defaults: not a join
	}
	return req.Args, true
}
