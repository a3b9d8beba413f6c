package compose

import (
	"context"
	"math"
	"sync"
	"time"

	"github.com/procsdev/procs/compose/contain"
	"github.com/procsdev/procs/compose/wire"
	"github.com/procsdev/procs/internal/usage"
)

const (
	// usageInterval is how often usage is measured while someone looks;
	// the history has one point per interval.
	usageInterval = 2 * time.Second
	// usageLease is how long measures go on after the last look: a
	// dashboard asks every second or two, a status once.
	usageLease = 10 * time.Second
	// usageStale is the age past which a measure no longer gives the CPU
	// of "the last interval": the look measures twice, usageSpan apart.
	usageStale = usageLease
	usageSpan  = 250 * time.Millisecond
	// usageHistoryLen is how many points each process keeps: five minutes.
	usageHistoryLen = 150
)

// usageTarget is a process as the sampler sees it: its run and the pid of
// that run's root, 0 while none runs.
type usageTarget struct {
	name     string
	run, pid int
}

// runUsage is what the sampler knows of one process: the last two
// measures of its current run, the run's peak, and the history.
type runUsage struct {
	run        int
	prev, last usage.Sample // zero At: not measured
	peak       uint64
	history    []wire.UsagePoint
}

// usageSampler measures the usage of every running process, off the
// engine loop (reading /proc for two hundred processes must not stall
// it), only while someone looks: a look measures what it needs and leases
// measures every interval for lease, for the history; with nobody
// looking it has no timer at all. One goroutine (run) owns its state;
// lookers send it requests.
type usageSampler struct {
	instance string
	// targets asks the engine loop for every process.
	targets  func(context.Context) ([]usageTarget, error)
	requests chan func(context.Context)
	done     chan struct{} // closed when run returns

	// interval and lease are usageInterval and usageLease, shorter in tests.
	interval, lease time.Duration

	// Owned by run's goroutine.
	runs       map[string]*runUsage
	seq        int64
	leaseUntil time.Time
	// ticker measures while leased; nil while nobody looks.
	ticker *time.Ticker
}

func newUsageSampler(instance string, targets func(context.Context) ([]usageTarget, error)) *usageSampler {
	return &usageSampler{
		instance: instance, targets: targets,
		requests: make(chan func(context.Context)), done: make(chan struct{}),
		interval: usageInterval, lease: usageLease, runs: map[string]*runUsage{},
	}
}

// run serves requests and, while leased, measures every interval, until
// ctx ends.
func (s *usageSampler) run(ctx context.Context) {
	defer close(s.done)
	defer s.stopTicker()
	for {
		var tick <-chan time.Time
		if s.ticker != nil {
			tick = s.ticker.C
		}
		select {
		case <-ctx.Done():
			return
		case req := <-s.requests:
			req(ctx)
		case now := <-tick:
			if now.After(s.leaseUntil) {
				s.stopTicker() // nobody looks any more: no timer until someone does
				continue
			}
			if targets, err := s.targets(ctx); err == nil {
				s.measureAll(targets, true)
			}
		}
		if s.ticker == nil && time.Now().Before(s.leaseUntil) {
			s.ticker = time.NewTicker(s.interval)
		}
	}
}

func (s *usageSampler) stopTicker() {
	if s.ticker != nil {
		s.ticker.Stop()
		s.ticker = nil
	}
}

// do runs f on the sampler's goroutine and waits for it, giving up when
// ctx or the sampler ends.
func (s *usageSampler) do(ctx context.Context, f func(context.Context)) bool {
	finished := make(chan struct{})
	select {
	case s.requests <- func(runCtx context.Context) { f(runCtx); close(finished) }:
	case <-ctx.Done():
		return false
	case <-s.done:
		return false
	}
	select {
	case <-finished:
		return true
	case <-ctx.Done():
		return false
	case <-s.done:
		return false
	}
}

// measureAll measures every running process of targets (all the
// processes) once; with points, each gets a point of history.
func (s *usageSampler) measureAll(targets []usageTarget, points bool) {
	known := make(map[string]bool, len(targets))
	for _, t := range targets {
		known[t.name] = true
	}
	for name := range s.runs {
		if !known[name] {
			delete(s.runs, name) // removed from the config
		}
	}
	s.seq++
	for _, t := range targets {
		s.measure(t)
		if ru := s.runs[t.name]; points && ru != nil && t.pid != 0 && !ru.prev.At.IsZero() {
			ru.addPoint(wire.UsagePoint{
				Seq: s.seq, Time: ru.last.At, CPUPercent: roundPercent(usage.CPUPercent(ru.prev, ru.last)),
				MemoryBytes: ru.last.Memory,
			})
		}
	}
}

