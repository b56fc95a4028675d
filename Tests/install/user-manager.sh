#!/bin/sh
# The installed unit under a real `systemd --user` (run by test-install.sh; usable alone:
# Tests/install/user-manager.sh STAGED_ROOT, where STAGED_ROOT/usr/local holds a `make install
# PREFIX=/usr/local`). Checks that the user manager starts the unit, that the daemon logs "scheduled,
# sleeping" and owns its D-Bus name on the manager's session bus, that a second daemon on the same
# store is refused with exit status 3, and that the unit, when it is the refused one, does not restart
# in a loop (RestartPreventExitStatus=3): NRestarts stays 0 past RestartSec.
#
# A container has no systemd as PID 1, so this makes what a user manager needs from one, for this
# test only: in a private mount namespace /run/systemd/system exists (systemd's "was the system booted
# with systemd" check) and the staged /usr/local is bound over /usr/local (one of the user unit
# search paths); the manager runs in a cgroup of its own (as user@.service would delegate one), which
# is removed at the end. Root only (mount, cgroups).
set -eu
ROOT=$1
HARNESS=$(cd "$(dirname "$0")/../harness" && pwd)
# The Python that has dbus-next (make pydeps), found before PATH, HOME and /usr/local change below;
# without it the unit's wait for a notification server takes its full 30 s.
PYTHON=$(python3 -c 'import dbus_next, sys; print(sys.executable)' 2>/dev/null || true)
[ -n "$PYTHON" ] || echo "test-install: note: no python3 with dbus-next: the unit's start waits 30 s for a notification server"
T=$(mktemp -d "${TMPDIR:-/tmp}/chime-user-manager.XXXXXX")
CG=chime-user-manager-$$
cleanup() {
    [ -f "$T/manager.pid" ] && kill "$(cat "$T/manager.pid")" 2>/dev/null || true
    sleep 1
    for d in /sys/fs/cgroup/unified/$CG /sys/fs/cgroup/systemd/$CG /sys/fs/cgroup/$CG; do
        [ -d "$d" ] && { find "$d" -mindepth 1 -depth -type d -exec rmdir {} \; 2>/dev/null; rmdir "$d" 2>/dev/null; } || true
    done
    rm -rf "$T"
}
trap cleanup EXIT
fail() { echo "test-install: FAIL: user manager: $*" >&2; exit 1; }

# The cgroup hierarchies this kernel mounts: cgroup2 alone (/sys/fs/cgroup) or hybrid (unified + name=systemd).
if [ -d /sys/fs/cgroup/unified ]; then CGROUPS="/sys/fs/cgroup/unified /sys/fs/cgroup/systemd"; else CGROUPS=/sys/fs/cgroup; fi
for h in $CGROUPS; do mkdir "$h/$CG" || fail "cannot make a cgroup in $h (systemd --user needs one of its own)"; done

mkdir -m 700 "$T/run" && mkdir -p "$T/home/.config/systemd/user/chime.service.d" "$T/home/.local/share"
# Test-only drop-in: no journald runs here, so the daemon's standard error goes to a file to read.
cat >"$T/home/.config/systemd/user/chime.service.d/test-log.conf" <<CONF
[Service]
StandardOutput=append:$T/chime.log
StandardError=append:$T/chime.log
CONF
cat >"$T/inside.sh" <<INSIDE
set -eu
mount -t tmpfs tmpfs /run/systemd && mkdir /run/systemd/system
mount --bind "$ROOT/usr/local" /usr/local
for h in $CGROUPS; do echo \$\$ > "\$h/$CG/cgroup.procs"; done
export HOME="$T/home" XDG_RUNTIME_DIR="$T/run" XDG_CONFIG_HOME="$T/home/.config" XDG_DATA_HOME="$T/home/.local/share"
export DBUS_SESSION_BUS_ADDRESS="unix:path=$T/run/bus" TZ=UTC PATH=/usr/local/bin:/usr/bin:/bin
/lib/systemd/systemd --user >"$T/manager.log" 2>&1 &
echo \$! >"$T/manager.pid"
i=0; until systemctl --user is-system-running >/dev/null 2>&1 || [ "\$(systemctl --user is-system-running 2>/dev/null)" = degraded ]; do
    i=\$((i+1)); [ \$i -lt 100 ] || { cat "$T/manager.log"; echo "the user manager did not come up"; exit 1; }; sleep 0.1
