#!/usr/bin/env python3
"""Rows the scenario harness cannot give exactly, for perf-table.sh.

- SIGTERM -> the tool exited, timed with a blocking wait (the harness polls
  in steps ending at 15, 31 and 63 ms), for 200 processes in a dependency
  tree and 200 independent ones: procs and process-compose interleaved.
  procs stops the tree in reverse dependency order; process-compose does so
  only with --ordered-shutdown (by default it signals all at once), so the
  tree is also timed with that flag: the like-for-like row.
- Launch -> all 200 ready (a sentinel that depends on all of them has
  written its timestamp; polled every millisecond, where the harness polls
  every 20), for the tree and the flat 200, with the floor (internal/floor)
  run in the same rounds: the harness's start rows and the floor come from
  runs minutes apart, and this machine's speed drifts more than that in
  minutes. The ratio is the median of each round's tool / floor. The floor
  times from its first fork; the tools from their own launch, and include
  the sentinel's start.
- Idle resident memory of the tool and every helper it runs (its children
  that are not the managed `sleep`s), 50 ready processes: the harness counts
  helpers only when they run the tool's own binary or share its process
  group, and procs' idle watchdog is an sh in a group of its own.

usage: exact.py PROCS_BIN PC_BIN [ROUNDS [FLOOR_BIN]]
"""
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time


def configs(d, n, tree):
    procs, pc = ["procs:"], ["version: '0.5'", "processes:"]
    for i in range(n):
        name = f"n{i:03d}"
        procs += [f"  {name}:", "    command: echo ready; exec sleep 1000", '    readyPatterns: ["ready"]']
        pc += [f"  {name}:", "    command: echo ready; exec sleep 1000", "    ready_log_line: ready"]
        if tree and i:
            dep = f"n{(i - 1) // 2:03d}"
            procs += ["    dependsOn:", f"      {dep}: ready"]
            pc += ["    depends_on:", f"      {dep}:", "        condition: process_log_ready"]
    paths = (os.path.join(d, "procs.yaml"), os.path.join(d, "pc.yaml"))
    for path, lines in zip(paths, (procs, pc)):
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
    return paths


def sentinel_configs(d, n, tree, stamp):
    """configs() with a sentinel that depends on all n being ready and writes
    the wall-clock time (ns) it started at to stamp."""
    paths = configs(d, n, tree)
    names = [f"n{i:03d}" for i in range(n)]
    procs = ["  zz_all_ready:", f"    command: date +%s%N > {stamp}; exec sleep 1000", "    dependsOn:"]
    procs += [f"      {name}: ready" for name in names]
    pc = ["  zz_all_ready:", f"    command: date +%s%N > {stamp}; exec sleep 1000", "    depends_on:"]
    for name in names:
        pc += [f"      {name}:", "        condition: process_log_ready"]
    for path, lines in zip(paths, (procs, pc)):
        with open(path, "a") as f:
            f.write("\n".join(lines) + "\n")
    return paths


def launch_to_ready(argv, d, stamp):
    """Milliseconds from launching argv to the sentinel's timestamp."""
    if os.path.exists(stamp):
        os.unlink(stamp)
    began = time.time_ns()
    p = start(argv, d)
    ready = None
    deadline = time.monotonic() + 60
    while ready is None and time.monotonic() < deadline:
        try:
            with open(stamp) as f:
                text = f.read()
            ready = int(text) if text.endswith("\n") else None  # date's one write is whole
        except (OSError, ValueError):
            pass
        if ready is None:
            time.sleep(0.001)
    os.kill(p.pid, signal.SIGTERM)
    p.wait()
    return None if ready is None else (ready - began) / 1e6


def floor_once(floor_bin):
    """One floor run of each shape: {"tree": ms, "flat": ms} to all ready."""
    out = subprocess.run([floor_bin, "-repeat", "1"], capture_output=True, text=True, check=True).stdout
    return {shape: float(re.search(rf"200 {shape}, fork → every first line read \(ms\) \| ([0-9.]+)", out).group(1))
            for shape in ("tree", "flat")}


