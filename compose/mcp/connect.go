package mcp

import (
	"github.com/procsdev/procs/compose/control"
)

// connect returns a client of the procs running in the project folder, or
// a toolError saying how to start one. A procs that answers again (started
// by up or in a terminal) also resumes following logs for subscribers.
func (s *Server) connect() (*control.Client, error) {
	c, err := s.dial()
	if err != nil {
		return nil, s.failure(nil, err, "")
	}
	s.logs.resume()
	return c, nil
}

// dial connects to the procs of the project folder.
func (s *Server) dial() (*control.Client, error) {
	return control.Dial(s.opts.Dir)
}
