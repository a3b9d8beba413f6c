package lifecycle

import (
	"fmt"
	"testing"
	"time"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/rules"
)

// The configs a fuzzed machine moves between: processes are added,
// removed and changed, with every condition, a task, restart policies.
var fuzzConfigs = []string{`
procs:
  db: {command: db, restart: {policy: on-failure, maxRestarts: 2, backoff: 1s..4s}}
  migrate: {command: migrate, kind: task, dependsOn: {db: ready}}
  api: {command: api, dependsOn: {migrate: completed, db: {condition: ready, restart: true}}, restart: {policy: always}}
  web: {command: web, dependsOn: {api: started}}
`, `
procs:
  db: {command: db2, restart: {policy: on-failure, maxRestarts: 2, backoff: 1s..4s}}
  api: {command: api, dependsOn: {db: {condition: ready, restart: true}}, restart: {policy: always}}
  worker: {command: worker, dependsOn: [api], restart: {policy: on-failure}}
  migrate: {command: migrate, kind: task, restart: {policy: always, backoff: 1s..1s}}
`, `
procs:
  db: {command: db, disabled: true}
  web: {command: web}
`}

// fuzzVerdicts are the verdicts a run may report or end with.
var fuzzVerdicts = []rules.Verdict{
	{State: rules.StateReady, Reason: rules.ReasonReady},
	{State: rules.StateStarting, Reason: rules.ReasonNotReady},
	errLine,
	{State: rules.StateFailed, Reason: rules.ReasonTimeout, Message: "no ready line after 30s"},
	{State: rules.StateFailed, Reason: rules.ReasonError, Recoverable: true},
	{State: rules.StateUnhealthy, Reason: rules.ReasonHealthcheck},
	{State: rules.StateBusy, Reason: rules.ReasonBusy},
	{State: rules.StateAwaitingInput, Reason: rules.ReasonQuestion},
	{State: rules.StateAwaitingPermission, Reason: rules.ReasonPermission},
	exit0, crash, stopExit,
}

// fuzzWorld plays the engine around a machine: it carries out effects as
// the engine would (runs, timers, waits) and checks the invariants.
type fuzzWorld struct {
	t       *testing.T
	m       *Machine
	clock   *clock
	configs []*config.Config
	current int
	// live is the run of each process that the world has started and not
	// yet reported ended.
	live map[string]int
	// stopping is the run of each process asked to stop, until it ends.
	stopping map[string]int
	// timers are the armed backoff generations.
	timers map[string]int
	// waits are the waits registered and how often each was answered.
	waits    map[int]int
	nextWait int
	// added are the processes a reconcile added that have not run yet:
	// none starts while a removed process's run is alive.
	added map[string]bool
}

func FuzzMachine(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})
	f.Add([]byte{3, 0, 3, 1, 9, 2, 9, 3, 12, 4, 12, 5, 6, 1, 7, 0, 8, 2})
	f.Add([]byte{13, 1, 0, 0, 0, 0, 11, 0, 13, 2, 10, 1, 10, 1, 14, 0})
	configs := make([]*config.Config, len(fuzzConfigs))
	for i, text := range fuzzConfigs {
		configs[i] = parse(f, text)
	}
	f.Fuzz(func(t *testing.T, script []byte) { play(t, configs, script) })
}

// play runs a script of inputs (two bytes each) through a fuzz world, then
// closes the machine: every wait must have been answered once, and no
// illegal edge asked for.
func play(t *testing.T, configs []*config.Config, script []byte) {
	w := newFuzzWorld(t, configs)
	for i := 0; i+1 < len(script); i += 2 {
		w.input(script[i], script[i+1])
		w.carryOut()
	}
	w.m.Close()
	w.carryOut()
	for id, n := range w.waits {
		if n != 1 {
			t.Fatalf("wait %d answered %d times", id, n)
		}
	}
	if refused := w.m.Refused(); len(refused) > 0 {
		t.Fatalf("illegal edges asked: %v", refused)
	}
}

func newFuzzWorld(t *testing.T, configs []*config.Config) *fuzzWorld {
	cfg := configs[0]
	order, err := cfg.StartOrder()
	if err != nil {
		t.Fatal(err)
	}
	wanted := map[string]bool{}
	for _, name := range order {
		wanted[name] = true
	}
	c := newClock()
	w := &fuzzWorld{
		t: t, clock: c, configs: configs,
		m:    New(cfg, order, wanted, map[string]bool{"web": true}, Options{Clock: c.now}),
		live: map[string]int{}, stopping: map[string]int{}, timers: map[string]int{}, waits: map[int]int{},
		added: map[string]bool{},
	}
	w.m.Begin()
	w.carryOut()
	return w
}

// pick returns one of the names the machine or the configs know, so
// inputs also name processes that are gone or never were.
func (w *fuzzWorld) pick(b byte) string {
	names := []string{"db", "migrate", "api", "web", "worker", "ghost"}
	return names[int(b)%len(names)]
}

