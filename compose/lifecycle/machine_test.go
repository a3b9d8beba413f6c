package lifecycle

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/rules"
)

// clock is a test clock the tests move by hand.
type clock struct{ t time.Time }

func (c *clock) now() time.Time          { return c.t }
func (c *clock) advance(d time.Duration) { c.t = c.t.Add(d) }
func newClock() *clock                   { return &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)} }
func parse(t testing.TB, text string) *config.Config {
	t.Helper()
	cfg, err := config.Parse("/project/procs.yaml", []byte(text), nil)
	require.NoError(t, err)
	return cfg
}

// rig is a machine on a parsed config with a test clock, and the effects
// it has emitted so far.
type rig struct {
	t     *testing.T
	m     *Machine
	clock *clock
	seen  []Effect
}

func newRig(t *testing.T, text string, opts Options) *rig {
	t.Helper()
	cfg := parse(t, text)
	order, err := cfg.StartOrder()
	require.NoError(t, err)
	wanted := map[string]bool{}
	for _, name := range order {
		wanted[name] = !cfg.Procs[name].Disabled
	}
	c := newClock()
	opts.Clock = c.now
	m := New(cfg, order, wanted, nil, opts)
	r := &rig{t: t, m: m, clock: c}
	m.Begin()
	r.take()
	return r
}

// take collects the effects emitted since the last take.
func (r *rig) take() []Effect {
	effects := r.m.Effects()
	r.seen = append(r.seen, effects...)
	return effects
}

// edges lists the transitions among effects as "name:from>to".
func edges(effects []Effect) []string {
	var out []string
	for _, e := range effects {
		if t, ok := e.(Transition); ok {
			out = append(out, fmt.Sprintf("%s:%s>%s", t.Name, t.From, t.To))
		}
	}
	return out
}

// step is one input of a script and the transitions it must cause.
type step struct {
	do   func(r *rig)
	want []string
}

func becomesReady(name string) func(r *rig) {
	return func(r *rig) {
		r.m.Verdict(name, r.m.Proc(name).Run, rules.Verdict{State: rules.StateReady, Reason: rules.ReasonReady})
	}
}

func exits(name string, v rules.Verdict) func(r *rig) {
	return func(r *rig) {
		p := r.m.Proc(name)
		r.m.Started(name, p.Run, 100) // it ran: an exit code is kept
		r.m.Exited(name, p.Run, v)
	}
}

var (
	exit0    = rules.Verdict{State: rules.StateCompleted, Reason: rules.ReasonCompleted}
	crash    = rules.Verdict{State: rules.StateFailed, Reason: rules.ReasonCrash, Message: "exit code 1", ExitCode: 1}
	stopExit = rules.Verdict{State: rules.StateStopped, Reason: rules.ReasonStopped, Message: "stopped on request (SIGTERM)"}
	errLine  = rules.Verdict{State: rules.StateFailed, Reason: rules.ReasonError, Message: `error line "panic: boom"`, Line: "panic: boom"}
)

