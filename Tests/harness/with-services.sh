#!/bin/bash
# Run CMD inside a fresh desktop-services sandbox (see svc-up.sh) and tear the sandbox down
# afterwards, whatever happens. Exits with CMD's status. The sandbox's logs are kept when CMD fails.
# Usage: Tests/harness/with-services.sh swift test --filter ChimeDesktopTests
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
[ $# -gt 0 ] || { echo "usage: with-services.sh CMD [ARGS...]" >&2; exit 2; }
RUN=$(mktemp -d "${TMPDIR:-/tmp}/chime-services.XXXXXX") || exit 1
# The tests' own temporary folders, in a folder of their own so that a passing run leaves nothing
# behind. Like /tmp, anyone may use it (a test runs chime as nobody), and its name is short: test
# folders in it hold Unix sockets, whose paths must stay under 108 bytes.
SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/chime-t.XXXXXX") || exit 1
chmod 1777 "$SCRATCH"
status=1
finish() {
  "$HERE/svc-down.sh" "$RUN"
  if [ "$status" = 0 ]; then
    rm -rf "$RUN" "$SCRATCH"
  else
    echo "with-services: sandbox logs kept in $RUN, the tests' folders in $SCRATCH" >&2
  fi
}
trap finish EXIT
"$HERE/svc-up.sh" "$RUN" >&2 || exit 1
# shellcheck source=/dev/null
source "$RUN/env"
export TMPDIR="$SCRATCH"

# CMD runs in the background so that a signal sent to this script alone (CI timeouts send TERM)
# interrupts `wait` at once; it is passed on to CMD as TERM (a background command ignores INT),
# and the sandbox goes down once CMD has exited. (`<&0` keeps our stdin: a background command
# would get /dev/null.)
"$@" <&0 &
child=$!
trap 'kill -TERM $child 2>/dev/null' INT TERM HUP
while wait "$child"; status=$?; kill -0 "$child" 2>/dev/null; do :; done
wait "$child" 2>/dev/null; status=$?
exit "$status"
