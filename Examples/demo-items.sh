#!/bin/sh
# Seeds a store with items whose alarms fire within the next half minute (times are relative to
# now, so the demo works whenever it runs). Used by `make demo` (Examples/demo.sh).
#   usage: demo-items.sh CHIME     (with CHIME_STORE set)
set -eu
CHIME=${1:-chime}
at() { date -u -d "+$1 seconds" +%Y-%m-%dT%H:%M:%SZ; }
quiet() { "$@" >/dev/null; }

# An event with a relative alarm: starts in 70 s, alarm 1 minute before → fires in ~10 s.
quiet "$CHIME" add event "Stand-up" --start "$(at 70)" --duration 15m --alarm -1m --location "Room 4"
# A recurring reminder: due in 15 s, every day; only the current instance fires.
quiet "$CHIME" add reminder "Stretch" --due "$(at 15)" --repeat FREQ=DAILY --alarm 0m --notes "Two minutes, away from the screen"
# An absolute alarm on tomorrow's event: fires in ~20 s.
quiet "$CHIME" add event "Dentist" --start "tomorrow 14:00" --duration 45m --alarm "$(at 20)" --location "Praxis Dr. Weiss"
# A high-priority reminder (critical urgency): due in 25 s.
quiet "$CHIME" add reminder "Pay rent" --due "$(at 25)" --priority 1 --alarm 0m
# Location alarms come from Examples/location-reminders.ics (imported by demo.sh).
