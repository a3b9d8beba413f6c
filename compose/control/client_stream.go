package control

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/procsdev/procs/compose/wire"
)

// LogsOptions says which lines Logs returns.
type LogsOptions struct {
	// Procs are the processes to read (all when empty).
	Procs []string
	// Tail is how many recent lines to return first (< 0: all kept, 0: none
	// with Follow; the server's default of 100 when unset and not Follow).
	Tail *int
	// Since keeps only lines after this RFC 3339 time or duration ago.
	Since string
	// Follow keeps streaming new lines until ctx ends or procs stops.
	Follow bool
}

// Logs calls fn for each line, oldest first. With Follow it returns when
// ctx ends (nil error) or procs stops (io.EOF wrapped as nil).
func (c *Client) Logs(ctx context.Context, opts LogsOptions, fn func(LogLine) error) error {
	query := url.Values{}
	if opts.Tail != nil {
		query.Set("tail", strconv.Itoa(*opts.Tail))
	}
	if opts.Since != "" {
		query.Set("since", opts.Since)
	}
	if opts.Follow {
		query.Set("follow", "true")
	}
	if len(opts.Procs) > 0 {
		query.Set("proc", strings.Join(opts.Procs, ","))
	}
	ctx, stop := c.watch(ctx)
	defer stop()
	resp, err := c.do(ctx, http.MethodGet, "/v1/logs", query, nil)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	dec := json.NewDecoder(resp.Body)
	for {
		var l LogLine
		if err := dec.Decode(&l); err != nil {
			return endOfStream(ctx, err)
		}
		if err := fn(l); err != nil {
			return err
		}
	}
}

// EventsOptions says which events Events delivers.
type EventsOptions struct {
	// Lines includes output lines.
	Lines bool
	// Procs keeps only events of these processes (all when empty).
	Procs []string
	// After replays the kept state events after this sequence number (< 0: none).
	After int64
	// Snapshot first delivers the present state of each process, as state
	// events marked Snapshot, then the replayed and the live events.
	Snapshot bool
	// OnOpen, when set, is called once the server has subscribed, before any
	// event is read: what happens from then on will be delivered. Its error
	// ends Events with that error.
	OnOpen func() error
}

// Events calls fn for each event until ctx ends, fn fails, or procs stops;
// the last two return nil for a clean end and fn's error otherwise.
// A Seq of 0 with Type "dropped" reports lines dropped for a slow reader.
func (c *Client) Events(ctx context.Context, opts EventsOptions, fn func(wire.Event) error) error {
	query := url.Values{}
	if opts.Lines {
		query.Set("lines", "true")
	}
	if len(opts.Procs) > 0 {
		query.Set("proc", strings.Join(opts.Procs, ","))
	}
	if opts.After >= 0 {
		query.Set("after", strconv.FormatInt(opts.After, 10))
	}
	if opts.Snapshot {
		query.Set("snapshot", "true")
	}
	ctx, stop := c.watch(ctx)
	defer stop()
	resp, err := c.do(ctx, http.MethodGet, "/v1/events", query, nil)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if opts.OnOpen != nil {
		if err := opts.OnOpen(); err != nil {
			return err
		}
	}
	return readSSE(ctx, resp.Body, fn)
}

// EventDropped is the Type of the pseudo-event that reports dropped lines
// (its Message says how many).
const EventDropped wire.EventType = "dropped"

// readSSE parses a Server-Sent Events stream of JSON events.
func readSSE(ctx context.Context, body io.Reader, fn func(wire.Event) error) error {
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	var kind, data string
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if data != "" {
				ev, err := decodeSSE(kind, data)
				if err != nil {
					return err
				}
				if err := fn(ev); err != nil {
					return err
				}
			}
			kind, data = "", ""
		case strings.HasPrefix(line, "data: "):
			data += strings.TrimPrefix(line, "data: ")
		case strings.HasPrefix(line, "event: "):
			kind = strings.TrimPrefix(line, "event: ")
		}
	}
	return endOfStream(ctx, sc.Err())
}

func decodeSSE(kind, data string) (wire.Event, error) {
	if kind == string(EventDropped) {
		var d struct{ Dropped int }
		_ = json.Unmarshal([]byte(data), &d)
		return wire.Event{Type: EventDropped, Time: time.Now(), Message: fmt.Sprintf("%d lines dropped", d.Dropped)}, nil
	}
	var ev wire.Event
	if err := json.Unmarshal([]byte(data), &ev); err != nil {
		return ev, fmt.Errorf("read event: %w", err)
	}
	return ev, nil
}

// endOfStream turns the end of a stream into nil when procs closed it or
// the caller cancelled, and keeps other errors; a stream cut because procs
// stopped answering ends with a *NotAnsweringError.
func endOfStream(ctx context.Context, err error) error {
	var silent *NotAnsweringError
	if ctx.Err() != nil && errors.As(context.Cause(ctx), &silent) {
		return silent
	}
	if err == nil || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || ctx.Err() != nil {
		return nil
	}
	return fmt.Errorf("stream: %w", err)
}