// input feeds the machine one input chosen by op, with arg choosing its
// process and details.
func (w *fuzzWorld) input(op, arg byte) {
	name := w.pick(arg)
	run := w.live[name]
	if arg&0x80 != 0 {
		run-- // a report of a replaced run
	}
	v := fuzzVerdicts[(int(op>>4)+int(arg>>3))%len(fuzzVerdicts)]
	w.clock.advance(time.Duration(arg) * 100 * time.Millisecond)
	switch op % 16 {
	case 0:
		w.m.Started(name, run, 1000+int(arg))
	case 1:
		// A run asked to stop ends, as a real one does sooner or later.
		if stopping, ok := w.stopping[name]; ok && stopping == w.live[name] {
			w.m.Exited(name, stopping, stopExit)
			delete(w.live, name)
			delete(w.stopping, name)
			return
		}
		w.m.PortsChanged(name, run, []int{int(arg)})
	case 2, 3:
		w.m.Verdict(name, run, v) // the end of a run as a verdict is refused
		if v.State.Terminal() && v.State != rules.StateFailed && w.m.Proc(name) != nil && w.m.Proc(name).State == v.State && w.m.Proc(name).Running() {
			w.t.Fatalf("%s took %s from a verdict while running", name, v.State)
		}
	case 4, 5:
		if !v.State.Terminal() {
			v = crash
		}
		w.m.Exited(name, run, v)
		if w.live[name] == run {
			delete(w.live, name)
		}
	case 6:
		_, _ = w.m.Start(name)
	case 7:
		_, _ = w.m.Stop(name)
	case 8:
		_, _ = w.m.Restart([]string{name}, arg&1 == 1)
	case 9:
		w.nextWait++
		if w.m.Wait(w.nextWait, name, []rules.State{rules.StateReady, rules.StateCompleted}, run+int(arg%3)) == nil {
			w.waits[w.nextWait] = 0
		}
	case 10:
		w.m.GiveUp(int(arg)%(w.nextWait+1), "gave up")
	case 11:
		gen := w.timers[name]
		if arg&1 == 1 {
			gen-- // a stale timer
		}
		w.m.BackoffFired(name, gen)
	case 12:
		w.reconcile(int(arg) % len(w.configs))
	case 13:
		if arg%8 != 0 {
			w.m.Verdict(name, run, v) // shutdown ends a script: keep it rare
			return
		}
		w.m.Down("down")
	case 14:
		w.m.Submitted(name)
	case 15:
		names, err := w.m.Match([]string{"*"})
		if err == nil {
			_, _ = w.m.Restart(names, false)
		}
	}
}

func (w *fuzzWorld) reconcile(i int) {
	next := w.configs[i]
	order, err := next.StartOrder()
	if err != nil {
		w.t.Fatal(err)
	}
	diff := config.DiffConfigs(w.configs[w.current], next)
	defs := map[string]Definition{}
	for _, name := range append(diff.Added, diff.Changed...) {
		defs[name] = Definition{Proc: next.Procs[name]}
	}
	var added []string
	for _, name := range diff.Added {
		if w.m.Proc(name) == nil {
			added = append(added, name) // not one removed whose run still ends
		}
	}
	if _, err := w.m.Reconcile(next, order, diff, defs, Up{}); err == nil {
		w.current = i
		for _, name := range added {
			w.added[name] = true
		}
	}
}

// carryOut does what the machine's effects ask, checking each.
func (w *fuzzWorld) carryOut() {
	forgotten := map[string]bool{}
	for _, e := range w.m.Effects() {
		name := effectName(e)
		if forgotten[name] {
			w.t.Fatalf("%T for %s after it was forgotten", e, name)
		}
		switch e := e.(type) {
		case StartRun:
			if _, ok := w.live[e.Name]; ok {
				w.t.Fatalf("run %d of %s started while run %d is alive", e.Run, e.Name, w.live[e.Name])
			}
			if w.added[e.Name] {
				for other := range w.live {
					if w.configs[w.current].Procs[other] == nil {
						w.t.Fatalf("%s, added, started while %s, removed, still runs", e.Name, other)
					}
				}
				delete(w.added, e.Name)
			}
			w.live[e.Name] = e.Run
		case StopRun:
			if _, ok := w.live[e.Name]; !ok {
				w.t.Fatalf("stop of %s, which has no run", e.Name)
			}
			w.stopping[e.Name] = w.live[e.Name]
		case ArmBackoff:
			w.timers[e.Name] = e.Gen
		case Transition:
			if !Legal(e.From, e.To) {
				w.t.Fatalf("illegal edge %s → %s of %s", e.From, e.To, e.Name)
			}
		case Answer:
			if _, ok := w.waits[e.Waiter]; !ok {
				w.t.Fatalf("answer to wait %d, never registered", e.Waiter)
			}
			w.waits[e.Waiter]++
		case Forget:
			if _, ok := w.live[e.Name]; ok {
				w.t.Fatalf("%s forgotten while its run is alive", e.Name)
			}
			forgotten[e.Name] = true
		}
		switch e.(type) {
		case StartRun, StopRun, ArmBackoff:
			// Only the news of a process's end (its transition, its
			// answers, its Forget) may follow its removal.
			if w.m.Proc(name) == nil {
				w.t.Fatalf("%T for %s, which the machine does not hold", e, name)
			}
		}
	}
}

func effectName(e Effect) string {
	switch e := e.(type) {
	case StartRun:
		return e.Name
	case StopRun:
		return e.Name
	case ArmBackoff:
		return e.Name
	case CancelBackoff:
		return e.Name
	case Transition:
		return e.Name
	case Info:
		return e.Name
	case Forget:
		return e.Name
	}
	return ""
}

// Long random scripts from fixed seeds (the subtest's name is the seed)
// keep every invariant.
func TestMachineRandomScripts(t *testing.T) {
	configs := make([]*config.Config, len(fuzzConfigs))
	for i, text := range fuzzConfigs {
		configs[i] = parse(t, text)
	}
	for seed := range 300 {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			script := make([]byte, 400)
			x := uint32(seed)*2654435761 + 1
			for i := range script {
				x ^= x << 13
				x ^= x >> 17
				x ^= x << 5
				script[i] = byte(x)
			}
			play(t, configs, script)
		})
	}
}
