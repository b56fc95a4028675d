#!/bin/bash
# caldav-bench.sh CHIME_BINARY: how long Chime's CalDAV sync takes against a loopback Radicale, beside the
# Python `caldav` client (PyPI caldav==3.6.0) and beside the server floor (Chime's own requests sent bare),
# all in the same run, on the same server and data.
#
# Run (from anywhere; paths are taken relative to this script):
#   swift build -c release --product chime && Tests/bench/caldav-bench.sh .build/release/chime
#   EVENTS=500 TODOS=100 RUNS_FAST=3 Tests/bench/caldav-bench.sh .build/release/chime     # a quick one
# Needs: Linux (/proc for the server's CPU), Radicale 3 at /usr/bin/radicale (Debian package `radicale`,
# measured with 3.1.8; started by Tests/harness/caldav-up.sh), python3 with pip (caldav==3.6.0 is
# installed if missing), about 100 MB in /tmp. Nothing of the user's is read or written (HOME and XDG_*
# point into the work directory). Takes about 3 minutes at the default sizes on 2 cores; run it on an
# otherwise idle machine, as every number is wall clock.
#
#   1. start Radicale; MKCALENDAR an events (VEVENT) and a reminders (VTODO) calendar for alice;
#   2. upload EVENTS events (single, weekly/daily/monthly RRULEs, EXDATEs, all-day, VALARMs, TZID
#      Europe/Berlin with a VTIMEZONE) and TODOS to-dos (some with DUE and VALARMs), see caldav_bench.py setup;
#   3. measure, whole processes, wall clock (median and min of the runs), with each run's client CPU and
#      Radicale's CPU (from /proc):
#        chime: initial sync      `chime account add` into a fresh store              RUNS_INITIAL runs
#        chime: no change         `chime account sync --json`                          RUNS_FAST runs
#        chime: 1 changed         one event changed on the server by another client
#                                 (raw PUT with If-Match, untimed), then `account sync` RUNS_FAST runs
#        floor: initial / no change / 1 changed   the requests Chime makes in each case (same bodies,
#                                 headers, gzip, batches of 100, a new connection per request), sent
#                                 bare with http.client; "requests ms" is the sum of their round trips,
#                                 i.e. Radicale's time plus loopback HTTP, with no client work: no
#                                 sync client can be faster than that against this server
#        python: initial (sync-collection + multiget)   per calendar objects_by_sync_token(load_objects=False)
#                                 then calendar.multiget(all hrefs) (one REPORT)       RUNS_INITIAL runs
#        python: no change        objects_by_sync_token(sync_token=saved, load_objects=True)  RUNS_FAST runs
#        python: 1 changed        the same after one server-side change (token saved each run) RUNS_FAST runs
#        python: initial (objects_by_sync_token load_objects=True)  the library's documented sync call,
#                                 which GETs every object one by one               PY_LOAD_RUNS runs (0 skips)
#   4. print the table, Chime against the floor and against python; check what the Chime store holds.
# Radicale is stopped by PID on exit. Knobs (environment): EVENTS=5000 TODOS=1000 RUNS_INITIAL=3 RUNS_FAST=5
# PY_LOAD_RUNS=1 PUT_EVENTS=200 PUT_TODOS=50 THREADS=8 PYTHON=python3 KEEP=1 (keep the work directory).
set -euo pipefail
CHIME=$(realpath "${1:?usage: caldav-bench.sh CHIME_BINARY}")
[ -x "$CHIME" ] || { echo "caldav-bench: $CHIME is not executable" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")" && pwd)
HARNESS=$(cd "$HERE/../harness" && pwd)
HELP="$HERE/caldav_bench.py"
EVENTS=${EVENTS:-5000} TODOS=${TODOS:-1000}
RUNS_INITIAL=${RUNS_INITIAL:-3} RUNS_FAST=${RUNS_FAST:-5} PY_LOAD_RUNS=${PY_LOAD_RUNS:-1}
PUT_EVENTS=${PUT_EVENTS:-200} PUT_TODOS=${PUT_TODOS:-50} THREADS=${THREADS:-8}
PY=${PYTHON:-python3}

# The python caldav client, pinned.
if [ "$($PY -c 'import caldav; print(caldav.__version__)' 2>/dev/null || true)" != "3.6.0" ]; then
  echo "installing caldav==3.6.0 …" >&2
  $PY -m pip install --quiet caldav==3.6.0 2>/dev/null \
    || $PY -m pip install --quiet --break-system-packages caldav==3.6.0
fi