// TestMachineScripts walks the lifecycle through scripts of inputs, each
// step with the transitions it must cause, in order.
func TestMachineScripts(t *testing.T) {
	const stack = `
procs:
  db: {command: db}
  migrate: {command: migrate, kind: task, dependsOn: {db: ready}}
  api: {command: api, dependsOn: {migrate: completed, db: {condition: ready, restart: true}}}
`
	tests := []struct {
		name   string
		config string
		opts   Options
		steps  []step
	}{{
		name: "dependency order gates on ready and completed", config: stack,
		steps: []step{
			{becomesReady("db"), []string{"db:starting>ready", "migrate:pending>starting"}},
			{exits("migrate", exit0), []string{"migrate:starting>completed", "api:pending>starting"}},
			{becomesReady("api"), []string{"api:starting>ready"}},
		},
	}, {
		name: "a failed dependency blocks its dependents", config: stack,
		steps: []step{
			{exits("db", crash), []string{"db:starting>failed", "migrate:pending>blocked", "api:pending>blocked"}},
			{func(r *rig) { _, _ = r.m.Start("db") }, []string{"db:failed>pending", "db:pending>starting", "migrate:blocked>pending", "api:blocked>pending"}},
		},
	}, {
		name: "a restart waits for the run to end, then dependents with restart: true follow", config: stack,
		steps: []step{
			{becomesReady("db"), []string{"db:starting>ready", "migrate:pending>starting"}},
			{exits("migrate", exit0), []string{"migrate:starting>completed", "api:pending>starting"}},
			{becomesReady("api"), []string{"api:starting>ready"}},
			{func(r *rig) { _, _ = r.m.Restart([]string{"db"}, false) }, []string{"db:ready>stopping"}},
			{exits("db", stopExit), []string{"db:stopping>pending", "db:pending>starting"}},
			{becomesReady("db"), []string{"db:starting>ready", "api:ready>stopping"}},
			{exits("api", stopExit), []string{"api:stopping>pending", "api:pending>starting"}},
		},
	}, {
		name: "the restart policy backs off, then gives up", config: `
procs:
  crash: {command: crash, restart: {policy: on-failure, maxRestarts: 1, backoff: 1s..1s}}
`,
		steps: []step{
			{exits("crash", crash), []string{"crash:starting>failed", "crash:failed>backoff"}},
			{func(r *rig) { r.m.BackoffFired("crash", 1) }, []string{"crash:backoff>pending", "crash:pending>starting"}},
			{exits("crash", crash), []string{"crash:starting>failed"}},
		},
	}, {
		name: "an error line stops a run its policy restarts; the failure stands", config: `
procs:
  web: {command: web, restart: {policy: on-failure}}
`,
		steps: []step{
			{func(r *rig) { r.m.Verdict("web", 1, errLine) }, []string{"web:starting>failed"}},
			// The failure stays, saying procs stopped it; then the policy.
			{exits("web", stopExit), []string{"web:failed>failed", "web:failed>backoff"}},
		},
	}, {
		name: "down stops dependents first; pending ones stop at once", config: stack,
		steps: []step{
			{becomesReady("db"), []string{"db:starting>ready", "migrate:pending>starting"}},
			{func(r *rig) { r.m.Down("down") }, []string{"api:pending>stopped", "migrate:starting>stopping"}},
			{exits("migrate", stopExit), []string{"migrate:stopping>stopped", "db:ready>stopping"}},
			{exits("db", stopExit), []string{"db:stopping>stopped"}},
		},
	}, {
		name: "stop during backoff cancels the restart", config: `
procs:
  w: {command: w, restart: {policy: always}}
`,
		steps: []step{
			{exits("w", crash), []string{"w:starting>failed", "w:failed>backoff"}},
			{func(r *rig) { _, _ = r.m.Stop("w") }, []string{"w:backoff>stopped"}},
			{func(r *rig) { r.m.BackoffFired("w", 1) }, nil},
		},
	}, {
		name: "output while stopping says nothing", config: `
procs:
  w: {command: w}
`,
		steps: []step{
			{func(r *rig) { _, _ = r.m.Stop("w") }, []string{"w:starting>stopping"}},
			{becomesReady("w"), nil},
			{exits("w", stopExit), []string{"w:stopping>stopped"}},
		},
	}, {
		name: "reports of a replaced run are ignored", config: `
procs:
  w: {command: w}
`,
		steps: []step{
			{func(r *rig) { _, _ = r.m.Restart([]string{"w"}, false) }, []string{"w:starting>stopping"}},
			{exits("w", stopExit), []string{"w:stopping>pending", "w:pending>starting"}},
			{func(r *rig) { r.m.Verdict("w", 1, rules.Verdict{State: rules.StateReady}) }, nil},
			{func(r *rig) { r.m.Exited("w", 1, crash) }, nil},
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRig(t, tt.config, tt.opts)
			for i, s := range tt.steps {
				s.do(r)
				assert.Equal(t, s.want, edges(r.take()), "step %d", i+1)
			}
			assert.Empty(t, r.m.Refused())
		})
	}
}

