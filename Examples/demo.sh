#!/bin/sh
# `make demo`: a short tour of `chime expand`.
set -eu
CHIME=${1:-chime}
run() { printf '\n$ %s\n' "$*"; "$@"; }

run "$CHIME" expand --dtstart 1997-09-05T09:00 --tz America/New_York --rrule 'FREQ=MONTHLY;BYDAY=-1FR' --count 5
run "$CHIME" expand --dtstart 2026-03-07T02:30 --tz America/New_York --rrule FREQ=DAILY --count 3
run "$CHIME" expand --dtstart 2026-01-30 --rrule 'FREQ=MONTHLY;BYMONTHDAY=30' --count 4
run "$CHIME" expand --dtstart 2026-01-01 --rrule 'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30'
printf '\n$ %s\n' "$CHIME expand --batch < Examples/batch.jsonl"
"$CHIME" expand --batch < "$(dirname "$0")/batch.jsonl"
