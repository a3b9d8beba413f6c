package control

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/procsdev/procs/compose/wire"
	"github.com/procsdev/procs/rules"
)

// ErrNotRunning is returned (wrapped) by Dial and by requests when no procs
// answers for the project folder.
var ErrNotRunning = errors.New("no procs running in this folder")

// dialTimeout bounds connecting to the socket, which is local.
const dialTimeout = 2 * time.Second

// Client talks to the control API of the procs running in a project folder.
type Client struct {
	socket  string
	pidFile string
	http    *http.Client
}

// Dial returns a client for the procs serving projectDir, or an error
// wrapping ErrNotRunning when none answers, *PermissionError when the
// socket belongs to another user, or *NotAnsweringError when procs
// accepts the connection but does not answer (it is stopped).
func Dial(projectDir string) (*Client, error) {
	return DialContext(context.Background(), projectDir)
}

// DialContext is Dial, ending early when ctx ends.
func DialContext(ctx context.Context, projectDir string) (*Client, error) {
	dir, err := filepath.Abs(projectDir)
	if err != nil {
		return nil, fmt.Errorf("dial: %w", err)
	}
	socket, err := resolveSocket(dir)
	if err != nil {
		return nil, permissionOr(dir, err)
	}
	dialer := &net.Dialer{Timeout: dialTimeout}
	conn, err := dialer.DialContext(ctx, "unix", socket)
	if err != nil {
		return nil, permissionOr(dir, fmt.Errorf("%w (%s: %w)", ErrNotRunning, socket, unwrapSyscall(err)))
	}
	conn.Close()
	transport := &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return dialer.DialContext(ctx, "unix", socket)
		},
		MaxIdleConnsPerHost: 4,
		IdleConnTimeout:     30 * time.Second,
	}
	c := &Client{socket: socket, pidFile: filepath.Join(dir, stateDir, pidFileName), http: &http.Client{Transport: transport}}
	if err := c.ping(ctx); err != nil {
		c.Close()
		return nil, permissionOr(dir, err)
	}
	return c, nil
}

// Socket returns the path of the socket the client talks to.
func (c *Client) Socket() string { return c.socket }

// Close releases idle connections.
func (c *Client) Close() { c.http.CloseIdleConnections() }

// APIError is an error response of the API.
type APIError struct {
	// Status is the HTTP status code.
	Status int
	// Message is the error the server gave.
	Message string
	// State is the process's state when input was refused (409).
	State string
	// StateMessage is the process's own state message when input was
	// refused (409).
	StateMessage string
	// Known are the process names of the config when the request named
	// an unknown one (404).
	Known []string
}

// Error returns the server's message.
func (e *APIError) Error() string { return e.Message }

// Unwrap maps statuses to the engine's sentinel errors, so callers can use
// errors.Is(err, wire.ErrUnknownProcess).
func (e *APIError) Unwrap() error {
	switch e.Status {
	case http.StatusNotFound:
		return wire.ErrUnknownProcess
	case http.StatusServiceUnavailable:
		return wire.ErrShuttingDown
	}
	return nil
}

// do sends a request and returns the response of a 2xx status; other
// statuses become *APIError. Callers give it a context from watch. A
// request that only reads (GET) is sent again when procs refused it as
// busy (see whileBusy).
func (c *Client) do(ctx context.Context, method, path string, query url.Values, body any) (*http.Response, error) {
	if method != http.MethodGet {
		return c.doOnce(ctx, method, path, query, body)
	}
	var resp *http.Response
	err := whileBusy(ctx, func() error {
		var err error
		resp, err = c.doOnce(ctx, method, path, query, body)
		return err
	})
	return resp, err
}

// doOnce sends a request once; see do.
func (c *Client) doOnce(ctx context.Context, method, path string, query url.Values, body any) (*http.Response, error) {
	u := "http://procs" + path
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	var reader io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", method, path, err)
		}
		reader = strings.NewReader(string(data))
	}
	req, err := http.NewRequestWithContext(ctx, method, u, reader)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", method, path, err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		var opErr *net.OpError
		if errors.As(err, &opErr) && opErr.Op == "dial" {
			return nil, fmt.Errorf("%w (%v)", ErrNotRunning, unwrapSyscall(err))
		}
		return nil, causeOf(ctx, fmt.Errorf("%s %s: %w", method, path, err))
	}
	if resp.StatusCode/100 == 2 {
		return resp, nil
	}
	defer resp.Body.Close()
	var eb ErrorBody
	data, _ := io.ReadAll(io.LimitReader(resp.Body, maxBodyBytes))
	if json.Unmarshal(data, &eb) != nil || eb.Error == "" {
		eb.Error = strings.TrimSpace(string(data))
	}
	return nil, &APIError{Status: resp.StatusCode, Message: eb.Error, State: eb.State, StateMessage: eb.StateMessage, Known: eb.Known}
}

