"""A backend of the nginx-proxy example, on Python's standard library only.

    python3 backend.py NAME PORT

Answers every GET with its name and the path it was asked for, as JSON, so
a request through nginx shows which backend served it and what nginx sent.
"""
import json
import signal
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

NAME, PORT = sys.argv[1], int(sys.argv[2])


class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        body = json.dumps({"backend": NAME, "path": self.path}).encode() + b"\n"
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format, *args):
        # On stdout, one line per request, so `procs logs` shows the traffic.
        print("%s: %s" % (NAME, format % args), flush=True)


# Stop cleanly on procs' SIGTERM rather than with a traceback.
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
server = ThreadingHTTPServer(("127.0.0.1", PORT), Handler)
print("%s backend listening on http://127.0.0.1:%d" % (NAME, PORT), flush=True)
server.serve_forever()
