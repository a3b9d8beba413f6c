package rules

import (
	"bufio"
	"context"
	"net"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// greeter serves a line protocol on a free port: each connection reads one
// line and writes answer (nothing when empty; it then closes when hangUp).
func greeter(t *testing.T, answer string, hangUp bool) string {
	t.Helper()
	ln, port := listenLocal(t)
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				if _, err := bufio.NewReader(conn).ReadString('\n'); err != nil {
					return
				}
				if answer != "" {
					_, _ = conn.Write([]byte(answer))
				}
				if answer == "" && !hangUp {
					// Silent: hold the connection until the client leaves.
					_, _ = conn.Read(make([]byte, 1))
				}
			}()
		}
	}()
	return net.JoinHostPort("127.0.0.1", itoa(port))
}

// A greeting probe passes only when the server answers as it should: redis
// while loading answers -LOADING, a port held by something else answers
// nothing or closes.
func TestGreetingProbe(t *testing.T) {
	pong := &Pattern{Source: `^(\+PONG|-NOAUTH)`}
	pong.Re = mustPatterns(t, pong.Source)[0].Re
	amqp := &Pattern{Source: `^\x01\x00\x00`}
	amqp.Re = mustPatterns(t, amqp.Source)[0].Re
	tests := []struct {
		name    string
		addr    string
		send    string
		expect  *Pattern
		timeout time.Duration
		wantOK  bool
		answer  string
		err     string
	}{
		{"pong", greeter(t, "+PONG\r\n", false), "PING\r\n", pong, 0, true, "+PONG", ""},
		{"auth required still answers", greeter(t, "-NOAUTH Authentication required.\r\n", false), "PING\r\n", pong, 0, true, "-NOAUTH Authentication required.", ""},
		{"loading", greeter(t, "-LOADING Redis is loading the dataset in memory\r\n", false), "PING\r\n", pong, 0, false,
			"-LOADING Redis is loading the dataset in memory", `answered "-LOADING Redis is loading the dataset in memory", want /^(\+PONG|-NOAUTH)/`},
		{"binary frame", greeter(t, "\x01\x00\x00\x00\x00\x01\xf5\x00\x0a", false), "AMQP\x00\x00\x09\x01\n", amqp, 0, true, "\x01\x00\x00\x00\x00\x01\xf5\x00", ""},
		{"any answer", greeter(t, "VERSION 1.6.18\r\n", false), "version\r\n", nil, 0, true, "VERSION 1.6.18", ""},
		{"closed without answer", greeter(t, "", true), "PING\r\n", pong, 0, false, "", "connection closed without an answer"},
		{"silent", greeter(t, "", false), "PING\r\n", pong, 200 * time.Millisecond, false, "", "tcp probe timed out after 200ms"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Probe(context.Background(), ProbeSpec{Kind: ProbeTCP, Addr: tt.addr, Send: tt.send, Expect: tt.expect, Timeout: tt.timeout})
			require.Equal(t, tt.wantOK, r.OK, "%+v", r)
			assert.Equal(t, tt.answer, r.Answer)
			if tt.err == "" {
				assert.Empty(t, r.Err)
			} else {
				assert.Contains(t, r.Err, tt.err)
			}
		})
	}
}
