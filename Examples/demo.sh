#!/bin/sh
# `make demo`: the background notifier for real. A fresh demo store (in .build/demo/, never your
# own) is seeded by Examples/demo-items.sh with alarms due in the next 30 seconds and with the
# location reminders of Examples/location-reminders.ics; `chime alarms` previews the timed ones
# and `chime geofence simulate` the location ones along Examples/commute.gpx; `chime daemon`
# runs for DEMO_SECONDS (default 32) with that track replayed 60 times faster as its position
# source, and delivers to the desktop when a notification server answers, as JSON lines on
# stdout otherwise; then the alarm ledger and the fences show what fired.
set -eu
CHIME=${1:-chime}
DEMO_DIR=${DEMO_DIR:-.build/demo}
SECONDS_TO_RUN=${DEMO_SECONDS:-32}
rm -rf "$DEMO_DIR"
mkdir -p "$DEMO_DIR"
export CHIME_STORE="$DEMO_DIR/chime.sqlite" XDG_CONFIG_HOME="$DEMO_DIR/config"
unset CHIME_NOW
run() { printf '\n$ %s\n' "$*"; "$@"; }

HERE=$(dirname "$0")
"$HERE/demo-items.sh" "$CHIME"
start=$(date -u +%Y-%m-%dT%H:%M:%SZ)
run "$CHIME" import "$HERE/location-reminders.ics" --new-calendar Errands
run "$CHIME" alarms --hours 1
run "$CHIME" geofence simulate --track "$HERE/commute.gpx" --from now

printf '\n$ %s\n' "$CHIME daemon --location replay:$HERE/commute.gpx --speed 60    # for $SECONDS_TO_RUN s; log: $DEMO_DIR/daemon.log"
"$CHIME" daemon --location "replay:$HERE/commute.gpx" --speed 60 2>"$DEMO_DIR/daemon.log" &
daemon=$!
trap 'kill $daemon 2>/dev/null || true' EXIT INT TERM
sleep "$SECONDS_TO_RUN"
kill -TERM $daemon
wait $daemon || true
trap - EXIT INT TERM
sed -n 's/.*\(notifier=[a-z]*\).*starting/  (\1)/p; s/.*no notification server answers.*/  (no notification server answers: JSON lines above)/p' "$DEMO_DIR/daemon.log"

printf '\nWhat fired (the alarm ledger, as `chime alarms` shows it):\n'
run "$CHIME" alarms --from "$start" --hours 1
run "$CHIME" geofence list