def start_rows(procs_bin, pc_bin, floor_bin, rounds):
    tools = {"procs": lambda cfg: [procs_bin, "up", "-f", cfg],
             "process-compose": lambda cfg: [pc_bin, "up", "-t=false", "-f", cfg]}
    times = {(t, s): [] for t in tools for s in ("tree", "flat")}
    floors = {"tree": [], "flat": []}
    ratios = {(t, s): [] for t in tools for s in ("tree", "flat")}
    with tempfile.TemporaryDirectory() as d:
        stamp = os.path.join(d, "all.ready")
        cfgs = {}
        for shape in ("tree", "flat"):
            os.makedirs(os.path.join(d, shape))
            paths = sentinel_configs(os.path.join(d, shape), 200, shape == "tree", stamp)
            cfgs[shape] = dict(zip(("procs", "process-compose"), paths))
        for _ in range(rounds):
            fl = floor_once(floor_bin)
            time.sleep(0.3)
            for shape in ("tree", "flat"):
                floors[shape].append(fl[shape])
                for tool, argv in tools.items():
                    ms = launch_to_ready(argv(cfgs[shape][tool]), os.path.join(d, shape), stamp)
                    time.sleep(0.3)
                    if ms is not None:
                        times[tool, shape].append(ms)
                        ratios[tool, shape].append(ms / fl[shape])
    rows = []
    for shape in ("tree", "flat"):
        cells = []
        for tool in ("process-compose", "procs"):
            xs = times[tool, shape]
            cells.append(f"{statistics.median(xs):.0f} ms ({statistics.median(ratios[tool, shape]):.2f}× the floor)"
                         if xs else "no run ready in 60 s")
        rows.append((f"200 {shape}: launch → all ready, floor {statistics.median(floors[shape]):.0f} ms in the same "
                     f"rounds; p50 of {rounds}", *cells))
    return rows


def start(argv, d):
    return subprocess.Popen(argv, cwd=d, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)


def children(pid):
    out = []
    for t in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{t}/children") as f:
                out += [int(c) for c in f.read().split()]
        except OSError:
            pass
    return out


def status_kb(pid, field):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def comm(pid):
    try:
        with open(f"/proc/{pid}/comm") as f:
            return f.read().strip()
    except OSError:
        return ""


def main():
    procs_bin, pc_bin = sys.argv[1], sys.argv[2]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    tools = {"procs": lambda cfg: [procs_bin, "up", "-f", cfg],
             "process-compose": lambda cfg: [pc_bin, "up", "-t=false", "-f", cfg]}
    ordered = {"procs": tools["procs"],
               "process-compose": lambda cfg: [pc_bin, "up", "-t=false", "--ordered-shutdown", "-f", cfg]}
    rows = []
    if len(sys.argv) > 4:
        rows += start_rows(procs_bin, pc_bin, sys.argv[4], rounds)
    for label, tree, argvs in (("200 tree", True, tools), ("200 independent", False, tools),
                               ("200 tree, process-compose --ordered-shutdown", True, ordered)):
        with tempfile.TemporaryDirectory() as d:
            cfg = dict(zip(("procs", "process-compose"), configs(d, 200, tree)))
            down = {t: [] for t in argvs}
            for _ in range(rounds):
                for tool, argv in argvs.items():
                    p = start(argv(cfg[tool]), d)
                    time.sleep(3)  # all ready well before
                    began = time.monotonic()
                    os.kill(p.pid, signal.SIGTERM)
                    p.wait()
                    down[tool].append((time.monotonic() - began) * 1000)
                    time.sleep(0.5)
            rows.append((f"{label}: SIGTERM → the tool exited (blocking wait), p50 of {rounds}",
                         *(f"{statistics.median(down[t]):.1f} ms" for t in ("process-compose", "procs"))))
    with tempfile.TemporaryDirectory() as d:
        cfg = dict(zip(("procs", "process-compose"), configs(d, 50, False)))
        rss = {t: [] for t in tools}
        for _ in range(rounds):
            for tool, argv in tools.items():
                p = start(argv(cfg[tool]), d)
                time.sleep(4)
                helpers = [c for c in children(p.pid) if comm(c) != "sleep"]
                kb = status_kb(p.pid, "VmRSS") + sum(status_kb(c, "VmRSS") for c in helpers)
                rss[tool].append((kb / 1024, status_kb(p.pid, "VmRSS") / 1024,
                                  [(comm(c), status_kb(c, "VmRSS") / 1024) for c in helpers]))
                os.kill(p.pid, signal.SIGTERM)
                p.wait()
                time.sleep(0.5)

        def cell(tool):
            total = statistics.median(r[0] for r in rss[tool])
            own = statistics.median(r[1] for r in rss[tool])
            helpers = rss[tool][len(rss[tool]) // 2][2]
            parts = ", ".join(f"{name} {mib:.1f}" for name, mib in helpers)
            return f"{total:.1f} MiB" + (f" (itself {own:.1f}; {parts})" if helpers else "")
        rows.append((f"idle, 50 ready processes: VmRSS of the tool and every helper it runs, p50 of {rounds}",
                     cell("process-compose"), cell("procs")))
    print("| exact rows | process-compose | procs |")
    print("|---|---|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
