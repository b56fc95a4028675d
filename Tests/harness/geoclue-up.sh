#!/bin/bash
# Start GeoClue 2.6 on the sandbox's private "system" bus with the test config (geoclue.conf.in) and wait
# until it owns org.freedesktop.GeoClue2. Used by svc-up.sh, and by tests that restart geoclue (its PID is
# appended to RUNDIR/pids, so svc-down.sh stops it; its log is appended to RUNDIR/geoclue.log).
# Usage: geoclue-up.sh RUNDIR     with DBUS_SYSTEM_BUS_ADDRESS set to the sandbox's system bus.
# The NMEA feeder must already listen on RUNDIR/nmea.sock; the demo agent (re-)registers by itself.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
RUN=${1:?usage: geoclue-up.sh RUNDIR}
: "${DBUS_SYSTEM_BUS_ADDRESS:?geoclue-up.sh: DBUS_SYSTEM_BUS_ADDRESS is not set}"
sed "s#@RUN@#$RUN#g" "$HERE/geoclue.conf.in" > "$RUN/geoclue.conf"
# geoclue 2.6 reads only /etc/geoclue/geoclue.conf: ours is bind-mounted over it in a private mount
# namespace (needs root), so the machine's file is untouched. G_MESSAGES_DEBUG shows agents and clients.
# Every inherited descriptor above 2 is closed first: a caller that waits for EOF on a pipe it gave this
# script (Foundation's Process does, to see it exit) would otherwise wait for geoclue to exit.
(
  for fd in /proc/self/fd/*; do fd=${fd##*/}; [ "$fd" -gt 2 ] && eval "exec $fd>&-" 2>/dev/null; done
  export G_MESSAGES_DEBUG=Geoclue
  exec unshare -m sh -c \
    "mount --bind '$RUN/geoclue.conf' /etc/geoclue/geoclue.conf && exec /usr/libexec/geoclue --timeout 0"
) </dev/null >>"$RUN/geoclue.log" 2>&1 &
echo $! >> "$RUN/pids"
gdbus wait --system --timeout 20 org.freedesktop.GeoClue2