// A transition the table lacks is refused, changes nothing and publishes nothing.
func TestIllegalEdgesAreRefused(t *testing.T) {
	r := newRig(t, "procs:\n  w: {command: w}\n", Options{})
	ps := r.m.Proc("w")
	for _, to := range []rules.State{rules.StateBackoff, rules.StatePending, rules.StateBlocked} {
		if Legal(ps.State, to) {
			continue
		}
		r.m.setState(ps, to, rules.ReasonRestart, "illegal")
		assert.Equal(t, rules.StateStarting, ps.State)
		assert.Empty(t, edges(r.take()))
	}
	assert.NotEmpty(t, r.m.Refused())
	assert.False(t, Legal(rules.StateStopped, rules.StateReady))
	assert.False(t, Legal(rules.StatePending, rules.StateReady))
	assert.False(t, Legal(rules.StateCompleted, rules.StateReady))
	assert.True(t, Legal(rules.StateReady, rules.StateReady))
}

// A backoff timer whose callback was already queued when a restart request
// stopped it: the new run fails into a fresh backoff, then the stale
// callback runs. It must not clear the fresh timer nor start the next run
// early.
func TestStaleBackoffTimerIsIgnored(t *testing.T) {
	r := newRig(t, "procs:\n  crash: {command: crash, restart: {policy: always, backoff: 1h..1h}}\n", Options{})
	exits("crash", crash)(r)
	stale := r.m.Proc("crash").intent.backoffGen
	_, err := r.m.Restart([]string{"crash"}, false)
	require.NoError(t, err)
	exits("crash", crash)(r)
	r.take()
	r.m.BackoffFired("crash", stale)
	ps := r.m.Proc("crash")
	assert.Equal(t, rules.StateBackoff, ps.State, "the stale timer started the next run early")
	assert.True(t, ps.InBackoff(), "the stale timer cleared the fresh one")
	assert.Equal(t, 2, ps.Run)
	assert.Empty(t, r.take())
}

func TestBackoffDelayDoublesUpToItsCap(t *testing.T) {
	b := config.BackoffRange{Min: 100 * time.Millisecond, Max: time.Second}
	var got []time.Duration
	for n := range 6 {
		got = append(got, BackoffDelay(b, n))
	}
	assert.Equal(t, []time.Duration{100 * time.Millisecond, 200 * time.Millisecond, 400 * time.Millisecond, 800 * time.Millisecond, time.Second, time.Second}, got)
	assert.Equal(t, 500*time.Millisecond, BackoffDelay(config.BackoffRange{}, 0))
	assert.Equal(t, 30*time.Second, BackoffDelay(config.BackoffRange{}, 20))
}

// A run ready for StableResetAfter makes the policy forget earlier crashes.
func TestStableRunResetsTheRestartCount(t *testing.T) {
	r := newRig(t, "procs:\n  w: {command: w, restart: {policy: always, backoff: 1s..1m}}\n", Options{})
	exits("w", crash)(r)
	r.m.BackoffFired("w", 1)
	r.clock.advance(time.Second)
	becomesReady("w")(r)
	r.clock.advance(StableResetAfter)
	exits("w", crash)(r)
	assert.Contains(t, r.m.Proc("w").Message, "restart 1 in 1s")
}