// measure reads the usage of t's run now.
func (s *usageSampler) measure(t usageTarget) {
	ru := s.runs[t.name]
	if ru == nil {
		ru = &runUsage{}
		s.runs[t.name] = ru
	}
	if ru.run != t.run {
		ru.run, ru.prev, ru.last, ru.peak = t.run, usage.Sample{}, usage.Sample{}, 0
	}
	if t.pid == 0 {
		ru.prev, ru.last = usage.Sample{}, usage.Sample{}
		return
	}
	target := usage.Target{PID: t.pid}
	target.Cgroup, _ = contain.RunCgroup(contain.Owner{Instance: s.instance, Name: t.name, Run: t.run})
	sample, err := usage.Read(target)
	if err != nil {
		return
	}
	ru.prev, ru.last = ru.last, sample
	ru.peak = max(ru.peak, sample.Peak, sample.Memory)
}

// addPoint appends p to the history, forgetting the oldest past
// usageHistoryLen.
func (ru *runUsage) addPoint(p wire.UsagePoint) {
	if len(ru.history) == usageHistoryLen {
		copy(ru.history, ru.history[1:])
		ru.history = ru.history[:usageHistoryLen-1]
	}
	ru.history = append(ru.history, p)
}

// look extends the lease and makes sure every running process has a
// measure no older than an interval and a second (one the ticker took), and one before it no older than
// usageStale, measuring now (twice, usageSpan apart, if need be).
func (s *usageSampler) look(ctx context.Context) {
	// The lease runs from the end of the look, which may take usageSpan.
	defer func() { s.leaseUntil = time.Now().Add(s.lease) }()
	now := time.Now()
	targets, err := s.targets(ctx)
	if err != nil || s.allFresh(targets, now) {
		return
	}
	s.measureAll(targets, false)
	if s.allFresh(targets, time.Now()) {
		return
	}
	wait := time.NewTimer(usageSpan)
	defer wait.Stop()
	select {
	case <-ctx.Done():
		return
	case <-wait.C:
	}
	s.measureAll(targets, false)
}

// allFresh says whether every running process of targets has a fresh
// measure and an earlier one to take its CPU from.
func (s *usageSampler) allFresh(targets []usageTarget, now time.Time) bool {
	for _, t := range targets {
		if t.pid == 0 {
			continue
		}
		ru := s.runs[t.name]
		if ru == nil || ru.run != t.run || now.Sub(ru.last.At) > s.interval+time.Second || ru.last.At.Sub(ru.prev.At) > usageStale {
			return false
		}
	}
	return true
}

// usageOf is what the sampler knows of st's current run.
func (s *usageSampler) usageOf(st ProcStatus) wire.Usage {
	ru := s.runs[st.Name]
	if st.PID == 0 || ru == nil || ru.run != st.Run || ru.last.At.IsZero() {
		return wire.Usage{}
	}
	u := wire.Usage{MemoryBytes: ru.last.Memory, MemoryPeakBytes: ru.peak}
	if !ru.prev.At.IsZero() && ru.last.At.Sub(ru.prev.At) <= usageStale {
		cpu := roundPercent(usage.CPUPercent(ru.prev, ru.last))
		u.CPUPercent = &cpu
	}
	return u
}

// roundPercent keeps one decimal: more would be noise.
func roundPercent(p float64) float64 { return math.Round(p*10) / 10 }

// MeasureUsage fills in the usage of each running process of list (from
// Status or StatusOf): the processes are measured now unless a recent
// measure is known, and go on being measured for a while, since someone
// looks. It gives up, leaving list as it was, when ctx ends first.
func (e *Engine) MeasureUsage(ctx context.Context, list []ProcStatus) {
	s := e.usage
	got := make([]wire.Usage, len(list))
	// The sampler writes got, not list: should ctx end first, it may
	// still be at it while the caller uses list.
	if s.do(ctx, func(runCtx context.Context) {
		s.look(runCtx)
		for i := range list {
			got[i] = s.usageOf(list[i])
		}
	}) {
		for i := range list {
			list[i].Usage = got[i]
		}
	}
}

// UsageHistory returns the usage points measured after the measure
// numbered after (0: all that are kept), and counts as a look.
func (e *Engine) UsageHistory(ctx context.Context, after int64) (wire.UsageHistory, error) {
	s := e.usage
	h := wire.UsageHistory{IntervalMs: s.interval.Milliseconds(), Procs: map[string][]wire.UsagePoint{}}
	ok := s.do(ctx, func(runCtx context.Context) {
		s.look(runCtx)
		h.Seq = s.seq
		for name, ru := range s.runs {
			for i, p := range ru.history {
				if p.Seq > after {
					h.Procs[name] = append([]wire.UsagePoint(nil), ru.history[i:]...)
					break
				}
			}
		}
	})
	if !ok {
		return wire.UsageHistory{}, ErrShuttingDown
	}
	return h, nil
}

// usageTargets lists every process with its run and the pid of its root.
func (e *Engine) usageTargets(ctx context.Context) ([]usageTarget, error) {
	var out []usageTarget
	err := e.doUntil(ctx, func() {
		for _, name := range e.life.Order() {
			lp := e.procs[name].life
			out = append(out, usageTarget{name: name, run: lp.Run, pid: lp.PID})
		}
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// runUsageSampler starts the sampler's goroutine and returns what ends it
// and waits for it.
func (e *Engine) runUsageSampler() (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { e.usage.run(ctx) })
	return func() {
		cancel()
		wg.Wait()
	}
}
