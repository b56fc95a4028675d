#!/usr/bin/env python3
"""caldav-fault-proxy.py PORT UPSTREAM FAULT: the harness's Radicale with one fault.

Forwards every request to UPSTREAM unchanged, except:
  FAULT no-sync-collection: a REPORT sync-collection is refused with 403, as a server without
      RFC 6578 does. Lets the sync's fallback (a PROPFIND listing of every member's ETag) run
      against a real server.
  FAULT garble-reports:FILE: once FILE exists, every REPORT is answered 207 with a body that is
      not XML, as a broken server or middlebox sends. Discovery (PROPFIND) still works.
  FAULT unique-uids: each UID lives in one calendar of the home, as Cyrus (Fastmail) keeps it:
      a PUT that creates a member whose UID another calendar holds is refused with 403 and
      CALDAV:no-uid-conflict (RFC 4791 5.3.2.1). UIDs are learnt from the writes that pass through.
  FAULT no-mkcalendar: MKCALENDAR is refused with 403, as a server that lets users create no
      calendars (a shared or provisioned account) answers.
  FAULT strip-answers:FILE: a server that keeps only the properties it knows: a PUT loses its
      ACKNOWLEDGED, X-MOZ-* and RELATED-TO lines and is answered without an ETag (RFC 4791
      5.3.4: the stored copy differs from the one sent). Each PUT's path is appended to FILE.
  FAULT count:FILE: no fault: every request's method and path is appended to FILE (a line each),
      to count what a client sends (Tests/bench/sync-requests.sh).
"""
import http.client
import sys
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import os

PORT = int(sys.argv[1])
UPSTREAM = urllib.parse.urlsplit(sys.argv[2])
FAULT = sys.argv[3]


UID_HOME = {}   # UID -> the collection path that holds it (unique-uids)
MEMBERS = {}    # member path -> its UID (unique-uids)


def collection_of(path):
    return path.rsplit("/", 1)[0] + "/"


def uid_of(body):
    for line in body.decode("utf-8", "replace").replace("\r\n ", "").splitlines():
        if line.upper().startswith("UID:"):
            return line[4:].strip()
    return None


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
        if FAULT == "no-mkcalendar" and self.command == "MKCALENDAR":
            return self.answer(403, b'<?xml version="1.0"?><error xmlns="DAV:"><need-privileges/></error>')
        if FAULT == "no-sync-collection" and self.command == "REPORT" and b"sync-collection" in body:
            return self.answer(403, b'<?xml version="1.0"?><error xmlns="DAV:"><supported-report/></error>')
        if FAULT.startswith("count:"):
            with open(FAULT.split(":", 1)[1], "a") as log:
                log.write(self.command + " " + self.path + "\n")
        if FAULT.startswith("strip-answers:") and self.command == "PUT":
            with open(FAULT.split(":", 1)[1], "a") as log:
                log.write(self.path + "\n")
            kept = [line for line in body.decode("utf-8").replace("\r\n ", "").split("\r\n")
                    if not line.upper().startswith(("ACKNOWLEDGED", "X-MOZ-", "RELATED-TO"))]
            body = "\r\n".join(kept).encode("utf-8")
        uid = uid_of(body) if FAULT == "unique-uids" and self.command == "PUT" else None
        if uid and self.headers.get("If-None-Match") == "*" and UID_HOME.get(uid, collection_of(self.path)) != collection_of(self.path):
            return self.answer(403, b'<?xml version="1.0"?><error xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">'
                                    b'<C:no-uid-conflict><href>' + UID_HOME[uid].encode() + b'</href></C:no-uid-conflict></error>')
        upstream = http.client.HTTPConnection(UPSTREAM.hostname, UPSTREAM.port, timeout=30)
        headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "connection", "keep-alive", "content-length")}
        if body or self.command in ("PUT", "POST"):
            headers["Content-Length"] = str(len(body))
        if "Destination" in headers:
            # A MOVE names its target on this proxy; the server wants its own address there.
            target = urllib.parse.urlsplit(headers["Destination"])
            headers["Destination"] = urllib.parse.urlunsplit((UPSTREAM.scheme, UPSTREAM.netloc, target.path, target.query, ""))
        upstream.request(self.command, self.path, body=body, headers=headers)
        answer = upstream.getresponse()
        data = answer.read()
        if FAULT == "unique-uids" and 200 <= answer.status < 300:
            if uid:
                UID_HOME[uid] = collection_of(self.path)
                MEMBERS[self.path] = uid
            elif self.command == "MOVE" and self.path in MEMBERS:
                target = urllib.parse.urlsplit(self.headers.get("Destination", "")).path
                moved = MEMBERS.pop(self.path)
                MEMBERS[target] = moved
                UID_HOME[moved] = collection_of(target)
            elif self.command == "DELETE" and self.path in MEMBERS:
                UID_HOME.pop(MEMBERS.pop(self.path), None)
        self.send_response(answer.status, answer.reason)
        for k, v in answer.getheaders():
            if k.lower() not in ("connection", "keep-alive", "transfer-encoding", "content-length", "server", "date"):
                if FAULT.startswith("strip-answers:") and self.command == "PUT" and k.lower() == "etag":
                    continue
                self.send_header(k, v)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        upstream.close()

    do_GET = do_PUT = do_DELETE = do_PROPFIND = do_REPORT = do_OPTIONS = do_MKCALENDAR = do_HEAD = do_MOVE = do_PROPPATCH = forward

    def log_message(self, *args):
        pass


ThreadingHTTPServer(("127.0.0.1", PORT), Handler).serve_forever()
