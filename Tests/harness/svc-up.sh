#!/bin/bash
# Bring up a private, headless desktop-services sandbox for the tests:
#   private session bus + Xvfb + dunst (the notification server), and
#   private "system" bus + NMEA feeder + GeoClue 2.6 + GeoClue's demo agent (location),
#   a Radicale CalDAV server on loopback (caldav-up.sh).
# Usage: svc-up.sh RUNDIR     then: source RUNDIR/env ; ... ; svc-down.sh RUNDIR
# (Tests/harness/with-services.sh CMD... does all three.)
# Environment: NMEA_START_POS ("lat lon", default the Eiffel Tower) is the feeder's first position;
# NMEA_INTERVAL (seconds, default 1.0) how often it sends. Tests move the position by rewriting
# $NMEA_POS_FILE. Needs root (geoclue's config is bind-mounted in a private mount namespace).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
RUN=${1:?usage: svc-up.sh RUNDIR}
mkdir -p "$RUN"; RUN=$(cd "$RUN" && pwd)
started_ns=$(date +%s%N)
: > "$RUN/pids"
export SVC_RUN="$RUN"
ok=0
trap '[ $ok = 1 ] || { echo "svc-up: failed; stopping what started (logs in $RUN)" >&2; "$HERE/svc-down.sh" "$RUN"; }' EXIT

# bg NAME CMD...: start CMD in the background with its output in RUN/NAME.log and stdin from /dev/null.
# Daemons must never hold the caller's stdout, or a caller reading it through a pipe never sees EOF.
bg() { local name=$1; shift; "$@" </dev/null >"$RUN/$name.log" 2>&1 & echo $! >> "$RUN/pids"; }
# waitfor COND: poll COND every 50 ms for up to 20 s (a loaded 2-core machine can be slow).
waitfor() {
  local n=0
  until eval "$1"; do
    n=$((n+1)); [ $n -gt 400 ] && { echo "svc-up: timed out waiting for: $1" >&2; exit 1; }
    sleep 0.05
  done
}

# Bus configs: permissive and with NO service directories, so nothing is D-Bus-activated behind
# the tests' back (a stock session bus would start /usr/bin/dunst with its default config).
for kind in session system; do
cat > "$RUN/$kind-bus.conf" <<XML
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>$kind</type>
  <listen>unix:path=$RUN/${kind}_bus_socket</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
XML
done
export DBUS_SESSION_BUS_ADDRESS="unix:path=$RUN/session_bus_socket"
export DBUS_SYSTEM_BUS_ADDRESS="unix:path=$RUN/system_bus_socket"
bg session-bus dbus-daemon --nofork --config-file="$RUN/session-bus.conf"
bg system-bus dbus-daemon --nofork --config-file="$RUN/system-bus.conf"
waitfor "[ -S '$RUN/session_bus_socket' ] && [ -S '$RUN/system_bus_socket' ]"

# Xvfb picks a free display and writes its number to fd 3 once it accepts connections.
rm -f "$RUN/xdisplay"
bg xvfb sh -c "exec Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 3>'$RUN/xdisplay'"
waitfor "[ -s '$RUN/xdisplay' ]"
export DISPLAY=":$(cat "$RUN/xdisplay")"

sed "s#@RUN@#$RUN#g; s#@HERE@#$HERE#g" "$HERE/dunstrc.in" > "$RUN/dunstrc"
: > "$RUN/notifications.log"
bg dunst dunst -config "$RUN/dunstrc"
gdbus wait --session --timeout 20 org.freedesktop.Notifications

# Location. The feeder comes first: geoclue connects to its socket (and never reconnects after EOF, so
# the feeder is never restarted on its own).
echo "${NMEA_START_POS:-48.8584 2.2945}" > "$RUN/pos"
bg nmea-feed python3 "$HERE/nmea-feed.py" "$RUN/nmea.sock" "$RUN/pos"
waitfor "[ -S '$RUN/nmea.sock' ]"
: > "$RUN/geoclue.log"
"$HERE/geoclue-up.sh" "$RUN"   # our config bind-mounted over /etc/geoclue/geoclue.conf; see there
# 2.6 answers no client until a whitelisted agent of the client's user has registered; the demo
# agent never prompts for apps outside flatpak.
bg geoclue-agent /usr/libexec/geoclue-2.0/demos/agent
waitfor "grep -q 'New agent for user ID' '$RUN/geoclue.log'"

# A CalDAV server (Radicale) for the sync tests.
"$HERE/caldav-up.sh" "$RUN" > "$RUN/caldav.env"

cat > "$RUN/env" <<ENV
export DBUS_SESSION_BUS_ADDRESS='$DBUS_SESSION_BUS_ADDRESS'
export DBUS_SYSTEM_BUS_ADDRESS='$DBUS_SYSTEM_BUS_ADDRESS'
export DISPLAY='$DISPLAY'
export SVC_RUN='$RUN'
export CHIME_TEST_SERVICES=1
export NMEA_POS_FILE='$RUN/pos'
$(cat "$RUN/caldav.env")
ENV
ok=1
ms=$(( ($(date +%s%N) - started_ns) / 1000000 ))
printf 'svc-up: sandbox ready in %d.%03d s (%s)\n' $((ms / 1000)) $((ms % 1000)) "$RUN"