// Every name from outside goes through Lookup: unknown names are errors,
// never a panic.
func TestUnknownNamesAreErrors(t *testing.T) {
	r := newRig(t, "procs:\n  w: {command: w}\n", Options{})
	_, err := r.m.Start("nope")
	assert.ErrorIs(t, err, config.ErrUnknownProcess)
	_, err = r.m.Stop("nope")
	assert.ErrorIs(t, err, config.ErrUnknownProcess)
	_, err = r.m.Restart([]string{"nope"}, false)
	assert.ErrorIs(t, err, config.ErrUnknownProcess)
	assert.ErrorIs(t, r.m.Wait(1, "nope", []rules.State{rules.StateReady}, 1), config.ErrUnknownProcess)
	_, err = r.m.Match([]string{"no-*"})
	assert.ErrorIs(t, err, config.ErrUnknownProcess)
	r.m.Verdict("nope", 1, rules.Verdict{State: rules.StateReady})
	r.m.Exited("nope", 1, crash)
	r.m.BackoffFired("nope", 1)
	r.m.Submitted("nope")
	assert.False(t, r.m.GiveUp(99, "gone"))
}

// A wait whose process a reconcile removes is answered once, saying so;
// giving it up afterwards answers nothing more.
func TestWaitOfARemovedProcessIsAnsweredOnce(t *testing.T) {
	r := newRig(t, "procs:\n  a: {command: a}\n  b: {command: b, dependsOn: [a]}\n", Options{})
	require.NoError(t, r.m.Wait(7, "b", []rules.State{rules.StateReady}, 1))
	next := parse(t, "procs:\n  a: {command: a}\n")
	order, _ := next.StartOrder()
	_, err := r.m.Reconcile(next, order, config.DiffConfigs(parse(t, "procs:\n  a: {command: a}\n  b: {command: b, dependsOn: [a]}\n"), next), nil, Up{})
	require.NoError(t, err)
	answers := answersOf(r.take())
	require.Len(t, answers, 1)
	assert.Equal(t, 7, answers[0].Waiter)
	assert.Equal(t, "removed from the config", answers[0].Note)
	assert.False(t, r.m.GiveUp(7, "timed out"))
	assert.Empty(t, answersOf(r.take()))
	assert.Nil(t, r.m.Proc("b"))
}

// effectsOf lists the effects of type T among effects.
func effectsOf[T Effect](effects []Effect) []T {
	var out []T
	for _, e := range effects {
		if t, ok := e.(T); ok {
			out = append(out, t)
		}
	}
	return out
}

func answersOf(effects []Effect) []Answer { return effectsOf[Answer](effects) }

func TestShuttingDownRefusesStartAndRestart(t *testing.T) {
	r := newRig(t, "procs:\n  w: {command: w}\n", Options{})
	r.m.Down("down")
	_, err := r.m.Start("w")
	assert.True(t, errors.Is(err, ErrShuttingDown))
	_, err = r.m.Restart([]string{"w"}, false)
	assert.True(t, errors.Is(err, ErrShuttingDown))
	assert.True(t, strings.Contains(fmt.Sprint(edges(r.take())), "w:starting>stopping"))
}

// A process removed by a reconcile may hold what a new one needs: a
// renamed process is a removal and an addition with the same port. The new
// one starts once the removed one's run has ended, never beside it, as a
// restart never starts its new run beside its old.
func TestARemovedProcessEndsBeforeANewOneStarts(t *testing.T) {
	before := "procs:\n  db: {command: redis-server --port 7601, port: 7601}\n"
	r := newRig(t, before, Options{})
	becomesReady("db")(r)
	r.take()
	next := parse(t, "procs:\n  cache: {command: redis-server --port 7601, port: 7601}\n")
	order, _ := next.StartOrder()
	rec, err := r.m.Reconcile(next, order, config.DiffConfigs(parse(t, before), next),
		map[string]Definition{"cache": {Proc: next.Procs["cache"]}}, Up{})
	require.NoError(t, err)
	assert.Equal(t, []string{"cache"}, rec.Started)
	assert.Equal(t, []string{"db"}, rec.Stopped)
	effects := r.take()
	assert.Equal(t, []StopRun{{Name: "db", Graceful: true}}, effectsOf[StopRun](effects))
	assert.Empty(t, effectsOf[StartRun](effects), "cache starts beside db, whose run holds its port")

	r.m.Exited("db", 1, rules.Verdict{State: rules.StateStopped, Reason: rules.ReasonStopped})
	assert.Equal(t, []StartRun{{Name: "cache", Run: 1}}, effectsOf[StartRun](r.take()))
}

