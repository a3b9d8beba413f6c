package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxFrameBytes bounds one newline-delimited JSON-RPC frame on stdio; a
// longer line is skipped, not buffered, and answered with an error.
const MaxFrameBytes = 8 << 20

// StdioTransport is the newline-delimited JSON transport of `procs mcp`
// over r and w. Unlike the SDK's, a malformed frame does not end the
// session: it is answered with the JSON-RPC error it deserves (-32700 for
// what is not JSON, -32600 for what is not a request: a wrong version, an
// object id, a batch, an oversized frame) and the next frame is read. The
// end of r ends the session.
type StdioTransport struct {
	Reader io.Reader
	Writer io.Writer
}

// Connect starts reading frames.
func (t *StdioTransport) Connect(context.Context) (sdk.Connection, error) {
	c := &stdioConn{w: t.Writer, frames: make(chan frameOrErr), closed: make(chan struct{})}
	go c.readFrames(bufio.NewReaderSize(t.Reader, 64<<10))
	return c, nil
}

type frameOrErr struct {
	msg jsonrpc.Message
	err error
}

// stdioConn is one session over stdio.
type stdioConn struct {
	writeMu   sync.Mutex
	w         io.Writer
	frames    chan frameOrErr
	closeOnce sync.Once
	closed    chan struct{}
}

// readFrames turns lines into messages, answering malformed ones itself,
// until r ends or the connection closes.
func (c *stdioConn) readFrames(r *bufio.Reader) {
	for {
		line, tooLong, err := readLine(r)
		if len(bytes.TrimSpace(line)) > 0 || tooLong {
			msg, id, code, reason := parseFrame(line, tooLong)
			if code != 0 {
				if werr := c.writeError(id, code, reason); werr != nil {
					c.deliver(frameOrErr{err: werr})
					return
				}
			} else if !c.deliver(frameOrErr{msg: msg}) {
				return
			}
		}
		if err != nil {
			c.deliver(frameOrErr{err: err})
			return
		}
	}
}

// deliver hands a frame to Read; false once the connection is closed.
func (c *stdioConn) deliver(f frameOrErr) bool {
	select {
	case c.frames <- f:
		return true
	case <-c.closed:
		return false
	}
}

// readLine reads one line of at most MaxFrameBytes; a longer one is read
// to its end and dropped, with tooLong set.
func readLine(r *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > MaxFrameBytes {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return line, tooLong, err
		}
	}
}

// parseFrame decodes one frame, or says which error answers it (code 0:
// none) and the id to answer with when the frame had a usable one.
func parseFrame(line []byte, tooLong bool) (msg jsonrpc.Message, id any, code int64, reason string) {
	if tooLong {
		return nil, nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("frame larger than %d bytes", MaxFrameBytes)
	}
	line = bytes.TrimSpace(line)
	if !json.Valid(line) {
		return nil, nil, jsonrpc.CodeParseError, "parse error: not a JSON value"
	}
	if line[0] != '{' {
		return nil, nil, jsonrpc.CodeInvalidRequest, "invalid request: a frame must be one JSON-RPC object (batches are not supported)"
	}
	var head struct {
		ID     any             `json:"id"`
		Method json.RawMessage `json:"method"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	_ = json.Unmarshal(line, &head)
	switch head.ID.(type) {
	case string, float64:
		id = head.ID
	}
	if head.Method == nil && head.Result == nil && head.Error == nil {
		return nil, id, jsonrpc.CodeInvalidRequest, "invalid request: no method (and not a response: no result or error)"
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		return nil, id, jsonrpc.CodeInvalidRequest, "invalid request: " + err.Error()
	}
	return msg, nil, 0, ""
}

// errorFrame is a JSON-RPC error response; ID is null when the frame had
// no usable id, as JSON-RPC asks.
type errorFrame struct {
	JSONRPC string         `json:"jsonrpc"`
	ID      any            `json:"id"`
	Error   *jsonrpc.Error `json:"error"`
}

func (c *stdioConn) writeError(id any, code int64, reason string) error {
	data, err := json.Marshal(errorFrame{JSONRPC: "2.0", ID: id, Error: &jsonrpc.Error{Code: code, Message: reason}})
	if err != nil {
		return fmt.Errorf("encode error answer: %w", err)
	}
	return c.writeLine(data)
}

func (c *stdioConn) writeLine(data []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, err := c.w.Write(append(data, '\n'))
	return err
}

// Read returns the next well-formed message; io.EOF once stdin ends.
func (c *stdioConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case f := <-c.frames:
		return f.msg, f.err
	case <-c.closed:
		return nil, io.EOF
	}
}

// Write sends one message as a line.
func (c *stdioConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("encode message: %w", err)
	}
	return c.writeLine(data)
}

// Close ends the session. The reader may stay blocked in a read of stdin,
// which cannot be interrupted; it ends with the process.
func (c *stdioConn) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return nil
}

// SessionID is empty: stdio has one session.
func (c *stdioConn) SessionID() string { return "" }
