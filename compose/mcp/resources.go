package mcp

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/procsdev/procs/compose/control"
	"github.com/procsdev/procs/compose/wire"
)

// The resource addresses.
const (
	logsTemplate = "procs://logs/{name}"
	logsPrefix   = "procs://logs/"
	configURI    = "procs://config"
)

// resourceLogLines is how many recent lines a log resource holds.
const resourceLogLines = 200

func (s *Server) addResources() {
	s.sdk.AddResourceTemplate(&sdk.ResourceTemplate{
		Name:        "process-log",
		Title:       "Process log",
		URITemplate: logsTemplate,
		MIMEType:    "text/plain",
		Description: fmt.Sprintf("The recent output of one process (its last %d lines, colour codes removed), e.g. procs://logs/web. "+
			"Subscribe to be notified when new lines arrive.", resourceLogLines),
	}, s.readLog)
	s.sdk.AddResource(&sdk.Resource{
		Name:        "config",
		Title:       "Resolved config",
		URI:         configURI,
		MIMEType:    "application/json",
		Description: "The resolved config, as `procs config --json` prints it: the one the running procs runs, or else procs.yaml with procs.override.yaml, PROCS_* variables and --set merged in.",
	}, s.readConfig)
	for _, name := range s.opts.Names {
		s.sdk.AddResource(&sdk.Resource{
			Name:        "log-" + name,
			Title:       "Log of " + name,
			URI:         logURI(name),
			MIMEType:    "text/plain",
			Description: fmt.Sprintf("The recent output of %s (its last %d lines, colour codes removed). Subscribe to be notified when new lines arrive.", name, resourceLogLines),
		}, s.readLog)
	}
}

// logURI is the address of the log resource of a process.
func logURI(name string) string { return logsPrefix + url.PathEscape(name) }

// logName is the process a log address names; false for another address.
func logName(uri string) (string, bool) {
	rest, ok := strings.CutPrefix(uri, logsPrefix)
	if !ok {
		return "", false
	}
	name, err := url.PathUnescape(rest)
	return name, err == nil && name != ""
}

// subscribe accepts a subscription to a resource that exists (the config,
// or the log of a process of the folder's config or of the running procs)
// and refuses any other as not found, as a read of it is.
func (s *Server) subscribe(ctx context.Context, req *sdk.SubscribeRequest) error {
	uri := req.Params.URI
	if uri != configURI {
		name, ok := logName(uri)
		if !ok {
			return notFound(req.Session, uri)
		}
		known, err := s.knownProcess(ctx, name)
		if err != nil || !known {
			return cmp.Or(err, notFound(req.Session, uri))
		}
	}
	return s.logs.subscribe(ctx, req)
}

// knownProcess reports whether name is a process of the folder's config
// or of the procs running there.
func (s *Server) knownProcess(ctx context.Context, name string) (bool, error) {
	if slices.Contains(s.opts.Names, name) {
		return true, nil
	}
	c, err := s.dial()
	if errors.Is(err, control.ErrNotRunning) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer c.Close()
	_, err = c.Get(ctx, name)
	if errors.Is(err, wire.ErrUnknownProcess) {
		return false, nil
	}
	return err == nil, err
}

func (s *Server) readLog(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	uri := req.Params.URI
	name, ok := logName(uri)
	if !ok {
		return nil, notFound(req.Session, uri)
	}
	c, err := s.connect()
	if err != nil {
		return nil, err
	}
	defer c.Close()
	var b strings.Builder
	tail := resourceLogLines
	err = c.Logs(ctx, control.LogsOptions{Procs: []string{name}, Tail: &tail}, func(l control.LogLine) error {
		b.WriteString(l.Line)
		b.WriteByte('\n')
		return nil
	})
	if errors.Is(err, wire.ErrUnknownProcess) {
		return nil, notFound(req.Session, uri)
	}
	if err != nil {
		return nil, s.failure(c, err, name)
	}
	return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: uri, MIMEType: "text/plain", Text: b.String()}}}, nil
}

// readConfig answers with the config the running procs runs, or, when none
// runs, with the folder's config.
func (s *Server) readConfig(ctx context.Context, _ *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	data, err := s.runningConfig(ctx)
	if errors.Is(err, control.ErrNotRunning) && s.opts.Config != nil {
		data, err = s.opts.Config()
	}
	if err != nil {
		return nil, fmt.Errorf("read config: %w", err)
	}
	return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: configURI, MIMEType: "application/json", Text: string(data)}}}, nil
}

// runningConfig asks the running procs for its config, indented.
func (s *Server) runningConfig(ctx context.Context) ([]byte, error) {
	c, err := s.dial()
	if err != nil {
		return nil, err
	}
	defer c.Close()
	raw, err := c.Config(ctx)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, raw, "", "  "); err != nil {
		return nil, fmt.Errorf("decode config: %w", err)
	}
	return out.Bytes(), nil
}

// notifyLogUpdated tells the clients subscribed to a process's log that it
// has new lines.
func (s *Server) notifyLogUpdated(ctx context.Context, name string) {
	_ = s.sdk.ResourceUpdated(ctx, &sdk.ResourceUpdatedNotificationParams{URI: logURI(name)})
}

// notFound is the error for a resource that does not exist, in the code of
// the protocol version the client speaks: -32002 up to 2025-11-25, which
// the specification of those versions names, and -32602 (invalid params)
// from 2026-07-28, where SEP-2164 moved it (clients of that version accept
// both).
func notFound(session *sdk.ServerSession, uri string) error {
	err := sdk.ResourceNotFoundError(uri).(*jsonrpc.Error)
	err.Code = jsonrpc.CodeInvalidParams
	if session != nil {
		if p := session.InitializeParams(); p != nil && p.ProtocolVersion != "" && p.ProtocolVersion < resourceNotFoundAsInvalidParams {
			err.Code = legacyResourceNotFound
		}
	}
	return err
}

// The protocol version from which a missing resource answers -32602, and
// the code earlier versions name for it.
const (
	resourceNotFoundAsInvalidParams = "2026-07-28"
	legacyResourceNotFound          = -32002
)
