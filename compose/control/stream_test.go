package control

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose"
	"github.com/procsdev/procs/rules"
)

func TestEventsStreamAndResume(t *testing.T) {
	h := startHarness(t, twoServices)
	h.waitReady(t, "web", "api")

	// Replay from the start: the kept state events come first, in order.
	var seen []compose.Event
	errEnough := errors.New("enough")
	err := h.client.Events(testCtx(t), EventsOptions{After: 0}, func(ev compose.Event) error {
		seen = append(seen, ev)
		if ev.Proc == "api" && ev.To == rules.StateReady {
			return errEnough
		}
		return nil
	})
	require.ErrorIs(t, err, errEnough)
	require.GreaterOrEqual(t, len(seen), 4)
	for i := 1; i < len(seen); i++ {
		assert.Greater(t, seen[i].Seq, seen[i-1].Seq)
	}

	// Resume with Last-Event-ID: only later events arrive, as SSE.
	resumeAt := seen[1].Seq
	req, err := http.NewRequestWithContext(testCtx(t), http.MethodGet, "http://procs/v1/events", nil)
	require.NoError(t, err)
	req.Header.Set("Last-Event-ID", strconv.FormatInt(resumeAt, 10))
	resp, err := h.client.http.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
	sc := bufio.NewScanner(resp.Body)
	require.True(t, sc.Scan())
	assert.Equal(t, fmt.Sprintf("id: %d", seen[2].Seq), sc.Text())
	require.True(t, sc.Scan())
	assert.True(t, strings.HasPrefix(sc.Text(), `data: {"seq":`+strconv.FormatInt(seen[2].Seq, 10)), sc.Text())

	// Live events follow: a restart shows up on a fresh subscription.
	restarted := make(chan struct{})
	opened := make(chan struct{})
	ctx, cancel := context.WithCancel(testCtx(t))
	defer cancel()
	go func() {
		_ = h.client.Events(ctx, EventsOptions{After: -1, Procs: []string{"web"},
			OnOpen: func() error { close(opened); return nil }}, func(ev compose.Event) error {
			if ev.Run == 2 && ev.To == rules.StateReady {
				close(restarted)
				return errEnough
			}
			return nil
		})
	}()
	<-opened
	_, err = h.client.Restart(testCtx(t), "web", ActionOptions{NoWait: true})
	require.NoError(t, err)
	select {
	case <-restarted:
	case <-time.After(testDeadline):
		t.Fatal("no ready event for run 2")
	}
}

const noisyAndSteady = `
procs:
  noisy:
    command: python3 -u -c "import sys; print('ready'); [sys.stdout.write('x' * 200 + ' %d\n' % i) for i in range(200000)]; sys.stdout.flush(); import time; time.sleep(300)"
    readyPatterns: [ready]
  steady:
    command: echo ready; sleep 300
    readyPatterns: [ready]
  scratch:
    command: echo ready; sleep 300
    readyPatterns: [ready]
`

// A follower that stops reading holds nothing up: other clients, the engine
// and the processes go on.
func TestStalledFollowerDisturbsNothing(t *testing.T) {
	h := startHarness(t, noisyAndSteady)
	h.waitReady(t, "steady", "scratch")

	for _, path := range []string{"/v1/procs/noisy/logs?follow=true&tail=all", "/v1/events?lines=true"} {
		conn, err := net.Dial("unix", h.server.Path())
		require.NoError(t, err)
		defer conn.Close()
		_, err = fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: procs\r\n\r\n", path)
		require.NoError(t, err)
		// Never read from conn.
	}
	h.waitReady(t, "noisy")
	res, err := h.client.Restart(testCtx(t), "scratch", ActionOptions{})
	require.NoError(t, err)
	assert.True(t, res.Success, res.Message)
	// Another follower still receives noisy's latest lines.
	tail := 1
	got := 0
	require.NoError(t, h.client.Logs(testCtx(t), LogsOptions{Procs: []string{"noisy"}, Tail: &tail}, func(LogLine) error {
		got++
		return nil
	}))
	assert.Equal(t, 1, got)
	st, err := h.client.Get(testCtx(t), "steady")
	require.NoError(t, err)
	assert.Equal(t, 1, st.Run)
	assert.Equal(t, rules.StateReady, st.State)
}

// Fifty clients at once asking for status and logs and restarting a scratch
// process: every request is answered and an unrelated process is never
// restarted.
func TestManyConcurrentClients(t *testing.T) {
	h := startHarness(t, noisyAndSteady)
	h.waitReady(t, "steady", "scratch", "noisy")
	const clients = 50
	deadline := time.Now().Add(3 * time.Second)
	var requests, failures atomic.Int64
	var wg sync.WaitGroup
	for i := range clients {
		wg.Go(func() {
			c, err := Dial(h.dir)
			if !assert.NoError(t, err) {
				return
			}
			defer c.Close()
			tail := 20
			for time.Now().Before(deadline) {
				ctx := testCtx(t)
				switch i % 3 {
				case 0:
					_, err = c.List(ctx)
				case 1:
					err = c.Logs(ctx, LogsOptions{Procs: []string{"noisy", "steady"}, Tail: &tail}, func(LogLine) error { return nil })
				case 2:
					var res rules.Result
					res, err = c.Restart(ctx, "scratch", ActionOptions{Timeout: testDeadline})
					if err == nil && !res.Success {
						failures.Add(1)
					}
				}
				if !assert.NoError(t, err) {
					return
				}
				requests.Add(1)
			}
		})
	}
	wg.Wait()
	t.Logf("%d requests in 3s, %d restart results not ready", requests.Load(), failures.Load())
	st, err := h.client.Get(testCtx(t), "steady")
	require.NoError(t, err)
	assert.Equal(t, 1, st.Run, "steady must never be restarted")
	assert.Equal(t, rules.StateReady, st.State)
	h.waitReady(t, "scratch")
}