// Once maxRestarts is reached the process's own message says procs gave up,
// so status and a wait's result tell it, not only the event log.
func TestGivingUpIsInTheMessage(t *testing.T) {
	r := newRig(t, "procs:\n  w: {command: w, restart: {policy: on-failure, maxRestarts: 1, backoff: 1s..1s}}\n", Options{})
	exits("w", crash)(r)
	r.m.BackoffFired("w", 1)
	exits("w", crash)(r)
	p := r.m.Proc("w")
	assert.Equal(t, rules.StateFailed, p.State)
	assert.Equal(t, "exit code 1; not restarting: 1 restart reached maxRestarts", p.Message)
}

// The ports a run listened on go with the run: a stopped process, or one
// waiting to restart, listens on none, and status must not say otherwise.
func TestARunsPortsEndWithIt(t *testing.T) {
	r := newRig(t, "procs:\n  web: {command: web, port: 8080}\n", Options{})
	becomesReady("web")(r)
	r.m.PortsChanged("web", 1, []int{8080})
	assert.Equal(t, []int{8080}, r.m.Proc("web").Ports)
	r.m.Exited("web", 1, rules.Verdict{State: rules.StateStopped, Reason: rules.ReasonStopped})
	assert.Empty(t, r.m.Proc("web").Ports)
}

// up --wait after a fix waits for what the fix unblocks too: a dependent
// of the failed process, blocked until then, at any depth, after the
// process it waits for.
func TestReconcileWaitsForTheDependentsItUnblocks(t *testing.T) {
	before := "procs:\n  a: {command: doesnotexist}\n  b: {command: b, dependsOn: [a]}\n  c: {command: c, dependsOn: [b]}\n  d: {command: d}\n"
	r := newRig(t, before, Options{})
	exits("a", crash)(r)
	require.Equal(t, rules.StateBlocked, r.m.Proc("b").State)
	becomesReady("d")(r)
	r.take()
	next := parse(t, strings.Replace(before, "doesnotexist", "sleep 1000", 1))
	order, _ := next.StartOrder()
	rec, err := r.m.Reconcile(next, order, config.DiffConfigs(parse(t, before), next),
		map[string]Definition{"a": {Proc: next.Procs["a"]}}, Up{})
	require.NoError(t, err)
	var waits []string
	for _, w := range rec.Waits {
		waits = append(waits, w.Name+" after "+w.After)
	}
	assert.Equal(t, []string{"a after ", "b after a", "c after b"}, waits, "d, ready and untouched, is not waited for")
}

// A restart whose new run could not start, a dependency having failed
// since, is refused before the run serving now is stopped; restarted
// together with that dependency, it goes ahead.
func TestARestartThatCouldNotStartLeavesTheRunAlone(t *testing.T) {
	r := newRig(t, "procs:\n  migrate: {command: m, kind: task}\n  api: {command: a, dependsOn: {migrate: completed}}\n", Options{})
	exits("migrate", rules.Verdict{State: rules.StateCompleted, Reason: rules.ReasonCompleted})(r)
	becomesReady("api")(r)
	_, err := r.m.Restart([]string{"migrate"}, false)
	require.NoError(t, err)
	exits("migrate", crash)(r)
	require.Equal(t, rules.StateFailed, r.m.Proc("migrate").State)
	r.take()

	_, err = r.m.Restart([]string{"api"}, false)
	var blocked *BlockedError
	require.ErrorAs(t, err, &blocked)
	assert.Equal(t, "api not restarted: migrate failed: exit code 1, so its new run could not start; it runs on as it is: fix migrate, then `procs start migrate` (or `procs restart migrate api`)", err.Error())
	assert.Empty(t, effectsOf[StopRun](r.take()), "the serving run is not stopped")
	assert.Equal(t, rules.StateReady, r.m.Proc("api").State)

	_, err = r.m.Restart([]string{"migrate", "api"}, false)
	require.NoError(t, err, "restarted with its dependency, api may start again")
}

