#!/usr/bin/env python3
"""Helper for caldav-bench.sh: set up the Radicale calendars, upload the test data, change items
as "another client", the Python `caldav` client side of the comparison, and a timing runner.

Subcommands (all take --url/--user/--password where they talk to the server):
  setup      MKCALENDAR an events (VEVENT) and a reminders (VTODO) calendar, then PUT the
             generated items concurrently with If-None-Match: * (raw http.client, threads);
             past --put-events/--put-todos the items are written into Radicale's collection
             folder instead (Radicale 3.1.8's PUT is O(items in the collection); see cmd_setup)
  change     GET one event, change its SUMMARY/SEQUENCE/LAST-MODIFIED, PUT it back with If-Match
  py-full    python caldav client: discover, then pull both calendars whole; saves the tokens
  py-inc     python caldav client: discover, then an incremental sync from the saved tokens
  floor      the server floor: Chime's own requests (same bodies, headers, batching, one connection
             each) sent bare with http.client and timed one by one, no parsing or storing in the timing
  run        time a command N times (wall clock, whole process, plus client CPU and the server's
             CPU from /proc); one JSON line per run to --out
  table      print the summary table from the --out file
  check-store  what a Chime store holds after the syncs (read-only SQLite)
"""
import argparse
import base64
import concurrent.futures
import datetime as dt
import http.client
import json
import os
import random
import shlex
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
import uuid

CRLF = "\r\n"
BERLIN_TZ = CRLF.join([
    "BEGIN:VTIMEZONE", "TZID:Europe/Berlin", "X-LIC-LOCATION:Europe/Berlin",
    "BEGIN:DAYLIGHT", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200", "TZNAME:CEST",
    "DTSTART:19700329T020000", "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", "END:DAYLIGHT",
    "BEGIN:STANDARD", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100", "TZNAME:CET",
    "DTSTART:19701025T030000", "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU", "END:STANDARD",
    "END:VTIMEZONE"])


# ---------------------------------------------------------------- raw HTTP (setup, change)

class Raw:
    def __init__(self, url, user, password):
        u = urllib.parse.urlsplit(url)
        self.host, self.port = u.hostname, u.port or 80
        self.auth = "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()
        self.user = user

    def req(self, method, path, body=None, headers=None):
        h = {"Authorization": self.auth}
        h.update(headers or {})
        data = body.encode() if isinstance(body, str) else body
        for attempt in range(5):
            try:
                c = http.client.HTTPConnection(self.host, self.port, timeout=60)
                c.request(method, path, body=data, headers=h)
                r = c.getresponse()
                payload = r.read()
                hdrs = {k.lower(): v for k, v in r.getheaders()}
                c.close()
                return r.status, hdrs, payload
            except (ConnectionError, http.client.HTTPException, TimeoutError):
                if attempt == 4:
                    raise
                time.sleep(0.1 * (attempt + 1))


def fold(line):
    """RFC 5545 folding at 75 octets, never inside a UTF-8 sequence."""
    b = line.encode()
    if len(b) <= 75:
        return line
    out, cur, limit = [], b"", 75
    for ch in line:
        e = ch.encode()
        if len(cur) + len(e) > limit:
            out.append(cur.decode())
            cur, limit = b"", 74
        cur += e
    out.append(cur.decode())
    return (CRLF + " ").join(out)


def esc(text):
    return text.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\n", "\\n")


def utc(t):
    return t.strftime("%Y%m%dT%H%M%SZ")


def local(t):
    return t.strftime("%Y%m%dT%H%M%S")


WORDS = ("review planning sync retro budget design launch dentist gym dinner call interview standup "
         "workshop demo offsite lunch coffee training doctor school parents football yoga piano "
         "quarterly report invoice taxes garden car service haircut birthday concert flight").split()
PLACES = ["Room 4.12, Alexanderplatz 1, 10178 Berlin", "Café Einstein", "Zoom", "Büro Kreuzberg",
          "Hauptbahnhof Gleis 7", "Praxis Dr. Müller, Friedrichstraße 12", "", "", ""]
DAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]


def title(rng):
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 4))).capitalize() + f" #{rng.randint(1, 999)}"


