#!/bin/sh
# A background worker for the procs demo: reports a heartbeat every few seconds.
echo "worker: waiting for jobs"
n=0
while true; do
  sleep 5
  n=$((n + 1))
  echo "worker: heartbeat $n, queue empty"
done