// getJSON sends a request and decodes its JSON answer into out.
// It ends with a *NotAnsweringError when procs stops answering meanwhile.
func (c *Client) getJSON(ctx context.Context, method, path string, query url.Values, body, out any) error {
	ctx, stop := c.watch(ctx)
	defer stop()
	resp, err := c.do(ctx, method, path, query, body)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		return causeOf(ctx, fmt.Errorf("%s %s: read answer: %w", method, path, err))
	}
	return nil
}

// Info describes the running procs.
func (c *Client) Info(ctx context.Context) (Info, error) {
	var info Info
	return info, c.getJSON(ctx, http.MethodGet, "/v1/info", nil, nil, &info)
}

// List returns the status of every process of the config, in start order.
func (c *Client) List(ctx context.Context) ([]wire.ProcStatus, error) {
	list, err := c.ListAll(ctx)
	// A process removed from the config takes no request (restart, stop,
	// wait): callers that act on what they list do not see it.
	return slices.DeleteFunc(list, func(st wire.ProcStatus) bool { return st.Removed }), err
}

// ListAll is List with the processes removed from the config whose last
// run is still stopping (ProcStatus.Removed), as status shows them.
func (c *Client) ListAll(ctx context.Context) ([]wire.ProcStatus, error) {
	var list []wire.ProcStatus
	return list, c.getJSON(ctx, http.MethodGet, "/v1/procs", nil, nil, &list)
}

// Get returns the status of one process.
func (c *Client) Get(ctx context.Context, name string) (wire.ProcStatus, error) {
	var st wire.ProcStatus
	return st, c.getJSON(ctx, http.MethodGet, procPath(name, ""), nil, nil, &st)
}

// ActionOptions tunes Restart, Start and Stop.
type ActionOptions struct {
	// NoWait returns as soon as the request is accepted.
	NoWait bool
	// Timeout bounds the wait (the server's default when 0).
	Timeout time.Duration
	// Args, for Start, are the arguments of the task's run (name → value);
	// nil starts it as procs start does.
	Args map[string]string
}

// Restart restarts a process and, unless NoWait, waits for its new run to
// be ready (or fail) and returns the result.
func (c *Client) Restart(ctx context.Context, name string, opts ActionOptions) (rules.Result, error) {
	return c.action(ctx, name, "restart", opts)
}

// Start starts a process and, unless NoWait, waits for it to be ready.
func (c *Client) Start(ctx context.Context, name string, opts ActionOptions) (rules.Result, error) {
	return c.action(ctx, name, "start", opts)
}

// Stop stops a process and, unless NoWait, waits for it to be stopped.
func (c *Client) Stop(ctx context.Context, name string, opts ActionOptions) (rules.Result, error) {
	return c.action(ctx, name, "stop", opts)
}

func (c *Client) action(ctx context.Context, name, act string, opts ActionOptions) (rules.Result, error) {
	query := url.Values{"wait": {strconv.FormatBool(!opts.NoWait)}}
	if opts.Timeout > 0 {
		query.Set("timeout", opts.Timeout.String())
	}
	var body any
	if opts.Args != nil {
		body = StartRequest{Args: opts.Args}
	}
	var res rules.Result
	return res, c.getJSON(ctx, http.MethodPost, procPath(name, act), query, body, &res)
}

// WaitOptions says what Wait waits for.
type WaitOptions struct {
	// For lists the target states (ready, or completed for a task, when empty).
	For []rules.State
	// Run is the first run that counts (0: the current one).
	Run int
	// Timeout bounds the wait (the server's default when 0).
	Timeout time.Duration
}

// Wait blocks until a process reaches one of the target states, fails, or
// the timeout passes, and returns the structured result.
func (c *Client) Wait(ctx context.Context, name string, opts WaitOptions) (rules.Result, error) {
	var res rules.Result
	return res, c.getJSON(ctx, http.MethodGet, procPath(name, "wait"), waitQuery(nil, opts), nil, &res)
}

// Input writes text to a process, followed by Enter when enter is set.
func (c *Client) Input(ctx context.Context, name, text string, enter bool) error {
	var out map[string]int
	return c.getJSON(ctx, http.MethodPost, procPath(name, "input"), nil, InputRequest{Text: text, Enter: enter}, &out)
}

// Send writes req.Text (and Enter) to a process. An interactive process that
// is not ready for input refuses it with an *APIError of status 409 whose
// State names its state, unless req.Force.
func (c *Client) Send(ctx context.Context, name string, req InputRequest) error {
	var out map[string]int
	return c.getJSON(ctx, http.MethodPost, procPath(name, "input"), nil, req, &out)
}

// Down asks procs to stop everything; it returns once shutdown has begun.
func (c *Client) Down(ctx context.Context) error {
	var out DownResult
	return c.getJSON(ctx, http.MethodPost, "/v1/down", nil, nil, &out)
}

func procPath(name, action string) string {
	p := "/v1/procs/" + url.PathEscape(name)
	if action != "" {
		p += "/" + action
	}
	return p
}

// unwrapSyscall keeps the last part of a dial error ("connection refused").
func unwrapSyscall(err error) error {
	var opErr *net.OpError
	if errors.As(err, &opErr) && opErr.Err != nil {
		return opErr.Err
	}
	return err
}