// A reload that fixes a failed process does not call its blocked
// dependent "restarted" when the dependent never ran: it starts for the
// first time once the fix is ready, and is waited for, as an unblocked
// dependent without restart: true is.
func TestReconcileDoesNotCallANeverRunDependentRestarted(t *testing.T) {
	before := "procs:\n  a: {command: doesnotexist}\n  b: {command: b, dependsOn: {a: {condition: ready, restart: true}}}\n"
	r := newRig(t, before, Options{})
	exits("a", crash)(r)
	require.Equal(t, rules.StateBlocked, r.m.Proc("b").State)
	r.take()
	next := parse(t, strings.Replace(before, "doesnotexist", "sleep 1000", 1))
	order, _ := next.StartOrder()
	rec, err := r.m.Reconcile(next, order, config.DiffConfigs(parse(t, before), next),
		map[string]Definition{"a": {Proc: next.Procs["a"]}}, Up{})
	require.NoError(t, err)
	assert.Equal(t, []string{"a"}, rec.Restarted)
	var waits []string
	for _, w := range rec.Waits {
		waits = append(waits, fmt.Sprintf("%s run %d after %s", w.Name, w.Run, w.After))
	}
	assert.Equal(t, []string{"a run 2 after ", "b run 1 after a"}, waits)
}

// A process removed from the config while it runs is still listed, as
// stopping, until its run has ended: it may take its stop timeout, and
// holds its port meanwhile. The reconcile's waits include its end, so a
// reload --wait says "stopped" only once it is; the wait succeeds then.
func TestARemovedProcessIsWaitedForUntilItHasStopped(t *testing.T) {
	before := "procs:\n  web: {command: web}\n  stub: {command: stub, port: 8771}\n"
	r := newRig(t, before, Options{})
	becomesReady("stub")(r)
	becomesReady("web")(r)
	r.take()
	next := parse(t, "procs:\n  web: {command: web}\n")
	order, _ := next.StartOrder()
	rec, err := r.m.Reconcile(next, order, config.DiffConfigs(parse(t, before), next), nil, Up{})
	require.NoError(t, err)
	assert.Equal(t, []string{"stub"}, rec.Stopped)
	require.Equal(t, []Target{{Name: "stub", Run: 1, States: []rules.State{rules.StateStopped}}}, rec.Waits)
	assert.Equal(t, []string{"web", "stub"}, r.m.Names(), "listed while its run ends")
	assert.Equal(t, rules.StateStopping, r.m.Proc("stub").State)

	require.NoError(t, r.m.Wait(3, "stub", rec.Waits[0].States, rec.Waits[0].Run))
	assert.Empty(t, answersOf(r.take()), "answered before its run ended")
	r.m.Exited("stub", 1, rules.Verdict{State: rules.StateStopped, Reason: rules.ReasonStopped, Message: "stopped on request (killed by SIGKILL)"})
	answers := answersOf(r.take())
	require.Len(t, answers, 1)
	assert.True(t, answers[0].Success, "%+v", answers[0])
	assert.Equal(t, rules.StateStopped, answers[0].Proc.State)
	assert.Equal(t, []string{"web"}, r.m.Names())

	// A wait for its end asked after it (a reload's waits are asked in
	// turn, a scale's removed instances stop side by side) is answered at
	// once, with how it ended; a later run, or any other state, is unknown.
	require.NoError(t, r.m.Wait(4, "stub", []rules.State{rules.StateStopped}, 1))
	answers = answersOf(r.take())
	require.Len(t, answers, 1)
	assert.Equal(t, 4, answers[0].Waiter)
	assert.True(t, answers[0].Success)
	assert.Equal(t, "stopped on request (killed by SIGKILL)", answers[0].Proc.Message)
	assert.ErrorIs(t, r.m.Wait(5, "stub", []rules.State{rules.StateStopped}, 2), config.ErrUnknownProcess)
	assert.ErrorIs(t, r.m.Wait(6, "stub", []rules.State{rules.StateReady}, 1), config.ErrUnknownProcess)
	assert.ErrorIs(t, r.m.Wait(7, "nope", []rules.State{rules.StateStopped}, 0), config.ErrUnknownProcess)

	// A wait for a removed process to be ready is refused: it never will be.
	r2 := newRig(t, before, Options{})
	becomesReady("stub")(r2)
	_, err = r2.m.Reconcile(next, order, config.DiffConfigs(parse(t, before), next), nil, Up{})
	require.NoError(t, err)
	assert.ErrorIs(t, r2.m.Wait(5, "stub", []rules.State{rules.StateReady}, 1), config.ErrUnknownProcess)
}

