#!/usr/bin/env bash
# Prints procs' performance table: procs and process-compose side by side
# (the scenario harness: run.py, interleave.py and table.py), then the
# machine's floor for the 200-process rows (internal/floor), measured in
# the same session, so that every figure has its reference beside it;
# then the rows the harness cannot give exactly (exact.py): shutdown timed
# with a blocking wait, start timed with the floor run in the same rounds,
# and the memory of every helper the tool runs.
#
#   BENCH_DIR=path/to/bench PC_BIN=path/to/process-compose internal/floor/perf-table.sh
set -euo pipefail
: "${BENCH_DIR:?set BENCH_DIR to the scenario harness folder (run.py, interleave.py, table.py)}"
: "${PC_BIN:?set PC_BIN to a process-compose binary (the harness README says how to build one)}"
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Built as the release is (.goreleaser.yaml): what users run.
CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$work/procs" ./cmd/procs
CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$work/floor" ./internal/floor/cmd/floor
cp -r "$BENCH_DIR" "$work/bench" # it writes results/ beside itself
chmod -R u+w "$work/bench"
mkdir -p "$work/bench/results"
floor=$("$work/floor" -repeat 5)
tag="perf-$$"
(
  cd "$work/bench"
  PROCS_BIN="$work/procs" PC_BIN="$PC_BIN" python3 interleave.py \
    --scenario ready-latency,restart-latency,idle-cpu,dag-scale --rounds 1 --repeat 3 --tag "$tag" >/dev/null
  python3 table.py "$tag"
)
echo
echo "| the machine's floor, same session | p50 |"
echo "|---|---|"
echo "$floor"
echo
python3 internal/floor/exact.py "$work/procs" "$PC_BIN" 11 "$work/floor"
