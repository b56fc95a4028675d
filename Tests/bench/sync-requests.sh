#!/bin/bash
# sync-requests.sh CHIME_BINARY: how many requests `chime daemon` sends its CalDAV server per minute
# while an alarm notification is on screen (its quick passes) and while none is, counted by a proxy
# in front of the harness's Radicale, with the real notification server (dunst).
#
# Run (inside the test sandbox, which starts Radicale, dunst and a session bus):
#   Tests/harness/with-services.sh Tests/bench/sync-requests.sh .build-test/release/chime
# Knobs (environment): SHOWN_MINUTES=2 and IDLE_MINUTES=10 (the length of each phase: the idle one
# spans two of the daemon's 5-minute passes), QUICK=20 ([sync] while_alarm_shown_seconds).
# One account with two calendars (events and to-dos), as `chime account add` finds them. The
# daemon's settings are the defaults but for QUICK. Takes the two phases and about 45 s more.
#
#   1. an event whose alarm rings 8 s after the daemon starts; once dunst shows it, the requests of
#      the next SHOWN_MINUTES are counted (the daemon syncs every QUICK seconds while it is shown);
#   2. the notification is closed (dunstctl close-all: dismissed); the requests of the next
#      IDLE_MINUTES are counted (the daemon syncs every [sync] interval_minutes, 5 by default).
set -euo pipefail
CHIME=$(realpath "${1:?usage: sync-requests.sh CHIME_BINARY}")
HERE=$(cd "$(dirname "$0")" && pwd)
: "${CALDAV_URL:?run inside Tests/harness/with-services.sh}"
SHOWN_MINUTES=${SHOWN_MINUTES:-2}
IDLE_MINUTES=${IDLE_MINUTES:-10}
QUICK=${QUICK:-20}
WORK=$(mktemp -d)
trap 'kill $DAEMON $PROXY 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$WORK"' EXIT
export HOME=$WORK XDG_CONFIG_HOME=$WORK/config XDG_DATA_HOME=$WORK/data CHIME_STORE=$WORK/chime.sqlite TZ=UTC
USER_NAME=u299 PASSWORD=pw-u299
home="${CALDAV_URL%/}/$USER_NAME/"
curl -sf -u "$USER_NAME:$PASSWORD" -X PROPFIND -H 'Depth: 0' "$home" >/dev/null
for c in work:VEVENT todo:VTODO; do
  curl -sf -u "$USER_NAME:$PASSWORD" -X MKCALENDAR "$home${c%%:*}/" -d "<?xml version=\"1.0\"?><C:mkcalendar xmlns:D=\"DAV:\" \
xmlns:C=\"urn:ietf:params:xml:ns:caldav\"><D:set><D:prop><D:displayname>${c%%:*}</D:displayname><C:supported-calendar-component-set>\
<C:comp name=\"${c##*:}\"/></C:supported-calendar-component-set></D:prop></D:set></C:mkcalendar>" >/dev/null
done
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
python3 "$HERE/../harness/caldav-fault-proxy.py" "$PORT" "$CALDAV_URL" "count:$WORK/requests" &
PROXY=$!
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$PORT/" && break; sleep 0.1; done
"$CHIME" account add home --url "http://127.0.0.1:$PORT/$USER_NAME/" --user "$USER_NAME" --password-command "echo $PASSWORD" >/dev/null
"$CHIME" add event "Standup" --start "$(date -u -d '+40 seconds' +%Y-%m-%dT%H:%M:%SZ)" --duration 15m --calendar work --alarm 0 >/dev/null
"$CHIME" account sync home >/dev/null
mkdir -p "$XDG_CONFIG_HOME/chime"
printf '[sync]\nwhile_alarm_shown_seconds = %s\n' "$QUICK" > "$XDG_CONFIG_HOME/chime/config.toml"
dunstctl close-all
"$CHIME" daemon --notifier libnotify 2>"$WORK/daemon.log" &
DAEMON=$!
for _ in $(seq 600); do [ "$(dunstctl count displayed)" = 1 ] && break; sleep 0.1; done
[ "$(dunstctl count displayed)" = 1 ] || { echo "sync-requests: the alarm was not shown" >&2; cat "$WORK/daemon.log" >&2; exit 1; }
count() { wc -l < "$WORK/requests"; }
before=$(count); sleep $((SHOWN_MINUTES * 60)); shown=$(( $(count) - before ))
[ "$(dunstctl count displayed)" = 1 ] || echo "sync-requests: the notification left the screen early" >&2
dunstctl close-all
sleep 2
before=$(count); sleep $((IDLE_MINUTES * 60)); idle=$(( $(count) - before ))
echo "while an alarm is shown (passes every $QUICK s): $shown requests in $SHOWN_MINUTES min, $(python3 -c "print(round($shown / $SHOWN_MINUTES, 1))") a minute"
echo "while none is shown (passes every 5 min):      $idle requests in $IDLE_MINUTES min, $(python3 -c "print(round($idle / $IDLE_MINUTES, 1))") a minute, about $(python3 -c "print(round($idle / $IDLE_MINUTES * 60))") an hour"
