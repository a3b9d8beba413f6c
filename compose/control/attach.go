package control

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/procsdev/procs/compose/wire"
)

// AttachProtocol is the Upgrade token of GET /v1/procs/{name}/attach. After
// the 101 answer the server sends the current screen and then the raw
// output of the process; the client sends frames (attachFrame).
const AttachProtocol = "procs-attach/1"

// Frame types a client sends on an attach connection: a frame is the type
// byte, a big-endian uint32 length and the payload.
const (
	frameInput  byte = 'i' // payload: keystrokes
	frameResize byte = 'r' // payload: cols and rows, big-endian uint16 each
)

// maxFrame bounds one frame from a client: keystrokes come in small reads.
const maxFrame = 1 << 20

// handleAttach connects a terminal to a PTY process over an upgraded
// connection; closing the connection detaches without touching the process.
func (s *Server) handleAttach(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("Upgrade") != AttachProtocol {
		writeError(w, http.StatusBadRequest, "attach needs Connection: Upgrade and Upgrade: %s", AttachProtocol)
		return
	}
	cols, rows, err := sizeParams(r)
	if err != nil {
		writeError(w, http.StatusBadRequest, "%v", err)
		return
	}
	a, err := s.engine.Attach(r.Context(), r.PathValue("name"), cols, rows)
	if err != nil {
		writeEngineError(w, err)
		return
	}
	defer a.Close()
	hj, ok := w.(http.Hijacker)
	if !ok {
		writeError(w, http.StatusInternalServerError, "attach: connection cannot be upgraded")
		return
	}
	conn, rw, err := hj.Hijack()
	if err != nil {
		return
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Time{})
	_, _ = rw.WriteString("HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: " + AttachProtocol + "\r\n\r\n")
	if _, err := rw.Write(a.Screen); err != nil || rw.Flush() != nil {
		return
	}
	// The reader's input may wait on the process; ending its context as
	// well as its connection makes sure it ends with the handler.
	ctx, cancel := context.WithCancel(r.Context())
	inputDone := make(chan struct{})
	go func() {
		defer close(inputDone)
		readFrames(ctx, rw.Reader, a)
	}()
	copyOutput(conn, a.Output, inputDone)
	// The output is over (or the client went): end the reader too.
	cancel()
	_ = conn.Close()
	<-inputDone
}

// copyOutput writes the process's output to the client until the run ends,
// the client stops reading or detaches.
func copyOutput(conn net.Conn, output <-chan []byte, clientGone <-chan struct{}) {
	for {
		select {
		case data, ok := <-output:
			if !ok {
				return
			}
			_ = conn.SetWriteDeadline(time.Now().Add(streamWriteTimeout))
			if _, err := conn.Write(data); err != nil {
				return
			}
		case <-clientGone:
			return
		}
	}
}

// readFrames applies the client's frames until it closes the connection.
func readFrames(ctx context.Context, r *bufio.Reader, a *wire.Attachment) {
	for {
		kind, payload, err := readFrame(r)
		if err != nil {
			return
		}
		switch kind {
		case frameInput:
			if a.Input(ctx, payload) != nil {
				return
			}
		case frameResize:
			if len(payload) == 4 {
				cols, rows := binary.BigEndian.Uint16(payload), binary.BigEndian.Uint16(payload[2:])
				_ = a.Resize(int(cols), int(rows))
			}
		}
	}
}

func readFrame(r io.Reader) (byte, []byte, error) {
	var head [5]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return 0, nil, err
	}
	n := binary.BigEndian.Uint32(head[1:])
	if n > maxFrame {
		return 0, nil, fmt.Errorf("attach frame of %d bytes is too large", n)
	}
	payload := make([]byte, n)
	if _, err := io.ReadFull(r, payload); err != nil {
		return 0, nil, err
	}
	return head[0], payload, nil
}

func writeFrame(w io.Writer, kind byte, payload []byte) error {
	head := [5]byte{kind}
	binary.BigEndian.PutUint32(head[1:], uint32(len(payload)))
	if _, err := w.Write(append(head[:], payload...)); err != nil {
		return fmt.Errorf("attach: send: %w", err)
	}
	return nil
}

