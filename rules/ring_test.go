package rules

import (
	"encoding/json"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRing(t *testing.T) {
	r := NewRing(3)
	assert.Empty(t, r.Last(10))
	for i := range 5 {
		r.Add(Line{Text: strconv.Itoa(i), Time: t0.Add(time.Duration(i) * time.Second)})
	}
	assert.Equal(t, []string{"2", "3", "4"}, texts(r.Last(10)), "bounded, oldest first")
	assert.Equal(t, []string{"3", "4"}, texts(r.Last(2)))
	assert.Equal(t, []string{"3", "4"}, texts(r.Since(t0.Add(3*time.Second))))
	assert.Empty(t, r.Since(t0.Add(time.Hour)))
}

// The engine adds while API goroutines read; -race checks it.
func TestRingConcurrent(t *testing.T) {
	r := NewRing(16)
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := range 1000 {
			r.Add(Line{Text: strconv.Itoa(i), Time: time.Now()})
		}
	})
	for range 4 {
		wg.Go(func() {
			for range 200 {
				assert.LessOrEqual(t, len(r.Last(10)), 10)
				_ = r.Since(t0)
			}
		})
	}
	wg.Wait()
	assert.Equal(t, "999", r.Last(1)[0].Text)
}

func TestResultJSON(t *testing.T) {
	ring := NewRing(50)
	ring.Add(Line{Text: "old run", Time: t0.Add(-time.Second)})
	ring.Add(Line{Text: "", Time: t0.Add(time.Millisecond)})
	for i := range 12 {
		ring.Add(Line{Text: "line " + strconv.Itoa(i), Time: t0.Add(time.Duration(i+2) * time.Millisecond)})
	}
	v := Verdict{State: StateReady, Reason: "ready", Message: `matched "Local:   http://localhost:5173/"; port 5173 open`}
	res := NewResult("web", 3, v, true, t0, t0.Add(412*time.Millisecond), []int{5173}, ring)
	data, err := json.Marshal(res)
	require.NoError(t, err)
	assert.JSONEq(t, `{"name":"web","success":true,"state":"ready","run":3,"durationMs":412,
		"message":"ready: matched \"Local:   http://localhost:5173/\"; port 5173 open","ports":[5173],
		"logs":["line 2","line 3","line 4","line 5","line 6","line 7","line 8","line 9","line 10","line 11"]}`, string(data))

	empty := NewResult("db", 1, Verdict{State: StateFailed, Reason: "crash", Message: "exit code 1"}, false, t0, t0, nil, nil)
	data, err = json.Marshal(empty)
	require.NoError(t, err)
	assert.JSONEq(t, `{"name":"db","success":false,"state":"failed","run":1,"durationMs":0,"message":"crash: exit code 1","ports":[],"logs":[]}`, string(data))
}

// A ring is bounded by the bytes of its lines as well as
// their number, and a plain line's text and raw bytes count once.
func TestRingBoundedByBytes(t *testing.T) {
	r := NewRingSized(1000, 10<<10)
	split := NewSplitter(StreamStdout, 4<<10, func(l Line) { r.Add(l) })
	piece := make([]byte, 4<<10) // three pieces of one long line fit in 10 KiB, not four
	for i := range piece {
		piece[i] = 'x'
	}
	for range 8 {
		_, _ = split.Write(piece)
	}
	_, _ = split.Write([]byte("\nend\n"))
	// Eight 4 KiB pieces (the last one cut too), an empty line ended by
	// the newline, "end": two pieces fit with the short lines, not three.
	lines := r.Last(-1)
	require.Equal(t, 4, len(lines))
	assert.Equal(t, []string{"", "end"}, texts(lines[2:]))
	assert.True(t, lines[0].Cut && lines[1].Cut)

	huge := NewRingSized(10, 100)
	huge.Add(Line{Raw: make([]byte, 1000), Text: "x"})
	assert.Len(t, huge.Last(-1), 1, "the newest line is kept even when it alone is over the bound")
	huge.Add(Line{Text: "y"})
	assert.Equal(t, []string{"y"}, texts(huge.Last(-1)))
}

// A ring takes memory as lines arrive, not up front, and after wrapping
// around many times still returns the newest lines in order.
func TestRingGrowsLazily(t *testing.T) {
	r := NewRingSized(1000, 1<<20)
	assert.Zero(t, cap(r.lines), "nothing allocated before the first line")
	r.Add(Line{Text: "a"})
	assert.LessOrEqual(t, cap(r.lines), 16)
	for i := range 2500 {
		r.Add(Line{Text: strconv.Itoa(i)})
	}
	last := texts(r.Last(-1))
	require.Len(t, last, 1000)
	assert.Equal(t, "1500", last[0])
	assert.Equal(t, "2499", last[999])
}
