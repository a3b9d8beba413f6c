package rules

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func probeAt(at time.Duration, ok bool, answer, err string) step {
	return step{at, Event{Kind: EventProbe, Probe: ProbeResult{Kind: ProbeTCP, OK: ok, Answer: answer, Err: err, Time: t0.Add(at)}}}
}

// A preset's probe (redis PING → +PONG) holds readiness
// back while its server's port is open but the server does not answer as
// it should, and counts only for a port its own tree listens on.
func TestReadyProbeGatesReadiness(t *testing.T) {
	ping := &ProbeSpec{Kind: ProbeTCP, Addr: "localhost:6379", Send: "PING\r\n"}
	const readyLine = "* Ready to accept connections tcp"
	tests := []struct {
		name string
		spec Spec
		// before happens before the run may be ready; after makes it ready
		// (or not, when want is failed).
		before, after []step
		until         time.Duration
		want          State
		message       string
	}{
		{"line, then the probe answers",
			Spec{ReadyProbe: ping, ProbePort: 6379},
			[]step{lineAt(10*time.Millisecond, readyLine), portsAt(20*time.Millisecond, 6379), probeAt(30*time.Millisecond, false, "-LOADING Redis is loading the dataset in memory", "answered")},
			[]step{probeAt(900*time.Millisecond, true, "+PONG", "")}, time.Second,
			StateReady, `matched "* Ready to accept connections tcp"; probe "PING\r\n" to localhost:6379 answered "+PONG"`},
		{"silent server: listening and answering",
			Spec{ReadyProbe: ping, ProbePort: 11211, ReadyOnListen: true},
			[]step{portsAt(10*time.Millisecond, 11211)},
			[]step{probeAt(40*time.Millisecond, true, "VERSION 1.6.18", "")}, time.Second,
			StateReady, `listening on port 11211; probe "PING\r\n" to localhost:6379 answered "VERSION 1.6.18"`},
		{"no TCP port to ask: the line decides after a grace",
			Spec{ReadyProbe: ping, ProbePort: 5432},
			[]step{lineAt(10*time.Millisecond, readyLine)},
			nil, 10*time.Millisecond + probePortGrace,
			StateReady, `matched "* Ready to accept connections tcp"`},
		{"another port than the probe's is not asked",
			Spec{ReadyProbe: ping, ProbePort: 6379},
			[]step{portsAt(5*time.Millisecond, 7000), lineAt(10*time.Millisecond, readyLine)},
			nil, 10*time.Millisecond + probePortGrace,
			StateReady, `matched "* Ready to accept connections tcp"`},
		{"never answers: the timeout says what it answered",
			Spec{ReadyProbe: ping, ProbePort: 6379, ReadyTimeout: 2 * time.Second},
			[]step{lineAt(10*time.Millisecond, readyLine), portsAt(20*time.Millisecond, 6379), probeAt(30*time.Millisecond, false, "-LOADING", `tcp probe: sent "PING\r\n", answered "-LOADING", want /PONG/`)},
			nil, 3 * time.Second,
			StateFailed, `probe "PING\r\n" to localhost:6379 failing: tcp probe: sent "PING\r\n", answered "-LOADING", want /PONG/ after 2s`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := tt.spec
			if !spec.ReadyOnListen {
				spec.ReadyPatterns = mustPatterns(t, `Ready to accept`)
			}
			d := NewDetector(&spec, 1, t0)
			last := tt.before[len(tt.before)-1].at
			// Just before the grace or the answer, nothing is ready yet.
			history := drive(d, tt.before, last+probePortGrace-time.Millisecond)
			require.Empty(t, history, "not ready before the probe answers")
			history = drive(d, tt.after, tt.until)
			require.Equal(t, []State{tt.want}, states(history))
			assert.Contains(t, history[0].Message, tt.message)
		})
	}
}