W=$(mktemp -d /tmp/chime-caldav-bench.XXXXXX)
RADICALE_PID=""
cleanup() {
  if [ -n "$RADICALE_PID" ] && kill -0 "$RADICALE_PID" 2>/dev/null; then
    kill -TERM "$RADICALE_PID" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$RADICALE_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$RADICALE_PID" 2>/dev/null || true
  fi
  if [ "${KEEP:-0}" = 1 ]; then echo "work directory kept: $W" >&2; else rm -rf "$W"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Chime must not read or write anything of the user's.
export HOME="$W/home" XDG_CONFIG_HOME="$W/home/.config" XDG_DATA_HOME="$W/home/.local/share" \
       XDG_STATE_HOME="$W/home/.local/state" XDG_CACHE_HOME="$W/home/.cache"
unset CHIME_STORE
mkdir -p "$XDG_CONFIG_HOME" "$XDG_DATA_HOME"

START=$(date +%s)
eval "$("$HARNESS/caldav-up.sh" "$W/run")"
RADICALE_PID=$CALDAV_PID
URL=$CALDAV_URL
SRV=(--url "$URL" --user alice --password alice-secret)
echo "== Radicale $(dpkg-query -W -f='${Version}' radicale 2>/dev/null || echo '?') at $URL (pid $RADICALE_PID); chime $("$CHIME" --version 2>/dev/null || echo '?'); python caldav $($PY -c 'import caldav; print(caldav.__version__)'); $(nproc) CPUs"
"$PY" "$HELP" setup "${SRV[@]}" --events "$EVENTS" --todos "$TODOS" --threads "$THREADS" \
  --put-events "$PUT_EVENTS" --put-todos "$PUT_TODOS" --list "$W/event-paths" --storage "$W/run/radicale/collections"

R="$W/results.jsonl"
run() { "$PY" "$HELP" run --out "$R" --server-pid "$RADICALE_PID" "$@"; }
PWCMD='echo alice-secret'

echo "== chime"
run --label "chime: initial sync (account add)" --runs "$RUNS_INITIAL" \
  --before "rm -f '$W'/store-{i}.sqlite*" -- \
  "$CHIME" account add home --store "$W/store-{i}.sqlite" --url "$URL" --user alice --password-command "$PWCMD" --json
STORE="$W/store-$RUNS_INITIAL.sqlite"
run --label "chime: no change (account sync)" --runs "$RUNS_FAST" -- \
  "$CHIME" account sync home --store "$STORE" --json
run --label "chime: 1 changed on server" --runs "$RUNS_FAST" \
  --before "'$PY' '$HELP' change ${SRV[*]} --list '$W/event-paths' --index {i}" -- \
  "$CHIME" account sync home --store "$STORE" --json
echo "   plain text output of one more no-change sync:"
"$CHIME" account sync home --store "$STORE" 2>&1 | sed 's/^/     /'

echo "== server floor: Chime's requests, bare"
run --label "floor: initial (Chime's requests)" --runs "$RUNS_INITIAL" -- \
  "$PY" "$HELP" floor "${SRV[@]}" --mode initial --tokens "$W/floor-tokens.json"
run --label "floor: no change" --runs "$RUNS_FAST" -- \
  "$PY" "$HELP" floor "${SRV[@]}" --mode inc --tokens "$W/floor-tokens.json"
run --label "floor: 1 changed on server" --runs "$RUNS_FAST" \
  --before "'$PY' '$HELP' change ${SRV[*]} --list '$W/event-paths' --index {i} --offset 200" -- \
  "$PY" "$HELP" floor "${SRV[@]}" --mode inc --tokens "$W/floor-tokens.json" --save

echo "== python caldav"
run --label "python: initial (sync-collection + multiget)" --runs "$RUNS_INITIAL" -- \
  "$PY" "$HELP" py-full "${SRV[@]}" --mode multiget --tokens "$W/py-tokens.json"
run --label "python: no change (sync token)" --runs "$RUNS_FAST" -- \
  "$PY" "$HELP" py-inc "${SRV[@]}" --tokens "$W/py-tokens.json"
run --label "python: 1 changed on server" --runs "$RUNS_FAST" \
  --before "'$PY' '$HELP' change ${SRV[*]} --list '$W/event-paths' --index {i} --offset 100" -- \
  "$PY" "$HELP" py-inc "${SRV[@]}" --tokens "$W/py-tokens.json" --save
if [ "$PY_LOAD_RUNS" -gt 0 ]; then
  run --label "python: initial (objects_by_sync_token load)" --runs "$PY_LOAD_RUNS" --timeout 600 -- \
    "$PY" "$HELP" py-full "${SRV[@]}" --mode load
fi

echo "== what the Chime store holds (expect $EVENTS events, $TODOS reminders, $RUNS_FAST changed titles)"
"$PY" "$HELP" check-store "$STORE"
FAILED_RUNS=$(grep -c '"rc": [^0]' "$R" || true)

echo
echo "== results: $EVENTS events + $TODOS to-dos on Radicale, loopback; wall clock of whole processes"
"$PY" "$HELP" table --out "$R" \
  --gap "chime: initial sync (account add)" "floor: initial (Chime's requests)" \
  --gap "chime: no change (account sync)" "floor: no change" \
  --gap "chime: 1 changed on server" "floor: 1 changed on server" \
  --ratio "chime: initial sync (account add)" "python: initial (sync-collection + multiget)" \
  --ratio "chime: initial sync (account add)" "python: initial (objects_by_sync_token load)" \
  --ratio "chime: no change (account sync)" "python: no change (sync token)"
echo "(median/min ms: wall clock of the whole process, startup included; requests ms: floor rows only, the sum"
echo " of the bare requests' round trips; client CPU: user+system of the process; server CPU: Radicale's, same"
echo " interval. chime's request count excludes the 2 discovery PROPFINDs of 'account add', the initial floor"
echo " includes them; python requests counted in DAVClient.request, auth_type=basic so no 401 round trip; python"
echo " keeps the data in memory, chime parses and stores it in SQLite. failed runs: $FAILED_RUNS;"
echo " load average at the end: $(cut -d' ' -f1-3 /proc/loadavg); total $(( $(date +%s) - START )) s)"
