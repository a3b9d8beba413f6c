// Package compose is the procs engine: it starts the processes of a checked
// config.Config in dependency order, supervises each run, decides their
// states from the rules package's verdicts, and publishes every transition
// and output line on one event bus that the printer, log files and the
// control API read.
//
// compose is the only package that starts processes (through compose/contain,
// which keeps them from outliving procs). It may import compose/config,
// compose/lifecycle, compose/contain, compose/wire (the types of the API,
// which wiretypes.go aliases), compose/bus, rules and builtin-frameworks; it
// must not import compose/control or any client of the API (ARCHITECTURE.md §1).
//
// # Data path
//
// contain starts a child → a supervisor and its run loop watch one run →
// reports go to the engine loop, which hands them to the lifecycle machine
// (compose/lifecycle) and carries out the effects it decides → the bus
// carries events to the sinks (printer, log files, the control API).
//
// # Files
//
// A file's name says which goroutine runs its code:
//
//   - engine.go and engine_*.go: the engine loop. Their exported methods are
//     called from any goroutine and run their work on the loop (Engine.do),
//     or hand it to a run's loop (engine_terminal.go, engine_input.go).
//   - supervisor.go: a run's supervisor; run_loop.go and run_*.go: a run's
//     loop, and the probes it starts for its run (run_probes.go);
//     run_inbox.go is what other goroutines send to a run's loop.
//   - reader.go: a run's output readers; writer*.go: its input writer.
//   - printer.go: the printer of procs up; filewatch.go and execwatch.go:
//     the watches of watch: and of a run's execs, each its own goroutine.
//   - logfile.go: a process's log, shared by its readers under its lock;
//     streamlog.go keeps one stream's lines whole in it, and lognote.go is
//     the notes procs writes among them (a run begins, lines were lost).
//   - The rest (detection, interactive, menu, environ, ptyprint, signals,
//     wiretypes) own no goroutine: any of the above may call them.
//
// # Concurrency map
//
// Goroutines, and who ends each:
//
//   - The engine loop (Engine.Run) is the one owner of process state: the
//     lifecycle.Machine, which decides every state, and every procState (a
//     run's supervisor, logs, screen). It receives API requests on
//     Engine.requests (Engine.do waits for the answer; Engine.post delivers a
//     timer's callback, or drops it once the engine has stopped) and
//     supervisor reports on Engine.reports, feeds each to the machine, and
//     carries out the effects it returns (Engine.act) before the next. It
//     ends when Down or its context ends and every supervisor has sent its
//     last report.
//   - One supervisor per run (supervisor.run, started by Engine.startRun) runs
//     the run loop (runLoop.loop), which owns that run's detector, screen and
//     pending input. It ends when the run's process has exited and its output
//     is read; its last report is always reportExited. The engine waits for it
//     before starting the next run of the same process.
//   - Per run, started by runLoop.startWatchers and ended with the run: one
//     reader per output stream (split lines, feed the ring, the log file and
//     the bus, then hand chunks to the loop), a goroutine closing the output
//     channel when every reader is done, the input writer, the exit waiter,
//     the port watcher, the exec watcher and the health probe. The watchers
//     and the probe end with the run's context; readers end at EOF; the
//     writer is stopped by runLoop.finish.
//   - The process-wide spawner (contain/spawn.go) forks every child from a small
//     pool of goroutines, each locked to an OS thread, fed from one queue,
//     because the parent-death signal follows the thread that forked; and
//     one goroutine sweeps strays, one look serving every run that ended
//     meanwhile. They are never stopped: they must outlive every child procs
//     starts.
//   - Without cgroups but with a watchdog and the subreaper, the first
//     enroll starts spawner.watchStrays (contain/enroll.go): every strayScanEvery it
//     looks for processes re-parented to procs that carry no owner marker
//     (holding spawner.forking exclusively, so a child being forked is not
//     taken for a stray) and tells the watchdogs about them. Nothing
//     announces a re-parenting, so it polls; like the spawner it is never
//     stopped.
//   - One file watch per process whose definition has watch: (engine_watch.go,
//     filewatch.go). Engine.syncWatches, on the engine loop after each turn,
//     starts fileWatch.run for a new or edited definition and cancels the
//     watch of one that changed or is gone, and all of them once shutdown
//     begins; Engine.Run cancels and waits for every watch before it returns
//     (watchers.close). fileWatch.run reads fsnotify's events (fsnotify reads
//     the kernel on a goroutine of its own, ended by the Close that run
//     defers), waits for a pause of the debounce, and posts the change to
//     the engine loop (Engine.post), where watchTriggered restarts the
//     process: the watch goroutine touches no engine state.
//   - Stopping an adopted daemon (contain/daemon.go) reaps each of its roots on a
//     goroutine of its own, bounded by the stop's grace time.
//
// Objects shared outside the engine loop, each guarded by its own mutex,
// with short critical sections and no calls out while held:
//
//   - rules.Ring, a process's last lines: written by its output readers,
//     read by Engine.Logs and results.
//   - logFile (logfile.go): written by the output readers of a process,
//     rotated under the same lock.
//   - Bus and each Subscription: published to by the engine loop and the
//     output readers; each subscriber drains its own queue, so a slow
//     subscriber never blocks a publisher.
//   - In contain: spawner.children (the direct children, for the stray sweep) and
//     spawner.engines, under spawner.mu; spawner.forking, held shared by
//     each fork until its child is recorded and exclusively while strays
//     are told from children; spawner.reported (the unmarked strays
//     already told to the watchdogs), under spawner.reportMu; the cgroup
//     manager, and the watchdog connection; their lock order is written at
//     type spawner.
//   - contain.Process.inputMu orders writes to a child's stdin or terminal
//     between the input writer and attached terminals.
package compose
