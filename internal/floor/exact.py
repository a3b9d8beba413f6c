#!/usr/bin/env python3
"""Rows the scenario harness cannot give exactly, for perf-table.sh.

- SIGTERM -> the tool exited, timed with a blocking wait (the harness polls
  in steps ending at 15, 31 and 63 ms), for 200 processes in a dependency
  tree and 200 independent ones: procs and process-compose interleaved.
  procs stops the tree in reverse dependency order; process-compose does so
  only with --ordered-shutdown (by default it signals all at once), so the
  tree is also timed with that flag: the like-for-like row.
- Idle resident memory of the tool and every helper it runs (its children
  that are not the managed `sleep`s), 50 ready processes: the harness counts
  helpers only when they run the tool's own binary or share its process
  group, and procs' idle watchdog is an sh in a group of its own.

usage: exact.py PROCS_BIN PC_BIN [ROUNDS]
"""
import os
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