// A probe that answered and then stops answering before the run settles
// holds it back again.
func TestReadyProbeMustStillAnswer(t *testing.T) {
	spec := Spec{ReadyProbe: &ProbeSpec{Kind: ProbeTCP, Addr: "localhost:1"}, ProbePort: 1, ReadyOnListen: true, StabilityDelay: 300 * time.Millisecond}
	d := NewDetector(&spec, 1, t0)
	history := drive(d, []step{portsAt(10*time.Millisecond, 1), probeAt(20*time.Millisecond, true, "", ""),
		probeAt(200*time.Millisecond, false, "", "refused")}, 600*time.Millisecond)
	require.Empty(t, history)
	history = drive(d, []step{probeAt(700*time.Millisecond, true, "", "")}, 2*time.Second)
	require.Equal(t, []State{StateReady}, states(history))
	assert.Contains(t, history[0].Message, "probe of localhost:1 connected")
}

func TestDescribeProbe(t *testing.T) {
	assert.Equal(t, "GET http://localhost:2379/health", DescribeProbe(ProbeSpec{Kind: ProbeHTTP, URL: "http://localhost:2379/health"}))
	assert.Equal(t, "pg_isready", DescribeProbe(ProbeSpec{Kind: ProbeExec, Argv: []string{"/usr/bin/pg_isready", "-p", "5432"}}))
	assert.Equal(t, `probe "version\r\n" to localhost:11211`, DescribeProbe(ProbeSpec{Kind: ProbeTCP, Addr: "localhost:11211", Send: "version\r\n"}))
}

func healthAt(at time.Duration, status int) step {
	r := ProbeResult{Kind: ProbeHTTP, Status: status, OK: status > 0 && status < 400, Time: t0.Add(at)}
	switch {
	case status == 0:
		r.Err = "http probe: Get \"http://127.0.0.1:8080/health\": dial tcp 127.0.0.1:8080: connect: connection refused"
	case !r.OK:
		r.Err = "GET http://127.0.0.1:8080/health: 404 Not Found"
	}
	return step{at, Event{Kind: EventProbe, Probe: r}}
}

// A healthcheck of procs.yaml is a promise too: a process whose
// healthcheck does not pass is not ready, whatever else says so (its line,
// its port, its running for a second), as docker compose's service_healthy
// and the exports (ExecStartPost=, readinessProbe) hold it.
func TestHealthcheckGatesReadiness(t *testing.T) {
	health := &ProbeSpec{Kind: ProbeHTTP, URL: "http://127.0.0.1:8080/health"}
	tests := []struct {
		name          string
		spec          Spec
		before, after []step
		message       string
	}{
		{"nothing else to wait for: not ready by running",
			Spec{Healthcheck: health},
			[]step{lineAt(10*time.Millisecond, "booting"), healthAt(20*time.Millisecond, 0), healthAt(1500*time.Millisecond, 404)},
			[]step{healthAt(2500*time.Millisecond, 200)},
			"GET http://127.0.0.1:8080/health answered 200"},
		{"a ready line and an open port: the healthcheck still decides",
			Spec{Healthcheck: health, Port: 8080, ReadyPatterns: mustPatterns(t, "listening")},
			[]step{lineAt(10*time.Millisecond, "listening on 8080"), portsAt(20*time.Millisecond, 8080), healthAt(30*time.Millisecond, 404)},
			[]step{healthAt(2500*time.Millisecond, 204)},
			`matched "listening on 8080"; port 8080 open; GET http://127.0.0.1:8080/health answered 204`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := NewDetector(&tt.spec, 1, t0)
			require.Empty(t, drive(d, tt.before, 2*time.Second), "not ready while the healthcheck fails")
			history := drive(d, tt.after, 3*time.Second)
			require.Equal(t, []State{StateReady}, states(history))
			assert.Contains(t, history[0].Message, tt.message)
		})
	}

	d := NewDetector(&Spec{Healthcheck: health, ReadyTimeout: 2 * time.Second}, 1, t0)
	history := drive(d, []step{healthAt(20*time.Millisecond, 0), healthAt(1*time.Second, 404)}, 3*time.Second)
	require.Equal(t, []State{StateFailed}, states(history))
	assert.Equal(t, "GET http://127.0.0.1:8080/health: 404 Not Found, no output after 2s", history[0].Message,
		"the timeout says what the healthcheck answered last")
}
