package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// stdioSession is `procs mcp` on real pipes: what the test writes is the
// server's stdin, what the server writes comes back line by line.
type stdioSession struct {
	stdin   *io.PipeWriter
	answers chan map[string]any
	ended   chan error
}

func startStdio(t *testing.T, dir string) *stdioSession {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	server := New(Options{Dir: dir, Version: "test"})
	s := &stdioSession{stdin: inW, answers: make(chan map[string]any, 64), ended: make(chan error, 1)}
	go func() {
		s.ended <- server.Run(context.Background(), &StdioTransport{Reader: inR, Writer: outW})
		outW.Close()
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			var m map[string]any
			if json.Unmarshal(sc.Bytes(), &m) == nil {
				s.answers <- m
			}
		}
		close(s.answers)
	}()
	t.Cleanup(func() {
		inW.Close()
		outR.Close()
		server.Close()
	})
	return s
}

func (s *stdioSession) send(t *testing.T, frame string) {
	t.Helper()
	_, err := io.WriteString(s.stdin, frame+"\n")
	require.NoError(t, err)
}

// next returns the next message the server wrote that is not a notification.
func (s *stdioSession) next(t *testing.T) map[string]any {
	t.Helper()
	for {
		select {
		case m, ok := <-s.answers:
			require.True(t, ok, "the server ended its output")
			if _, isNote := m["method"]; isNote {
				continue
			}
			return m
		case <-time.After(testDeadline):
			t.Fatal("no answer from the server")
			return nil
		}
	}
}

const initializeFrame = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

func (s *stdioSession) initialize(t *testing.T) {
	t.Helper()
	s.send(t, initializeFrame)
	require.Contains(t, s.next(t), "result")
	s.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// errorCode is the error code of an answer, 0 when it is not an error.
func errorCode(m map[string]any) int {
	e, ok := m["error"].(map[string]any)
	if !ok {
		return 0
	}
	code, _ := e["code"].(float64)
	return int(code)
}

func TestMalformedFramesAreAnsweredAndServingGoesOn(t *testing.T) {
	frames := []struct {
		name, frame string
		code        int
		id          any
	}{
		{"not json", "this is not json", -32700, nil},
		{"no jsonrpc", `{"foo":1}`, -32600, nil},
		{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":7,"method":"ping"}`, -32600, float64(7)},
		{"object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, -32600, nil},
		{"batch", `[{"jsonrpc":"2.0","id":8,"method":"ping"}]`, -32600, nil},
		{"empty batch", `[]`, -32600, nil},
		{"a million [", strings.Repeat("[", 1_000_000), -32700, nil},
		{"100 MiB line", `{"jsonrpc":"2.0","id":9,"method":"ping","params":{"x":"` + strings.Repeat("x", 100<<20) + `"}}`, -32600, nil},
		{"neither request nor response", `{"jsonrpc":"2.0","id":10}`, -32600, float64(10)},
		{"a bare number", `123`, -32600, nil},
	}
	s := startStdio(t, t.TempDir())
	s.initialize(t)
	for i, f := range frames {
		t.Run(f.name, func(t *testing.T) {
			s.send(t, f.frame)
			answer := s.next(t)
			assert.Equal(t, f.code, errorCode(answer), "%v", answer)
			assert.Equal(t, f.id, answer["id"])
			// Still serving.
			s.send(t, `{"jsonrpc":"2.0","id":"p`+string(rune('a'+i))+`","method":"ping"}`)
			pong := s.next(t)
			assert.Equal(t, "p"+string(rune('a'+i)), pong["id"])
			assert.Contains(t, pong, "result")
		})
	}
}

func TestGarbageRightAfterInitializeKeepsItsAnswer(t *testing.T) {
	s := startStdio(t, t.TempDir())
	s.send(t, initializeFrame+"\nthis is not json")
	// Both are answered, in either order.
	answers := []map[string]any{s.next(t), s.next(t)}
	if answers[0]["id"] == nil {
		answers[0], answers[1] = answers[1], answers[0]
	}
	assert.Equal(t, float64(1), answers[0]["id"])
	assert.Contains(t, answers[0], "result")
	assert.Equal(t, -32700, errorCode(answers[1]))
}

func TestEOFOnStdinEndsTheServer(t *testing.T) {
	s := startStdio(t, t.TempDir())
	s.initialize(t)
	require.NoError(t, s.stdin.Close())
	select {
	case err := <-s.ended:
		assert.NoError(t, err)
	case <-time.After(testDeadline):
		t.Fatal("the server ignored the end of its input")
	}
}

const neverReadyProject = `
procs:
  never:
    command: sleep 300
    readyPatterns: ['never printed']
`

// TestCancelledUpIsAnsweredAndEOFStillEnds cancels an up that waits for a
// process that is never ready: the call is answered, and the end of input
// then ends the server.
func TestCancelledUpIsAnsweredAndEOFStillEnds(t *testing.T) {
	dir := t.TempDir()
	mustStartProcs(t, dir, neverReadyProject)
	s := startStdio(t, dir)
	s.initialize(t)
	s.send(t, `{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"up","arguments":{"wait":true,"timeout":"10m"}}}`)
	s.send(t, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":42,"reason":"test"}}`)
	answer := s.next(t)
	assert.Equal(t, float64(42), answer["id"], "%v", answer)
	require.NoError(t, s.stdin.Close())
	select {
	case <-s.ended:
	case <-time.After(testDeadline):
		t.Fatal("the server ignored the end of its input after a cancelled call")
	}
}
