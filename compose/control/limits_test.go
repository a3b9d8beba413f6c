package control

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/procsdev/procs/internal/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// slowBodyRequest starts a request whose body never comes.
const slowBodyRequest = "POST /v1/procs/web/input HTTP/1.1\r\nHost: procs\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"

// TestSlowBodiesNeitherHoldProcsNorHideTheStatus opens 2000 connections
// that send a body one byte and then nothing: each is answered (503 beyond
// the cap, 408 once its body is late) and closed, and status answers
// within a second meanwhile.
func TestSlowBodiesNeitherHoldProcsNorHideTheStatus(t *testing.T) {
	bodyTimeout := bodyReadTimeout
	bodyReadTimeout = 2 * time.Second
	t.Cleanup(func() { bodyReadTimeout = bodyTimeout })
	h := startHarness(t, oneService)
	h.waitReady(t, "web")

	const slow = 2000
	conns := make([]net.Conn, 0, slow)
	t.Cleanup(func() {
		for _, c := range conns {
			c.Close()
		}
	})
	for range slow {
		conn, err := net.Dial("unix", h.client.Socket())
		require.NoError(t, err)
		// A connection refused at once may be closed before this write:
		// its 503 is still there to read.
		_, _ = conn.Write([]byte(slowBodyRequest))
		conns = append(conns, conn)
	}

	// Status still answers, through a fresh client, within a second.
	fresh, err := Dial(h.dir)
	require.NoError(t, err)
	defer fresh.Close()
	began := time.Now()
	list, err := fresh.List(testCtx(t))
	took := time.Since(began)
	require.NoError(t, err)
	require.Len(t, list, 1)
	assert.Less(t, took, time.Second, "status took %v with %d slow connections open", took, slow)
	t.Logf("status answered in %v with %d slow-body connections open", took, slow)

	// Every slow connection gets an answer and is closed: none is held.
	statuses := make(map[int]int)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, conn := range conns {
		wg.Go(func() {
			_ = conn.SetReadDeadline(time.Now().Add(testDeadline))
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			code := 0
			if err == nil {
				code = resp.StatusCode
				resp.Body.Close()
			}
			mu.Lock()
			statuses[code]++
			mu.Unlock()
		})
	}
	wg.Wait()
	t.Logf("answers: %v", statuses)
	assert.Zero(t, statuses[0], "connections held without an answer: %v", statuses)
	// Slots free up as bodies time out, so how many of each depends on
	// how fast the connections were opened; every one is one of the two.
	assert.Positive(t, statuses[http.StatusRequestTimeout], "the served ones time out on their body: %v", statuses)
	assert.Positive(t, statuses[http.StatusServiceUnavailable], "those beyond the cap are refused: %v", statuses)
	assert.Equal(t, slow, statuses[http.StatusRequestTimeout]+statuses[http.StatusServiceUnavailable], "%v", statuses)
}

func TestStatusRequestIsWhatTheReserveServes(t *testing.T) {
	for path, want := range map[string]bool{
		"/v1/info": true, "/v1/procs": true, "/v1/procs/web": true,
		"/v1/procs/web/wait": false, "/v1/events": false, "/v1/logs": false,
	} {
		r, err := http.NewRequest(http.MethodGet, "http://procs"+path, nil)
		require.NoError(t, err)
		assert.Equal(t, want, statusRequest(r), path)
	}
	r, err := http.NewRequest(http.MethodPost, "http://procs/v1/procs", nil)
	require.NoError(t, err)
	assert.False(t, statusRequest(r), fmt.Sprint("POST"))
}

// TestSilentConnectionsDoNotHideTheStatus opens 300 connections that send
// nothing, more than every slot: status still answers at once, through a
// fresh client, and procs holds no more descriptors than its cap.
func TestSilentConnectionsDoNotHideTheStatus(t *testing.T) {
	h := startHarness(t, oneService)
	h.waitReady(t, "web")
	baseline := testenv.OpenFDs(t)

	const silent = 300
	conns := make([]net.Conn, 0, silent)
	t.Cleanup(func() {
		for _, c := range conns {
			c.Close()
		}
	})
	for range silent {
		conn, err := net.Dial("unix", h.client.Socket())
		require.NoError(t, err)
		conns = append(conns, conn)
	}

	for range 3 {
		fresh, err := Dial(h.dir)
		require.NoError(t, err)
		began := time.Now()
		list, err := fresh.List(testCtx(t))
		took := time.Since(began)
		fresh.Close()
		require.NoError(t, err)
		require.Len(t, list, 1)
		assert.Less(t, took, time.Second, "status took %v with %d silent connections open", took, silent)
	}
	// What procs holds once it has answered the connections it turned away
	// (each 503 is written and closed on a goroutine of its own, which a
	// loaded machine may run a moment after the last status answered).
	held := func() int { return testenv.OpenFDs(t) - baseline - len(conns) }
	assert.Eventually(t, func() bool { return held() <= maxConns+reservedConns+20 }, testDeadline, 20*time.Millisecond,
		"procs holds %d descriptors", held())
	t.Logf("status answered with %d silent connections open; procs holds %d descriptors for them", silent, held())
}