// up (a reload) brings a failed process up again only if up starts it: a
// disabled task, a scheduled one or one of an inactive profile that failed
// after procs run (or its time) stays failed until asked again; each
// reload ran it once more.
func TestUpStartsAgainOnlyWhatUpStarts(t *testing.T) {
	text := "procs:\n  keep: {command: keep}\n" +
		"  once: {command: once, kind: task, disabled: true}\n" +
		"  nightly: {command: nightly, kind: task, schedule: {every: 1h}}\n" +
		"  debug: {command: debug, kind: task, profiles: [debug]}\n" +
		"  api: {command: api}\n"
	r := newRig(t, text, Options{})
	becomesReady("keep")(r)
	for _, name := range []string{"once", "nightly", "debug"} {
		_, err := r.m.Start(name)
		require.NoError(t, err)
		exits(name, crash)(r)
		require.Equal(t, rules.StateFailed, r.m.Proc(name).State, name)
	}
	exits("api", crash)(r)
	r.take()
	cfg := parse(t, text)
	order, _ := cfg.StartOrder()
	rec, err := r.m.Reconcile(cfg, order, config.DiffConfigs(cfg, cfg), nil, Up{})
	require.NoError(t, err)
	assert.Equal(t, []string{"api"}, rec.Started, "a service up starts is brought up again; the rest stay failed")
	for _, name := range []string{"once", "nightly", "debug"} {
		assert.Equal(t, rules.StateFailed, r.m.Proc(name).State, name)
	}
}

// The policy counts consecutive failures: a run started by hand begins a
// new count, and so does a run that completed; a completed run is not
// said to have given up.
func TestATasksRestartCountIsPerAttempt(t *testing.T) {
	r := newRig(t, "procs:\n  job: {command: job, kind: task, disabled: true, restart: {policy: on-failure, maxRestarts: 1, backoff: 1s..1s}}\n", Options{})
	start := func() {
		_, err := r.m.Start("job")
		require.NoError(t, err)
	}
	start()
	exits("job", crash)(r)
	require.Equal(t, rules.StateBackoff, r.m.Proc("job").State)
	r.m.BackoffFired("job", r.m.Proc("job").intent.backoffGen)
	exits("job", crash)(r)
	require.Equal(t, rules.StateFailed, r.m.Proc("job").State)
	assert.Contains(t, r.m.Proc("job").Message, "not restarting: 1 restart reached maxRestarts")

	start() // procs run job again: the policy retries this attempt too
	exits("job", crash)(r)
	assert.Equal(t, rules.StateBackoff, r.m.Proc("job").State, r.m.Proc("job").Message)
	r.m.BackoffFired("job", r.m.Proc("job").intent.backoffGen)
	exits("job", exit0)(r)
	assert.Equal(t, rules.StateCompleted, r.m.Proc("job").State)
	assert.NotContains(t, r.m.Proc("job").Message, "not restarting", "a run that completed gave nothing up")

	start() // after a success, a failure is the first of a new count
	exits("job", crash)(r)
	assert.Equal(t, rules.StateBackoff, r.m.Proc("job").State, r.m.Proc("job").Message)
}