done
# A desktop's notification server, so that the unit's wait for one (up to 30 s where none answers)
# ends at once, as in a desktop session. Without dbus-next (make test-install run alone) the start
# waits those 30 s.
if [ -n "$PYTHON" ]; then
    "$PYTHON" "$HARNESS/fake-notification-server.py" "$T/notifications-ready" &
    fake=\$!
    trap 'kill \$fake 2>/dev/null' EXIT
    i=0; until [ -e "$T/notifications-ready" ]; do
        i=\$((i+1)); [ \$i -lt 100 ] || { echo "the fake notification server did not start"; exit 1; }; sleep 0.1
    done
fi
systemctl --user daemon-reload
systemctl --user start chime || { systemctl --user status chime --no-pager || true; cat "$T/chime.log" 2>/dev/null; tail -20 "$T/manager.log"; exit 1; }
i=0; until grep -q "scheduled, sleeping" "$T/chime.log" 2>/dev/null; do
    i=\$((i+1)); [ \$i -lt 600 ] || { systemctl --user status chime --no-pager || true; cat "$T/chime.log"; echo "no 'scheduled, sleeping'"; exit 1; }; sleep 0.1
done
[ "\$(systemctl --user show chime -p ActiveState --value)" = active ] || { echo "unit not active"; exit 1; }
i=0; until busctl --user status io.github.chime.Chime >/dev/null 2>&1; do
    i=\$((i+1)); [ \$i -lt 100 ] || { cat "$T/chime.log"; echo "io.github.chime.Chime not on the session bus"; exit 1; }; sleep 0.1
done
# A second daemon on the same store is refused with status 3.
status=0; timeout 20 chime daemon >"$T/second.log" 2>&1 || status=\$?
[ \$status = 3 ] || { cat "$T/second.log"; echo "second daemon: exit \$status, not 3"; exit 1; }
grep -q "another chime daemon (pid [0-9]*) is already running" "$T/second.log" || { cat "$T/second.log"; exit 1; }
systemctl --user stop chime
# Now the unit is the second one: a daemon outside it holds the store, so the unit's daemon exits 3.
chime daemon >"$T/outside.log" 2>&1 &
outside=\$!
i=0; until grep -q "scheduled, sleeping" "$T/outside.log"; do i=\$((i+1)); [ \$i -lt 300 ] || exit 1; sleep 0.1; done
systemctl --user start chime || true
i=0; until [ "\$(systemctl --user show chime -p ExecMainStatus --value)" = 3 ]; do
    i=\$((i+1)); [ \$i -lt 600 ] || { systemctl --user status chime --no-pager || true; echo "the unit's daemon did not exit 3"; exit 1; }; sleep 0.1
done
sleep 7     # past RestartSec=5: a restart would have happened by now
restarts=\$(systemctl --user show chime -p NRestarts --value); state=\$(systemctl --user show chime -p ActiveState --value)
kill \$outside; wait \$outside || true
[ "\$restarts" = 0 ] && [ "\$state" = failed ] || { systemctl --user status chime --no-pager || true; echo "refused unit: NRestarts=\$restarts, state \$state"; exit 1; }
echo "NRestarts=\$restarts ActiveState=\$state"
INSIDE
unshare -m --propagation private sh "$T/inside.sh" >"$T/inside.log" 2>&1 || { cat "$T/inside.log"; fail "see above"; }
echo "test-install: ok: systemd --user starts the unit (scheduled, sleeping; io.github.chime.Chime on its bus); a second daemon exits 3; the unit refused with 3 is not restarted ($(tail -1 "$T/inside.log"))"