def alarms(rng, start_utc=None):
    out = []
    for _ in range(rng.choice([1, 1, 1, 2])):
        trig = rng.choice(["-PT5M", "-PT10M", "-PT15M", "-PT30M", "-PT1H", "-P1D", "PT0S"])
        if start_utc is not None and rng.random() < 0.1:
            trig_line = "TRIGGER;VALUE=DATE-TIME:" + utc(start_utc - dt.timedelta(hours=2))
        else:
            trig_line = "TRIGGER:" + trig
        out += ["BEGIN:VALARM", "UID:" + str(uuid.UUID(int=rng.getrandbits(128))).upper(),
                "X-WR-ALARMUID:" + str(uuid.UUID(int=rng.getrandbits(128))).upper(),
                "ACTION:DISPLAY", "DESCRIPTION:Reminder", trig_line, "END:VALARM"]
    return out


def make_event(i, rng, base):
    uid = str(uuid.UUID(int=rng.getrandbits(128)))
    stamp = base - dt.timedelta(days=rng.randint(1, 400), minutes=rng.randint(0, 1440))
    start = (base + dt.timedelta(days=rng.randint(-180, 365))).replace(
        hour=rng.randint(7, 20), minute=rng.choice([0, 15, 30, 45]), second=0, microsecond=0)
    dur = dt.timedelta(minutes=rng.choice([15, 30, 45, 60, 60, 90, 120]))
    kind = rng.random()
    berlin = kind < 0.85
    lines = ["BEGIN:VEVENT", "UID:" + uid, "DTSTAMP:" + utc(stamp), "CREATED:" + utc(stamp),
             "LAST-MODIFIED:" + utc(stamp), "SEQUENCE:" + str(rng.choice([0, 0, 0, 1, 2])),
             "SUMMARY:" + esc(title(rng))]
    place = rng.choice(PLACES)
    if place:
        lines.append("LOCATION:" + esc(place))
    if rng.random() < 0.5:
        lines.append("DESCRIPTION:" + esc("Agenda:\n- " + "\n- ".join(title(rng) for _ in range(rng.randint(1, 6)))
                                          + "\nNotes: " + " ".join(rng.choice(WORDS) for _ in range(rng.randint(5, 40)))))
    allday = rng.random() < 0.1
    if allday:
        d = start.date()
        lines += ["DTSTART;VALUE=DATE:" + d.strftime("%Y%m%d"),
                  "DTEND;VALUE=DATE:" + (d + dt.timedelta(days=rng.choice([1, 1, 1, 3]))).strftime("%Y%m%d")]
    elif berlin:
        lines += ["DTSTART;TZID=Europe/Berlin:" + local(start), "DTEND;TZID=Europe/Berlin:" + local(start + dur)]
    else:
        lines += ["DTSTART:" + utc(start), "DTEND:" + utc(start + dur)]
    r = rng.random()
    if r < 0.30:   # weekly
        days = sorted(rng.sample(DAYS[:5], rng.choice([1, 1, 2, 5])), key=DAYS.index)
        rule = "FREQ=WEEKLY;BYDAY=" + ",".join(days)
        end = rng.random()
        if end < 0.3:
            rule += ";COUNT=" + str(rng.randint(5, 52))
        elif end < 0.6:
            rule += ";UNTIL=" + utc(start + dt.timedelta(days=rng.randint(30, 400)))
        if rng.random() < 0.3:
            rule = rule.replace("FREQ=WEEKLY", "FREQ=WEEKLY;INTERVAL=2")
        lines.append("RRULE:" + rule)
        if rng.random() < 0.25 and not allday:
            ex = start + dt.timedelta(weeks=rng.randint(1, 4))
            lines.append(("EXDATE;TZID=Europe/Berlin:" + local(ex)) if berlin else ("EXDATE:" + utc(ex)))
    elif r < 0.36:
        lines.append("RRULE:FREQ=DAILY;COUNT=" + str(rng.randint(2, 30)))
    elif r < 0.40:
        lines.append("RRULE:FREQ=MONTHLY;BYMONTHDAY=" + str(start.day if start.day <= 28 else 28))
    elif r < 0.42:
        lines.append("RRULE:FREQ=YEARLY")
    if rng.random() < 0.2:
        lines.append("CATEGORIES:" + ",".join(rng.sample(["Work", "Family", "Sport", "Health", "Travel"], 2)))
    lines += ["STATUS:" + rng.choice(["CONFIRMED", "CONFIRMED", "TENTATIVE"]),
              "TRANSP:" + ("TRANSPARENT" if allday else "OPAQUE")]
    if rng.random() < 0.4:
        lines += alarms(rng, start - dt.timedelta(hours=1) if not allday else None)
    lines.append("END:VEVENT")
    uses_tz = berlin and not allday
    return uid, wrap(lines, uses_tz)


