#!/bin/sh
# `make tour` (formerly the demo): a short tour of the store. A fresh demo store (in .build/demo/, not your own store) gets a
# week of events and reminders; then agenda, reminders, a completion and the recurrence engine.
# The clock and zone are pinned so the output is the same every time.
set -eu
CHIME=${1:-chime}
DEMO_DIR=${DEMO_DIR:-.build/demo}
rm -rf "$DEMO_DIR"
export CHIME_STORE="$DEMO_DIR/chime.sqlite" TZ=Europe/Berlin CHIME_NOW=2026-11-23T07:00:00Z
run() { printf '\n$ %s\n' "$*"; "$@"; }
quiet() { "$@" >/dev/null; }

quiet "$CHIME" calendar add Work --color '#CC3333'
quiet "$CHIME" add event "Stand-up" --start "mon 9:00" --duration 15m --calendar Work \
    --repeat 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR' --alarm -5m
quiet "$CHIME" add event "Call with New York" --start "wed 10:00" --tz America/New_York --duration 30m --alarm -10m
quiet "$CHIME" add event "Dentist" --start "thu 14:00" --duration 45m --alarm -1h --location "Praxis Dr. Weiss"
quiet "$CHIME" add event "Team offsite" --start 2026-11-27 --end 2026-11-28 --all-day --calendar Work
quiet "$CHIME" add reminder "Buy milk" --at "Grocery store@52.5208,13.4094" --on arrive
quiet "$CHIME" add reminder "Water plants" --due "sat 10:00" --repeat FREQ=WEEKLY --alarm -30m
quiet "$CHIME" add reminder "Submit expenses" --due "fri 17:00" --priority 1 --list Reminders

run "$CHIME" agenda --days 7
run "$CHIME" reminders
printf '\n$ %s\n' "$CHIME complete \"Water plants\""   # a title only one item has is a reference too
"$CHIME" complete "Water plants"
run "$CHIME" reminders
run "$CHIME" expand --dtstart 2026-03-07T02:30 --tz America/New_York --rrule FREQ=DAILY --count 3
printf '\n$ %s\n' "$CHIME expand --batch < Examples/batch.jsonl"
"$CHIME" expand --batch < "$(dirname "$0")/batch.jsonl"
