#!/usr/bin/env python3
"""caldav-fault-proxy.py PORT UPSTREAM FAULT: the harness's Radicale with one fault.

Forwards every request to UPSTREAM unchanged, except:
  FAULT no-sync-collection: a REPORT sync-collection is refused with 403, as a server without
      RFC 6578 does. Lets the sync's fallback (a PROPFIND listing of every member's ETag) run
      against a real server.
  FAULT garble-reports:FILE: once FILE exists, every REPORT is answered 207 with a body that is
      not XML, as a broken server or middlebox sends. Discovery (PROPFIND) still works.
"""
import http.client
import sys
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import os

PORT = int(sys.argv[1])
UPSTREAM = urllib.parse.urlsplit(sys.argv[2])
FAULT = sys.argv[3]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def answer(self, status, reply):
        self.send_response(status)
        self.send_header("Content-Type", "application/xml")
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)

    def forward(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        if FAULT.startswith("garble-reports:") and self.command == "REPORT" and os.path.exists(FAULT.split(":", 1)[1]):
            return self.answer(207, b"<?xml version=\"1.0\"?><multistatus xmlns=\"DAV:\"><response><href>/x</")
        if FAULT == "no-sync-collection" and self.command == "REPORT" and b"sync-collection" in body:
            return self.answer(403, b'<?xml version="1.0"?><error xmlns="DAV:"><supported-report/></error>')
        upstream = http.client.HTTPConnection(UPSTREAM.hostname, UPSTREAM.port, timeout=30)
        headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "connection", "keep-alive")}
        upstream.request(self.command, self.path, body=body, headers=headers)
        answer = upstream.getresponse()
        data = answer.read()
        self.send_response(answer.status, answer.reason)
        for k, v in answer.getheaders():
            if k.lower() not in ("connection", "keep-alive", "transfer-encoding", "content-length", "server", "date"):
                self.send_header(k, v)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        upstream.close()

    do_GET = do_PUT = do_DELETE = do_PROPFIND = do_REPORT = do_OPTIONS = do_MKCALENDAR = do_HEAD = forward

    def log_message(self, *args):
        pass


ThreadingHTTPServer(("127.0.0.1", PORT), Handler).serve_forever()