def make_todo(i, rng, base):
    uid = str(uuid.UUID(int=rng.getrandbits(128))).upper()
    stamp = base - dt.timedelta(days=rng.randint(1, 200), minutes=rng.randint(0, 1440))
    lines = ["BEGIN:VTODO", "UID:" + uid, "DTSTAMP:" + utc(stamp), "CREATED:" + utc(stamp),
             "LAST-MODIFIED:" + utc(stamp), "SUMMARY:" + esc(title(rng))]
    if rng.random() < 0.3:
        lines.append("DESCRIPTION:" + esc(" ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 30)))))
    if rng.random() < 0.3:
        lines.append("PRIORITY:" + str(rng.choice([1, 5, 9])))
    uses_tz = False
    has_due = rng.random() < 0.6
    if has_due:
        due = (base + dt.timedelta(days=rng.randint(-30, 120))).replace(
            hour=rng.randint(8, 20), minute=rng.choice([0, 30]), second=0, microsecond=0)
        if rng.random() < 0.2:
            lines.append("DUE;VALUE=DATE:" + due.strftime("%Y%m%d"))
        else:
            uses_tz = True
            lines.append("DUE;TZID=Europe/Berlin:" + local(due))
            if rng.random() < 0.1:
                lines.append("DTSTART;TZID=Europe/Berlin:" + local(due))
                lines.append("RRULE:FREQ=WEEKLY;BYDAY=" + DAYS[due.weekday()])
    if rng.random() < 0.12:
        done = stamp + dt.timedelta(days=rng.randint(0, 10))
        lines += ["STATUS:COMPLETED", "COMPLETED:" + utc(done), "PERCENT-COMPLETE:100"]
    else:
        lines.append("STATUS:NEEDS-ACTION")
    if has_due and rng.random() < 0.5:
        lines += alarms(rng)
    lines.append("END:VTODO")
    return uid, wrap(lines, uses_tz)


def wrap(lines, uses_tz):
    cal = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Chime bench//caldav-bench//EN", "CALSCALE:GREGORIAN"]
    if uses_tz:
        cal.append(BERLIN_TZ)
    cal += [fold(l) for l in lines] + ["END:VCALENDAR"]
    return CRLF.join(cal) + CRLF


def mkcalendar(raw, path, name, comp, color):
    body = f"""<?xml version="1.0" encoding="utf-8"?>
<C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav" xmlns:A="http://apple.com/ns/ical/">
<D:set><D:prop><D:displayname>{name}</D:displayname><A:calendar-color>{color}</A:calendar-color>
<C:supported-calendar-component-set><C:comp name="{comp}"/></C:supported-calendar-component-set>
</D:prop></D:set></C:mkcalendar>"""
    st, _, payload = raw.req("MKCALENDAR", path, body, {"Content-Type": "application/xml; charset=utf-8"})
    if st != 201:
        sys.exit(f"MKCALENDAR {path}: HTTP {st} {payload[:200]!r}")


def cmd_setup(a):
    raw = Raw(a.url, a.user, a.password)
    home = f"/{a.user}/"
    st, _, _ = raw.req("PROPFIND", home, '<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop><D:resourcetype/></D:prop></D:propfind>',
                       {"Depth": "0", "Content-Type": "application/xml; charset=utf-8"})
    if st != 207:
        sys.exit(f"PROPFIND {home}: HTTP {st}")
    mkcalendar(raw, home + "events/", "Bench events", "VEVENT", "#1E90FFFF")
    mkcalendar(raw, home + "todos/", "Bench reminders", "VTODO", "#FF8C00FF")
    rng = random.Random(a.seed)
    base = dt.datetime.now(dt.timezone.utc).replace(tzinfo=None, microsecond=0)
    items = []
    stats = {"events": 0, "todos": 0, "rrule": 0, "valarm": 0, "tzid": 0, "bytes": 0}
    for i in range(a.events):
        uid, text = make_event(i, rng, base)
        items.append((home + "events/" + uid + ".ics", text))
    for i in range(a.todos):
        uid, text = make_todo(i, rng, base)
        items.append((home + "todos/" + uid + ".ics", text))
    for path, text in items:
        stats["events" if "/events/" in path else "todos"] += 1
        stats["rrule"] += "RRULE:FREQ" in text.split("END:VTIMEZONE")[-1]
        stats["valarm"] += "BEGIN:VALARM" in text
        stats["tzid"] += "BEGIN:VTIMEZONE" in text
        stats["bytes"] += len(text.encode())
    with open(a.list, "w") as f:
        for path, _ in items:
            if "/events/" in path:
                f.write(path + "\n")
    lock = threading.Lock()
    failures = []

    def put(item):
        path, text = item
        st, _, payload = raw.req("PUT", path, text, {"If-None-Match": "*", "Content-Type": "text/calendar; charset=utf-8"})
        if st not in (200, 201, 204):
            with lock:
                failures.append(f"{path}: HTTP {st} {payload[:200]!r}")

    # Radicale 3.1.8 checks every PUT for a UID clash by reading every item of the collection
    # (BaseCollection.has_uid -> get_all), so N PUTs cost O(N^2): 600 took 31 s here and 6,000
    # would take tens of minutes. So: the first --put-events/--put-todos items go in as real
    # concurrent PUTs (If-None-Match: *, stored in Radicale's own serialization), the rest are
    # written straight into the collection folder (<uid>.ics, under Radicale's storage lock), which
    # is what a PUT leaves there apart from the re-serialization; a warm-up listing then builds
    # Radicale's item cache, as the PUTs would have, and checks that the server sees every item.
    events = [it for it in items if "/events/" in it[0]]
    todos = [it for it in items if "/todos/" in it[0]]
    via_put = events[:a.put_events] + todos[:a.put_todos]
    direct = events[a.put_events:] + todos[a.put_todos:]
    t0 = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(a.threads) as ex:
        list(ex.map(put, via_put))
    t_put = time.perf_counter() - t0
    if failures:
        sys.exit(f"{len(failures)} PUTs failed, e.g. " + "; ".join(failures[:3]))
    t1 = time.perf_counter()
    if direct:
        if not a.storage:
            sys.exit("--storage (Radicale's filesystem_folder) is needed for the items not PUT")
        import fcntl
        with open(os.path.join(a.storage, ".Radicale.lock"), "a+") as lk:
            fcntl.flock(lk.fileno(), fcntl.LOCK_EX)
            for path, text in direct:
                target = os.path.join(a.storage, "collection-root", path.strip("/"))
                if os.path.exists(target):
                    sys.exit(f"{target} exists already")
                with open(target, "w", newline="", encoding="utf-8") as f:
                    f.write(text)
            fcntl.flock(lk.fileno(), fcntl.LOCK_UN)
    t_direct = time.perf_counter() - t1
    t2 = time.perf_counter()
    seen = {}
    for coll in ("events/", "todos/"):
        body = ('<?xml version="1.0" encoding="utf-8"?><D:sync-collection xmlns:D="DAV:"><D:sync-token/>'
                '<D:sync-level>1</D:sync-level><D:prop><D:getetag/></D:prop></D:sync-collection>')
        st, _, payload = raw.req("REPORT", home + coll, body, {"Depth": "0", "Content-Type": "application/xml; charset=utf-8"})
        if st != 207:
            sys.exit(f"warm-up sync-collection {coll}: HTTP {st} {payload[:300]!r}")
        seen[coll] = payload.count(b"getetag>") // 2
    t_warm = time.perf_counter() - t2
    if seen["events/"] != a.events or seen["todos/"] != a.todos:
        sys.exit(f"the server lists {seen} items, expected {a.events} events and {a.todos} to-dos")
    print(f"data: {stats['events']} events + {stats['todos']} to-dos, {stats['bytes'] / 1e6:.1f} MB "
          f"({stats['rrule']} with RRULE, {stats['valarm']} with VALARM, {stats['tzid']} with a VTIMEZONE)")
    print(f"upload: {len(via_put)} concurrent PUTs (If-None-Match: *, {a.threads} threads) in {t_put:.1f} s "
          f"({len(via_put) / max(t_put, 1e-9):.0f} PUT/s); {len(direct)} written into the collection folders in {t_direct:.1f} s; "
          f"warm-up listing (Radicale builds its item cache) {t_warm:.1f} s; server lists {seen['events/']} + {seen['todos/']}")


def cmd_change(a):
    raw = Raw(a.url, a.user, a.password)
    paths = open(a.list).read().split()
    path = paths[(a.index + a.offset) % len(paths)]
    st, h, body = raw.req("GET", path)
    if st != 200:
        sys.exit(f"GET {path}: HTTP {st}")
    text = body.decode()
    now = utc(dt.datetime.now(dt.timezone.utc))
    out, in_event = [], False
    for line in text.split(CRLF):
        if line == "BEGIN:VEVENT":
            in_event = True
        elif line == "END:VEVENT":
            in_event = False
        if in_event and line.startswith("SUMMARY:"):
            line = f"SUMMARY:Changed by another client {a.index}"
        elif in_event and line.startswith("SEQUENCE:"):
            line = "SEQUENCE:" + str(int(line.split(":", 1)[1]) + 1)
        elif in_event and (line.startswith("LAST-MODIFIED:") or line.startswith("DTSTAMP:")):
            line = line.split(":", 1)[0] + ":" + now
        out.append(line)
    st, h2, payload = raw.req("PUT", path, CRLF.join(out), {"If-Match": h["etag"], "Content-Type": "text/calendar; charset=utf-8"})
    if st not in (200, 201, 204):
        sys.exit(f"PUT {path}: HTTP {st} {payload[:200]!r}")
    print(path)


# ---------------------------------------------------------------- the python caldav client

def py_client(a):
    import caldav
    from caldav import davclient
    counter = {"n": 0}
    orig = davclient.DAVClient.request

    def counted(self, *args, **kw):
        counter["n"] += 1
        return orig(self, *args, **kw)

    davclient.DAVClient.request = counted
    # auth_type="basic": credentials on the first request, as Chime does (no 401 round trip)
    client = caldav.DAVClient(url=a.url, username=a.user, password=a.password, auth_type="basic")
    return client, counter


def cmd_py_full(a):
    t0 = time.perf_counter()
    client, counter = py_client(a)
    cals = client.principal().calendars()
    tokens, n, nbytes = {}, 0, 0
    for cal in cals:
        if a.mode == "load":
            # the library's sync API as documented: sync-collection, then obj.load() = one GET per object
            objs = cal.objects_by_sync_token(load_objects=True)
            token = objs.sync_token
            datas = [o.data for o in objs]
        else:
            # sync-collection for hrefs + token, then one calendar-multiget REPORT for all of them
            objs = cal.objects_by_sync_token(load_objects=False)
            token = objs.sync_token
            datas = [o.data for o in cal.multiget([o.url for o in objs])]
        tokens[str(cal.url)] = token
        n += len(datas)
        nbytes += sum(len(d) for d in datas if d)
    if a.tokens:
        with open(a.tokens, "w") as f:
            json.dump(tokens, f)
    print(json.dumps({"objects": n, "bytes": nbytes, "calendars": len(cals), "requests": counter["n"],
                      "inproc_ms": round((time.perf_counter() - t0) * 1000, 1)}))


def cmd_py_inc(a):
    t0 = time.perf_counter()
    tokens = json.load(open(a.tokens))
    client, counter = py_client(a)
    cals = client.principal().calendars()
    n = 0
    for cal in cals:
        objs = cal.objects_by_sync_token(sync_token=tokens.get(str(cal.url)), load_objects=True)
        n += len([o for o in objs if o.url.canonical() not in objs.deleted_urls])
        tokens[str(cal.url)] = objs.sync_token
    if a.save:
        with open(a.tokens, "w") as f:
            json.dump(tokens, f)
    print(json.dumps({"objects": n, "calendars": len(cals), "requests": counter["n"],
                      "inproc_ms": round((time.perf_counter() - t0) * 1000, 1)}))


# ---------------------------------------------------------------- the server floor

# Chime's request bodies and headers (Sources/ChimeCalDAV/CalDAVServer.swift, DAVClient.swift), so
# the floor costs the server what a Chime sync costs it: one new connection per request (Chime
# opens a libcurl easy handle per request), Basic auth up front, Accept-Encoding gzip (Radicale
# then compresses every answer), multiget in batches of 100.
FLOOR_PROPFIND_PROP = ('<?xml version="1.0" encoding="utf-8"?>\n<D:propfind xmlns:D="DAV:" '
                       'xmlns:C="urn:ietf:params:xml:ns:caldav"><D:prop><{p}/></D:prop></D:propfind>')
FLOOR_PROPFIND_HOME = ('<?xml version="1.0" encoding="utf-8"?>\n<D:propfind xmlns:D="DAV:" '
                       'xmlns:C="urn:ietf:params:xml:ns:caldav" xmlns:A="http://apple.com/ns/ical/">\n'
                       '<D:prop><D:resourcetype/><D:displayname/><C:supported-calendar-component-set/>'
                       '<A:calendar-color/></D:prop>\n</D:propfind>')
FLOOR_SYNC = ('<?xml version="1.0" encoding="utf-8"?>\n<D:sync-collection xmlns:D="DAV:"><D:sync-token>{t}'
              '</D:sync-token><D:sync-level>1</D:sync-level><D:prop><D:getetag/></D:prop></D:sync-collection>')
FLOOR_MULTIGET = ('<?xml version="1.0" encoding="utf-8"?>\n<C:calendar-multiget xmlns:D="DAV:" '
                  'xmlns:C="urn:ietf:params:xml:ns:caldav"><D:prop><D:getetag/><C:calendar-data/></D:prop>'
                  '{hrefs}</C:calendar-multiget>')


def cmd_floor(a):
    """The bare requests of a Chime sync, timed one by one: what the server (plus loopback HTTP)
    costs with no client work at all. The JSON line has the sum of the request times (floor_ms)
    and the time per kind of request."""
    import gzip
    import xml.etree.ElementTree as ET
    from xml.sax.saxutils import escape
    t_start = time.perf_counter()
    raw = Raw(a.url, a.user, a.password)
    D, C = "{DAV:}", "{urn:ietf:params:xml:ns:caldav}"
    spent = {}      # kind -> [ms, count]
    nbytes = [0]

    def req(kind, method, path, body, depth):
        t0 = time.perf_counter()
        st, h, payload = raw.req(method, path, body, {"Depth": depth, "Content-Type": "application/xml; charset=utf-8",
                                                      "Accept-Encoding": "gzip", "Expect": ""})
        ms = (time.perf_counter() - t0) * 1000
        k = spent.setdefault(kind, [0.0, 0])
        k[0] += ms
        k[1] += 1
        nbytes[0] += len(payload)
        if st != 207:
            sys.exit(f"floor: {method} {path}: HTTP {st} {payload[:300]!r}")
        if h.get("content-encoding") == "gzip":
            payload = gzip.decompress(payload)
        return ET.fromstring(payload)

    home = f"/{a.user}/"
    if a.mode == "initial":   # `account add`: the two discovery PROPFINDs first
        req("discovery PROPFIND", "PROPFIND", "/", FLOOR_PROPFIND_PROP.format(p="D:current-user-principal"), "0")
        req("discovery PROPFIND", "PROPFIND", home, FLOOR_PROPFIND_PROP.format(p="C:calendar-home-set"), "0")
    listing = req("home PROPFIND", "PROPFIND", home, FLOOR_PROPFIND_HOME, "1")
    cals = [r.findtext(D + "href") for r in listing.iter(D + "response")
            if r.find(f".//{D}resourcetype/{C}calendar") is not None]
    tokens = json.load(open(a.tokens)) if a.mode == "inc" else {}
    objects = 0
    for cal in cals:
        ms = req("sync-collection REPORT", "REPORT", cal, FLOOR_SYNC.format(t=escape(tokens.get(cal, ""))), "0")
        changed = [r.findtext(D + "href") for r in ms.iter(D + "response")
                   if not (r.findtext(D + "status") or "").split(" ")[1:2] == ["404"]
                   and not r.findtext(D + "href").endswith("/")]
        tokens[cal] = ms.findtext(D + "sync-token")
        for i in range(0, len(changed), 100):
            hrefs = "".join(f"<D:href>{escape(h)}</D:href>" for h in changed[i:i + 100])
            got = req("calendar-multiget REPORT", "REPORT", cal, FLOOR_MULTIGET.format(hrefs=hrefs), "1")
            objects += sum(1 for _ in got.iter(C + "calendar-data"))
    if a.mode == "initial" or a.save:
        with open(a.tokens, "w") as f:
            json.dump(tokens, f)
    out = {"objects": objects, "calendars": len(cals), "requests": sum(k[1] for k in spent.values()),
           "floor_ms": round(sum(k[0] for k in spent.values()), 1),
           "inproc_ms": round((time.perf_counter() - t_start) * 1000, 1), "bytes_on_wire": nbytes[0],
           "by_request": {kind: f"{k[1]} x, {k[0]:.1f} ms" for kind, k in spent.items()}}
    print(json.dumps(out))


# ---------------------------------------------------------------- timing

def proc_cpu_ms(pid):
    """utime + stime of a process, in ms (from /proc/PID/stat)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def cmd_run(a):
    import resource
    cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd
    for i in range(1, a.runs + 1):
        if a.before:
            b = subprocess.run(a.before.replace("{i}", str(i)), shell=True, capture_output=True, text=True)
            if b.returncode != 0:
                sys.exit(f"[{a.label}] setup step failed: {b.stderr.strip() or b.stdout.strip()}")
        argv = [c.replace("{i}", str(i)) for c in cmd]
        server0 = proc_cpu_ms(a.server_pid) if a.server_pid else None
        ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        try:
            p = subprocess.run(argv, capture_output=True, text=True, timeout=a.timeout)
            rc, out, err_text = p.returncode, p.stdout, p.stderr
        except subprocess.TimeoutExpired as e:
            rc, out, err_text = "timeout", (e.stdout or b"").decode() if isinstance(e.stdout, bytes) else (e.stdout or ""), f"timed out after {a.timeout} s"
        ms = (time.perf_counter() - t0) * 1000
        ru1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        server1 = proc_cpu_ms(a.server_pid) if a.server_pid else None
        rec = {"label": a.label, "run": i, "ms": round(ms, 1), "rc": rc,
               "client_cpu_ms": round((ru1.ru_utime + ru1.ru_stime - ru0.ru_utime - ru0.ru_stime) * 1000),
               "server_cpu_ms": round(server1 - server0) if server0 is not None and server1 is not None else None,
               "stderr": err_text.strip()[-20000:], "stdout": out.strip()[-4000:]}
        try:
            rec["json"] = json.loads(out.strip().splitlines()[-1])
        except Exception:
            rec["json"] = None
        with open(a.out, "a") as f:
            f.write(json.dumps(rec) + "\n")
        extra = ""
        if rec["json"]:
            j = rec["json"]
            extra = "  " + " ".join(f"{k}={j[k]}" for k in ("pulled", "removed_here", "pushed", "removed_there", "objects", "requests", "inproc_ms", "floor_ms") if k in j)
            if j.get("by_request"):
                extra += " (" + "; ".join(f"{k}: {v}" for k, v in j["by_request"].items()) + ")"
            if j.get("conflicts"):
                extra += f" conflicts={len(j['conflicts'])}"
        err = ""
        if err_text.strip():
            lines = err_text.strip().splitlines()
            err = f"  stderr: {len(lines)} line(s), first: {lines[0][:160]}"
        print(f"  [{a.label}] run {i}: {ms:8.1f} ms  rc={rc}  cpu client {rec['client_cpu_ms']} ms"
              f"{'' if rec['server_cpu_ms'] is None else ' server ' + str(rec['server_cpu_ms']) + ' ms'}{extra}{err}",
              file=sys.stderr, flush=True)
        if rc != 0:
            print(f"  [{a.label}] FAILED: {' '.join(shlex.quote(x) for x in argv)}\n{err_text.strip()[:2000]}", file=sys.stderr)


def cmd_table(a):
    recs = [json.loads(l) for l in open(a.out)]
    order = []
    for r in recs:
        if r["label"] not in order:
            order.append(r["label"])
    rows, med, req_med = [], {}, {}
    for label in order:
        rs = [r for r in recs if r["label"] == label]
        ok = [r for r in rs if r["rc"] == 0]
        times = [r["ms"] for r in ok]
        js = [r["json"] for r in ok if r.get("json")]
        reqs = sorted({j["requests"] for j in js if "requests" in j})
        items = sorted({j.get("pulled", j.get("objects")) for j in js} - {None})
        ccpu = [r["client_cpu_ms"] for r in ok if r.get("client_cpu_ms") is not None]
        scpu = [r["server_cpu_ms"] for r in ok if r.get("server_cpu_ms") is not None]
        floor = [j["floor_ms"] for j in js if "floor_ms" in j]
        m = statistics.median(times) if times else float("nan")
        med[label] = m
        if floor:
            req_med[label] = statistics.median(floor)
        f0 = lambda xs: f"{statistics.median(xs):.0f}" if xs else "-"
        rows.append((label, f"{len(ok)}/{len(rs)}", f0(times), f"{min(times):.0f}" if times else "-", f0(floor),
                     "/".join(map(str, reqs)) or "-", "/".join(map(str, items)) or "-", f0(ccpu), f0(scpu)))
    head = ("measurement", "ok/runs", "median ms", "min ms", "requests ms", "requests", "items", "client CPU ms", "server CPU ms")
    w = [max(len(str(x[i])) for x in rows + [head]) for i in range(len(head))]
    line = lambda r: "  ".join(str(c).ljust(w[i]) if i == 0 else str(c).rjust(w[i]) for i, c in enumerate(r))
    print(line(head))
    print("  ".join("-" * x for x in w))
    for r in rows:
        print(line(r))
    for num, den in a.ratio or []:
        if num in med and den in med and med[den] == med[den] and med[num] == med[num]:
            print(f"ratio {num} / {den} (median wall): {med[num] / med[den]:.2f}")
    for num, den in a.gap or []:
        if num in med and den in req_med and med[num] == med[num]:
            print(f"{num}: {med[num]:.0f} ms, of which the bare requests ({den}) take {req_med[den]:.0f} ms: "
                  f"{med[num] - req_med[den]:.0f} ms above the server floor ({med[num] / req_med[den]:.2f}x)")


def cmd_check_store(a):
    """What the store holds after the syncs (read-only): items by kind, alarms, sync rows."""
    import sqlite3
    db = sqlite3.connect(f"file:{a.store}?mode=ro", uri=True)
    q = lambda sql: db.execute(sql).fetchone()[0]
    ev = q("SELECT count(*) FROM item WHERE kind='event' AND series_id IS NULL")
    td = q("SELECT count(*) FROM item WHERE kind='reminder' AND series_id IS NULL")
    rec = q("SELECT count(*) FROM item WHERE series_id IS NULL AND rrules != ''")
    with_alarm = q("SELECT count(DISTINCT item_id) FROM alarm")
    res = q("SELECT count(*) FROM sync_resource")
    foreign = q("SELECT count(*) FROM sync_resource WHERE foreign_content != 0")
    changed = q("SELECT count(*) FROM item WHERE title LIKE 'Changed by another client%'")
    conflicts = q("SELECT count(*) FROM sync_conflict")
    print(json.dumps({"events": ev, "reminders": td, "recurring": rec, "items_with_alarms": with_alarm,
                      "sync_resources": res, "foreign": foreign, "changed_titles": changed, "conflicts": conflicts}))


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd_name", required=True)

    def server(sp):
        sp.add_argument("--url", required=True)
        sp.add_argument("--user", default="alice")
        sp.add_argument("--password", default="alice-secret")

    s = sub.add_parser("setup"); server(s)
    s.add_argument("--events", type=int, default=5000); s.add_argument("--todos", type=int, default=1000)
    s.add_argument("--threads", type=int, default=8); s.add_argument("--seed", type=int, default=20261124)
    s.add_argument("--list", required=True, help="file to write the event paths to")
    s.add_argument("--put-events", type=int, default=200); s.add_argument("--put-todos", type=int, default=50)
    s.add_argument("--storage", help="Radicale's filesystem_folder (items beyond --put-* are written there)")
    s.set_defaults(f=cmd_setup)
    s = sub.add_parser("change"); server(s)
    s.add_argument("--list", required=True); s.add_argument("--index", type=int, required=True)
    s.add_argument("--offset", type=int, default=0)
    s.set_defaults(f=cmd_change)
    s = sub.add_parser("py-full"); server(s)
    s.add_argument("--mode", choices=["multiget", "load"], default="multiget"); s.add_argument("--tokens")
    s.set_defaults(f=cmd_py_full)
    s = sub.add_parser("py-inc"); server(s)
    s.add_argument("--tokens", required=True)
    s.add_argument("--save", action="store_true", help="write the new tokens back")
    s.set_defaults(f=cmd_py_inc)
    s = sub.add_parser("floor"); server(s)
    s.add_argument("--mode", choices=["initial", "inc"], required=True)
    s.add_argument("--tokens", required=True, help="sync tokens by collection: written by initial, read by inc")
    s.add_argument("--save", action="store_true", help="inc: write the new tokens back")
    s.set_defaults(f=cmd_floor)
    s = sub.add_parser("run")
    s.add_argument("--label", required=True); s.add_argument("--runs", type=int, default=5)
    s.add_argument("--before"); s.add_argument("--out", required=True)
    s.add_argument("--server-pid", type=int); s.add_argument("--timeout", type=float, default=300)
    s.add_argument("cmd", nargs=argparse.REMAINDER)
    s.set_defaults(f=cmd_run)
    s = sub.add_parser("check-store")
    s.add_argument("store")
    s.set_defaults(f=cmd_check_store)
    s = sub.add_parser("table")
    s.add_argument("--out", required=True)
    s.add_argument("--ratio", nargs=2, action="append", metavar=("NUM", "DEN"))
    s.add_argument("--gap", nargs=2, action="append", metavar=("NUM", "FLOOR"),
                   help="NUM's median wall clock against FLOOR's median request time")
    s.set_defaults(f=cmd_table)
    a = p.parse_args()
    a.f(a)


if __name__ == "__main__":
    main()
