#!/usr/bin/env python3
"""Two HTTP listeners on loopback that answer as a hostile server would, for the tests of Chime's
HTTP client (Tests/ChimeCalDAVTests/HostileServerTests.swift).

The first answers by path:
  /to-other-port  -> 307 to the second listener (another origin)
  /to-other-port-asking -> 307 to /asks-password on the second listener
  /to-same-origin -> 307 to /landing on itself
  /to-file        -> 307 file:///etc/passwd
  /to-gopher      -> 307 gopher://127.0.0.1:<second port>/_hello
  /landing        -> 200
  /huge           -> 200 with a body of 80 MiB, sent without Content-Length
  /multistatus-large -> 207, a well-formed multistatus of 12,000 responses with calendar data
                     (about 48 MiB), sent without Content-Length
  /multistatus-garbage -> 207 with 80 MiB that is not XML, sent without Content-Length
The second answers 401 to /asks-password and 200 to everything else. Both append one JSON line per request to the log given as
the first argument: the listener, the path and the Authorization header (or null). Prints
{"first": PORT, "second": PORT} on one line once both listen.
"""
import http.server
import json
import sys
import threading

log_path = sys.argv[1]
lock = threading.Lock()


def record(listener, handler):
    with lock, open(log_path, "a") as log:
        log.write(json.dumps({"listener": listener, "path": handler.path,
                              "authorization": handler.headers.get("Authorization")}) + "\n")


class Second(http.server.BaseHTTPRequestHandler):
    def answer(self):
        record("second", self)
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        if self.path == "/asks-password":
            self.send_response(401)
            self.send_header("WWW-Authenticate", 'Basic realm="elsewhere"')
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    do_GET = do_PUT = do_PROPFIND = do_REPORT = do_DELETE = answer

    def log_message(self, *args):
        pass


second = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Second)


class First(Second):
    def answer(self):
        record("first", self)
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        targets = {
            "/to-other-port": "http://127.0.0.1:%d/landing" % second.server_address[1],
            "/to-other-port-asking": "http://127.0.0.1:%d/asks-password" % second.server_address[1],
            "/to-same-origin": "/landing",
            "/to-file": "file:///etc/passwd",
            "/to-gopher": "gopher://127.0.0.1:%d/_hello" % second.server_address[1],
        }
        if self.path == "/multistatus-large":
            self.send_response(207)
            self.send_header("Content-Type", "application/xml; charset=utf-8")
            self.send_header("Connection", "close")
            self.end_headers()
            description = "D" * 3800
            try:
                self.wfile.write(b'<?xml version="1.0"?><multistatus xmlns="DAV:" '
                                 b'xmlns:C="urn:ietf:params:xml:ns:caldav">')
                for n in range(12000):
                    item = ("<response><href>/cal/item-%d.ics</href><propstat><prop><getetag>\"%d\"</getetag>"
                            "<C:calendar-data>BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:item-%d\r\n"
                            "DESCRIPTION:%s\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n</C:calendar-data></prop>"
                            "<status>HTTP/1.1 200 OK</status></propstat></response>" % (n, n, n, description))
                    self.wfile.write(item.encode())
                self.wfile.write(b"</multistatus>")
            except (BrokenPipeError, ConnectionResetError):
                pass
            return
        if self.path in ("/huge", "/multistatus-garbage"):
            # 80 MiB that is not a calendar, without Content-Length: as a 200, or as a 207.
            self.send_response(200 if self.path == "/huge" else 207)
            self.send_header("Connection", "close")
            self.end_headers()
            chunk = b"x" * (1 << 20)
            try:
                for _ in range(80):
                    self.wfile.write(chunk)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client stopped reading, as it should
            return
        if self.path in targets:
            self.send_response(307)
            self.send_header("Location", targets[self.path])
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    do_GET = do_PUT = do_PROPFIND = do_REPORT = do_DELETE = answer


first = http.server.ThreadingHTTPServer(("127.0.0.1", 0), First)
for server in (first, second):
    threading.Thread(target=server.serve_forever, daemon=True).start()
print(json.dumps({"first": first.server_address[1], "second": second.server_address[1]}), flush=True)
sys.stdin.read()  # until the test closes our stdin
