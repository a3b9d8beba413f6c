package rules

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestProbe(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/ok":
			w.WriteHeader(http.StatusOK)
		case "/moved":
			http.Redirect(w, r, "/elsewhere", http.StatusFound)
		default:
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}))
	defer srv.Close()
	_, openPort := listenLocal(t)
	closed, closedPort := listenLocal(t)
	closed.Close()

	tests := []struct {
		name       string
		spec       ProbeSpec
		wantOK     bool
		wantStatus int
		wantErr    string
	}{
		{"http 200", ProbeSpec{Kind: ProbeHTTP, URL: srv.URL + "/ok"}, true, 200, ""},
		{"http redirect is an answer", ProbeSpec{Kind: ProbeHTTP, URL: srv.URL + "/moved"}, true, 302, ""},
		{"http 503", ProbeSpec{Kind: ProbeHTTP, URL: srv.URL + "/down"}, false, 503, "503 Service Unavailable"},
		{"http refused", ProbeSpec{Kind: ProbeHTTP, URL: "http://127.0.0.1:" + itoa(closedPort)}, false, 0, "connection refused"},
		{"tcp open", ProbeSpec{Kind: ProbeTCP, Addr: "127.0.0.1:" + itoa(openPort)}, true, 0, ""},
		{"tcp refused", ProbeSpec{Kind: ProbeTCP, Addr: "127.0.0.1:" + itoa(closedPort)}, false, 0, "connection refused"},
		{"exec ok", ProbeSpec{Kind: ProbeExec, Argv: []string{"sh", "-c", "exit 0"}}, true, 0, ""},
		{"exec exit 1", ProbeSpec{Kind: ProbeExec, Argv: []string{"sh", "-c", "echo not yet >&2; exit 1"}}, false, 1, "not yet"},
		{"exec in dir", ProbeSpec{Kind: ProbeExec, Argv: []string{"sh", "-c", "test -f marker"}, Dir: markerDir(t)}, true, 0, ""},
		{"exec timeout", ProbeSpec{Kind: ProbeExec, Argv: []string{"sleep", "30"}, Timeout: 100 * time.Millisecond}, false, -1, "exec probe timed out after 100ms"},
		{"exec missing", ProbeSpec{Kind: ProbeExec, Argv: []string{"/nonexistent/probe"}}, false, -1, "no such file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Probe(context.Background(), tt.spec)
			assert.Equal(t, tt.spec.Kind, r.Kind)
			assert.Equal(t, tt.wantOK, r.OK, "%+v", r)
			assert.Equal(t, tt.wantStatus, r.Status)
			assert.False(t, r.Time.IsZero())
			if tt.wantErr == "" {
				assert.Empty(t, r.Err)
			} else {
				assert.Contains(t, r.Err, tt.wantErr)
			}
		})
	}
}

func TestRunProbeLoopsUntilCancel(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	results := make(chan ProbeResult, 100)
	done := make(chan struct{})
	go func() {
		defer close(done)
		RunProbe(ctx, ProbeSpec{Kind: ProbeHTTP, URL: srv.URL}, 5*time.Millisecond, func(r ProbeResult) { results <- r })
	}()
	for range 3 {
		select {
		case r := <-results:
			require.True(t, r.OK, "%+v", r)
		case <-time.After(waitLong):
			t.Fatal("no probe result")
		}
	}
	cancel()
	select {
	case <-done:
	case <-time.After(waitLong):
		t.Fatal("RunProbe did not return after cancel")
	}
}

// Probe results are events: an http probe can make a rule true.
func TestProbeResultFeedsDetector(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	d := NewDetector(&Spec{Rule: mustRule(t, "http.status == 200")}, 1, time.Now())
	r := Probe(context.Background(), ProbeSpec{Kind: ProbeHTTP, URL: srv.URL})
	v, changed := d.Handle(Event{Kind: EventProbe, Time: r.Time, Probe: r})
	assert.True(t, changed)
	assert.Equal(t, StateReady, v.State)
}

func markerDir(t *testing.T) string {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(dir+"/marker", nil, 0o644))
	return dir
}

func itoa(n int) string { return strconv.Itoa(n) }
