#!/usr/bin/env python3
"""Fake GPS for GeoClue's NMEA source: listen on a UNIX socket and stream $GPGGA + $GPRMC for the
position in a control file, every NMEA_INTERVAL seconds (default 1.0).

usage: nmea-feed.py SOCKET POSFILE     (POSFILE holds "lat lon", e.g. "48.8584 2.2945"; rewrite it to move)

geoclue is the *client*: it connects when its first EXACT-level client starts and disconnects when the last
one stops (both are logged here, which tests read). Never close a connection ourselves: geoclue 2.6 never
reconnects after EOF from the feeder. Sentences carry the current UTC time, because geoclue stamps a fix with
today's date + the sentence's hhmmss and drops a fix older than the one it has.
"""
import datetime
import os
import socket
import sys
import threading
import time

sock_path, pos_file = sys.argv[1], sys.argv[2]
interval = float(os.environ.get("NMEA_INTERVAL", "1.0"))


def checksum(body):
    c = 0
    for ch in body.encode():
        c ^= ch
    return "%02X" % c


def degrees_minutes(value, is_lat):
    hemisphere = ("N" if value >= 0 else "S") if is_lat else ("E" if value >= 0 else "W")
    v = abs(value)
    deg = int(v)
    minutes = (v - deg) * 60
    return ("%02d%07.4f" % (deg, minutes) if is_lat else "%03d%07.4f" % (deg, minutes)), hemisphere


def sentences(lat, lon):
    now = datetime.datetime.now(datetime.timezone.utc)
    t = now.strftime("%H%M%S") + ".00"
    d = now.strftime("%d%m%y")
    la, ns = degrees_minutes(lat, True)
    lo, ew = degrees_minutes(lon, False)
    gga = "GPGGA,%s,%s,%s,%s,%s,1,08,1.5,35.0,M,47.0,M,," % (t, la, ns, lo, ew)  # HDOP 1.5 -> accuracy 1 m
    rmc = "GPRMC,%s,A,%s,%s,%s,%s,0.0,0.0,%s,,,A" % (t, la, ns, lo, ew, d)
    return ["$%s*%s\r\n" % (s, checksum(s)) for s in (gga, rmc)]


def read_pos():
    with open(pos_file) as f:
        lat, lon = f.read().split()[:2]
    return float(lat), float(lon)


def serve(conn, number):
    try:
        while True:
            try:
                lat, lon = read_pos()
            except (OSError, ValueError):  # the test is rewriting the file: send the next tick
                time.sleep(0.05)
                continue
            for s in sentences(lat, lon):
                conn.sendall(s.encode())
            time.sleep(interval)
    except (BrokenPipeError, ConnectionResetError):
        print("client %d disconnected" % number, flush=True)
    finally:
        conn.close()


if os.path.exists(sock_path):
    os.unlink(sock_path)
srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
srv.bind(sock_path)
os.chmod(sock_path, 0o666)
srv.listen(4)
print("nmea-feed listening on", sock_path, flush=True)
count = 0
while True:
    c, _ = srv.accept()
    count += 1
    print("client %d connected" % count, flush=True)
    threading.Thread(target=serve, args=(c, count), daemon=True).start()
