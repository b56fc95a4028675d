#!/bin/bash
# Stop everything svc-up.sh started, by PID (newest first), and wait for each to exit (SIGKILL after 5 s).
RUN=${1:?usage: svc-down.sh RUNDIR}
[ -f "$RUN/pids" ] || exit 0
pids=$(tac "$RUN/pids")
for pid in $pids; do kill "$pid" 2>/dev/null || true; done
for pid in $pids; do
  for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
done
rm -f "$RUN/pids"
