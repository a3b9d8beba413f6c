"""A stand-in database for the procs demo: warms up, then says it is ready."""
import signal
import sys
import time

signal.signal(signal.SIGTERM, lambda *_: (print("db: shutting down", flush=True), sys.exit(0)))
print("db: starting up", flush=True)
for step in ("loading catalog", "replaying journal"):
    time.sleep(0.3)
    print(f"db: {step}", flush=True)
print("db: database system is ready to accept connections", flush=True)
while True:
    time.sleep(3600)
