package compose

import (
	"context"
	"fmt"
	"sync"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/rules"
)

// watchers runs the file watches of the processes that declare watch:.
// Only the engine goroutine touches it.
type watchers struct {
	ctx     context.Context
	stopAll context.CancelFunc
	running map[string]*watchRun
	wg      sync.WaitGroup
}

// watchRun is the watch of one definition of a process.
type watchRun struct {
	cfg  *config.Watch
	stop context.CancelFunc
}

func newWatchers() *watchers {
	ctx, cancel := context.WithCancel(context.Background())
	return &watchers{ctx: ctx, stopAll: cancel, running: map[string]*watchRun{}}
}

// close stops every watch and waits for them to end.
func (ws *watchers) close() {
	ws.stopAll()
	ws.wg.Wait()
}

// syncWatches starts the watch of each process whose definition has one
// and stops watches of definitions that are gone, so a reconcile or an
// edited definition takes effect.
func (e *Engine) syncWatches() {
	ws := e.watches
	// It runs after every event of the loop: with no watch running and
	// none configured, that was a look at every process for nothing, two
	// hundred lookups per event in a start of two hundred.
	if ws == nil || len(ws.running) == 0 && !e.watchesFiles {
		return
	}
	for name, wr := range ws.running {
		ps := e.procs[name]
		if ps == nil || ps.cfg.Watch != wr.cfg || e.life.ShuttingDown() {
			wr.stop()
			delete(ws.running, name)
		}
	}
	if e.life.ShuttingDown() {
		return
	}
	for _, name := range e.life.Order() {
		ps := e.procs[name]
		if ps.cfg.Watch == nil || ws.running[name] != nil {
			continue
		}
		e.startWatch(ps)
	}
}

// startWatch starts the watch of ps's definition.
func (e *Engine) startWatch(ps *procState) {
	ws, name, def := e.watches, ps.cfg.Name, ps.cfg
	fw, err := newFileWatch(e.cfg.Dir, def.Watch)
	if err != nil {
		e.infoOf(ps, rules.ReasonWatch, fmt.Sprintf("cannot watch files: %v", err))
		// Remember it anyway, so the failure is said once per definition.
		ws.running[name] = &watchRun{cfg: def.Watch, stop: func() {}}
		return
	}
	ctx, stop := context.WithCancel(ws.ctx)
	ws.running[name] = &watchRun{cfg: def.Watch, stop: stop}
	ws.wg.Go(func() {
		fw.run(ctx, func(file string) {
			e.post(func() { e.watchTriggered(name, def, file) })
		})
	})
}

// watchTriggered restarts a process because a watched file changed, as
// procs restart does, and publishes the result once the new run is ready
// or has failed.
func (e *Engine) watchTriggered(name string, def *config.Proc, file string) {
	ps := e.procs[name]
	if ps == nil || ps.cfg != def {
		return
	}
	run, ok := e.life.FileChanged(name, file)
	if !ok {
		return
	}
	target, err := e.life.TargetOf(name, run)
	if err != nil {
		return
	}
	w := &waiter{name: name, targets: target.States, minRun: run, began: ps.life.Since, done: make(chan rules.Result, 1)}
	w.notify = func(res rules.Result) {
		if current := e.procs[name]; current != nil {
			e.infoOf(current, rules.ReasonWatch, fmt.Sprintf("restarted after %s changed: %s %s (run %d): %s", file, res.Name, res.State, res.Run, res.Message))
		}
	}
	_ = e.addWaiter(w) // name is known: it was looked up above
}
