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