// sizeParams reads cols= and rows= (both or neither).
func sizeParams(r *http.Request) (cols, rows int, err error) {
	q := r.URL.Query()
	if q.Get("cols") == "" && q.Get("rows") == "" {
		return 0, 0, nil
	}
	cols, errC := strconv.Atoi(q.Get("cols"))
	rows, errR := strconv.Atoi(q.Get("rows"))
	if errC != nil || errR != nil || cols < 1 || rows < 1 || cols > 1000 || rows > 1000 {
		return 0, 0, fmt.Errorf("cols=%q rows=%q is not a window size", q.Get("cols"), q.Get("rows"))
	}
	return cols, rows, nil
}

// AttachConn is a terminal attached to a process: Read gives the screen and
// then the process's output; Input and Resize send. Reads may run beside
// writes, but writes must come from one goroutine.
type AttachConn struct {
	conn net.Conn
	r    *bufio.Reader
}

// Attach connects to a PTY process with a window of cols×rows (0: keep the
// process's window). The process's errors (unknown, not a PTY, not
// running) come back as *APIError.
func (c *Client) Attach(ctx context.Context, name string, cols, rows int) (*AttachConn, error) {
	conn, err := (&net.Dialer{Timeout: dialTimeout}).DialContext(ctx, "unix", c.socket)
	if err != nil {
		return nil, fmt.Errorf("%w (%v)", ErrNotRunning, unwrapSyscall(err))
	}
	query := url.Values{}
	if cols > 0 && rows > 0 {
		query.Set("cols", strconv.Itoa(cols))
		query.Set("rows", strconv.Itoa(rows))
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://procs"+procPath(name, "attach")+"?"+query.Encode(), nil)
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("attach %s: %w", name, err)
	}
	req.Header.Set("Connection", "Upgrade")
	req.Header.Set("Upgrade", AttachProtocol)
	// The handshake is answered at once; a procs that does not answer it
	// is stopped. The session itself has no deadline.
	_ = conn.SetDeadline(time.Now().Add(answerTimeout))
	stopCancel := context.AfterFunc(ctx, func() { _ = conn.SetDeadline(time.Now()) })
	defer stopCancel()
	if err := req.Write(conn); err != nil {
		conn.Close()
		return nil, fmt.Errorf("attach %s: %w", name, err)
	}
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, req)
	if err != nil {
		conn.Close()
		var netErr net.Error
		switch {
		case ctx.Err() != nil:
			return nil, context.Cause(ctx)
		case errors.As(err, &netErr) && netErr.Timeout():
			return nil, c.notAnswering()
		}
		return nil, fmt.Errorf("attach %s: %w", name, err)
	}
	if !stopCancel() {
		conn.Close()
		return nil, context.Cause(ctx)
	}
	_ = conn.SetDeadline(time.Time{})
	if resp.StatusCode != http.StatusSwitchingProtocols {
		defer conn.Close()
		return nil, responseError(resp)
	}
	return &AttachConn{conn: conn, r: br}, nil
}

// responseError turns an error answer into *APIError.
func responseError(resp *http.Response) error {
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, maxBodyBytes))
	var eb ErrorBody
	if err := json.Unmarshal(data, &eb); err != nil || eb.Error == "" {
		eb.Error = string(data)
	}
	return &APIError{Status: resp.StatusCode, Message: eb.Error, State: eb.State}
}

// Read reads the process's output (the screen first). io.EOF means the run
// ended or procs closed the connection.
func (a *AttachConn) Read(p []byte) (int, error) { return a.r.Read(p) }

// Input sends keystrokes to the process.
func (a *AttachConn) Input(data []byte) error { return writeFrame(a.conn, frameInput, data) }

// Resize tells the process the new window size.
func (a *AttachConn) Resize(cols, rows int) error {
	if cols < 1 || rows < 1 || cols > 0xffff || rows > 0xffff {
		return errors.New("attach: bad window size")
	}
	var payload [4]byte
	binary.BigEndian.PutUint16(payload[:], uint16(cols))
	binary.BigEndian.PutUint16(payload[2:], uint16(rows))
	return writeFrame(a.conn, frameResize, payload[:])
}

// Close detaches; the process goes on.
func (a *AttachConn) Close() error { return a.conn.Close() }
