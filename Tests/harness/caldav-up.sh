#!/bin/bash
# caldav-up.sh RUNDIR: a throwaway Radicale (Debian package) on 127.0.0.1 at a free port, Basic auth.
# Users: alice:alice-secret, bob:bob-secret, and u000 … u299 with password pw-uNNN, one per test (a test
# claims one by creating CALDAV_USERS/uNNN exclusively, so parallel tests never share a calendar home).
# Foreground process (Radicale 3 has no daemon mode), its PID appended to RUNDIR/pids for svc-down.sh.
# Prints the environment lines the tests read: CALDAV_URL, CALDAV_USERS, CALDAV_PID.
set -euo pipefail
RUN=${1:?usage: caldav-up.sh RUNDIR}
mkdir -p "$RUN/radicale/collections"
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
{ printf 'alice:alice-secret\nbob:bob-secret\n'; for i in $(seq -w 0 299); do printf 'u%s:pw-u%s\n' "$i" "$i"; done; } > "$RUN/radicale/users"
mkdir -p "$RUN/radicale/claimed"
cat > "$RUN/radicale/config" <<CFG
[server]
hosts = 127.0.0.1:$PORT
[auth]
type = htpasswd
htpasswd_filename = $RUN/radicale/users
htpasswd_encryption = plain
# no penalty on a 401/403 in tests (Radicale 3.5+ delays them by a second)
delay = 0
[rights]
type = owner_only
[storage]
filesystem_folder = $RUN/radicale/collections
[logging]
level = warning
CFG
/usr/bin/radicale --config "$RUN/radicale/config" </dev/null >"$RUN/radicale.log" 2>&1 &
PID=$!
[ -f "$RUN/pids" ] && echo "$PID" >> "$RUN/pids"
for _ in $(seq 1 400); do
  if python3 -c "import socket,sys; socket.create_connection(('127.0.0.1',$PORT),0.2)" 2>/dev/null; then
    echo "export CALDAV_URL='http://127.0.0.1:$PORT/'"
    echo "export CALDAV_USERS='$RUN/radicale/claimed'"
    echo "export CALDAV_PID='$PID'"
    exit 0
  fi
  kill -0 "$PID" 2>/dev/null || { cat "$RUN/radicale.log" >&2; exit 1; }
  sleep 0.05
done
echo "caldav-up: Radicale did not answer on port $PORT" >&2
exit 1
