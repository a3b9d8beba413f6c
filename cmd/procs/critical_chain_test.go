package main

import (
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/procsdev/procs/compose"
	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/rules"
)

// timedRun is a process of a chain test: its start, ready (or completed) time
// in ms from 0, and its dependencies. done < 0 is a process never ready.
type timedRun struct {
	name        string
	start, done int
	task        bool
	deps        []string
	// waited is the dependency the engine recorded the run waited for.
	waited string
}

func (r timedRun) status(origin time.Time) compose.ProcStatus {
	at := func(ms int) *time.Time { t := origin.Add(time.Duration(ms) * time.Millisecond); return &t }
	st := compose.ProcStatus{Name: r.name, Kind: config.KindService, State: rules.StateStarting, DependsOn: r.deps, WaitedFor: r.waited, StartedAt: at(r.start)}
	switch {
	case r.done < 0:
	case r.task:
		st.Kind, st.State, st.Since = config.KindTask, rules.StateCompleted, *at(r.done)
		st.Reason = rules.ReasonCompleted
	default:
		st.State, st.ReadyAt, st.Reason, st.Message = rules.StateReady, at(r.done), rules.ReasonReady, "matched /up/"
	}
	return st
}

// TestAnalyzeCriticalChain: the chain ends at the process ready last and
// goes back through the dependency each run waited for.
func TestAnalyzeCriticalChain(t *testing.T) {
	tests := []struct {
		name string
		runs []timedRun
		want []string // name@offset+took
	}{
		{name: "none started", runs: nil, want: nil},
		{name: "one", runs: []timedRun{{name: "db", start: 10, done: 50}}, want: []string{"db@0+40"}},
		{
			name: "db migrate api",
			runs: []timedRun{
				{name: "api", start: 850, done: 1059, deps: []string{"db", "migrate"}, waited: "migrate"},
				{name: "db", start: 0, done: 748},
				{name: "migrate", start: 752, done: 847, task: true, deps: []string{"db"}, waited: "db"},
			},
			want: []string{"db@0+748", "migrate@752+95", "api@850+209"},
		},
		{
			name: "the slower of two dependencies",
			runs: []timedRun{
				{name: "cache", start: 0, done: 100},
				{name: "db", start: 0, done: 300},
				{name: "web", start: 310, done: 400, deps: []string{"cache", "db"}, waited: "db"},
			},
			want: []string{"db@0+300", "web@310+90"},
		},
		{
			name: "a dependency ready after the start is not on the chain",
			runs: []timedRun{
				{name: "db", start: 0, done: 100},
				{name: "log", start: 0, done: 900},
				{name: "web", start: 110, done: 200, deps: []string{"db", "log"}, waited: "db"},
			},
			want: []string{"log@0+900"},
		},
		{
			name: "a process never ready is left out",
			runs: []timedRun{
				{name: "db", start: 0, done: 100},
				{name: "web", start: 110, done: -1, deps: []string{"db"}, waited: "db"},
			},
			want: []string{"db@0+100"},
		},
		{
			name: "a dependency that is not running ends the chain",
			runs: []timedRun{{name: "web", start: 5, done: 20, deps: []string{"gone"}, waited: "gone"}},
			want: []string{"web@0+15"},
		},
		{
			name: "a restart, its dependency long ready, is a start of its own",
			runs: []timedRun{
				{name: "a", start: 0, done: 1000},
				{name: "b", start: 6119, done: 6123, deps: []string{"a"}},
			},
			want: []string{"b@0+4"},
		},
		{
			name: "a dependency restarted since is not the run it waited for",
			runs: []timedRun{
				{name: "db", start: 5000, done: 5100},
				{name: "web", start: 110, done: 9000, deps: []string{"db"}, waited: "db"},
			},
			want: []string{"web@0+8890"},
		},
	}
	origin := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var list []compose.ProcStatus
			for _, r := range tt.runs {
				list = append(list, r.status(origin))
			}
			var got []string
			for _, link := range criticalChain(list).Links {
				got = append(got, link.Name+"@"+strconv.FormatInt(link.OffsetMs, 10)+"+"+strconv.FormatInt(link.TookMs, 10))
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestAnalyzeChainText prints each link with its offset, what it became,
// how long it took and why.
func TestAnalyzeChainText(t *testing.T) {
	origin := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	list := []compose.ProcStatus{
		timedRun{name: "db", start: 0, done: 748}.status(origin),
		timedRun{name: "migrate", start: 752, done: 847, task: true, deps: []string{"db"}, waited: "db"}.status(origin),
		timedRun{name: "api", start: 850, done: 1059, deps: []string{"migrate"}, waited: "migrate"}.status(origin),
	}
	assert.Equal(t, []string{
		"+0ms db ready in 748ms: matched /up/",
		"+752ms migrate completed in 95ms (waited for db)",
		"+850ms api ready in 209ms: matched /up/ (waited for migrate)",
	}, criticalChain(list).lines())
}
