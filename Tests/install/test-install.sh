#!/bin/sh
# `make test-install` (part of `make test`): what a packager or a new user gets from `make install`.
# Stages an install with `make install DESTDIR=$T/root PREFIX=/usr/local` (the one release build `make test`
# adds) and checks: the file list and modes; what the install prints; the unit's keys and
# `systemd-analyze verify`; the binary with the Swift toolchain out of reach (`env -i`, and the toolchain
# folder covered by an empty tmpfs in a private mount namespace, the staged /usr/local bound over
# /usr/local); `chime --version` = `chime version`; an event stored and listed by `chime agenda`; bash
# loading the completions; `man -l` rendering the page; the unit under a real `systemd --user`
# (Tests/install/user-manager.sh); `make uninstall` removing every file again.
# Runs as root (unshare and mount need it; CI runs as root).
set -eu
cd "$(dirname "$0")/../.."
T=$(mktemp -d "${TMPDIR:-/tmp}/chime-install.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail() { echo "test-install: FAIL: $*" >&2; exit 1; }
ok() { echo "test-install: ok: $*"; }
[ "$(id -u)" = 0 ] || fail "must run as root (unshare -m, mount)"

started=$(date +%s)
make --no-print-directory install DESTDIR="$T/root" PREFIX=/usr/local >"$T/install.log" 2>&1 || { cat "$T/install.log"; fail "make install"; }
echo "test-install: make install took $(( $(date +%s) - started )) s (release build included)"

# The files, and nothing else.
cat >"$T/expected" <<'LIST'
usr/local/bin/chime
usr/local/lib/systemd/user/chime.service
usr/local/share/applications/chime.desktop
usr/local/share/bash-completion/completions/chime
usr/local/share/dbus-1/interfaces/io.github.chime.Chime1.xml
usr/local/share/dbus-1/services/io.github.chime.Chime.service
usr/local/share/doc/chime/README.md
usr/local/share/doc/chime/config.example.toml
usr/local/share/doc/chime/geoclue-chime.conf
usr/local/share/fish/vendor_completions.d/chime.fish
usr/local/share/icons/hicolor/scalable/apps/chime.svg
usr/local/share/locale/de/LC_MESSAGES/chime.mo
usr/local/share/locale/es/LC_MESSAGES/chime.mo
usr/local/share/locale/fr/LC_MESSAGES/chime.mo
usr/local/share/locale/ja/LC_MESSAGES/chime.mo
usr/local/share/locale/ru/LC_MESSAGES/chime.mo
usr/local/share/locale/zh_CN/LC_MESSAGES/chime.mo
usr/local/share/man/man1/chime.1
usr/local/share/zsh/site-functions/_chime
LIST
(cd "$T/root" && find . ! -type d | sed 's|^\./||' | LC_ALL=C sort) >"$T/actual"
diff -u "$T/expected" "$T/actual" || fail "installed files differ from the list above"
[ -x "$T/root/usr/local/bin/chime" ] || fail "bin/chime is not executable"
for f in $(sed 1d "$T/expected"); do [ -s "$T/root/$f" ] || fail "$f is empty"; done
ok "file list ($(wc -l <"$T/expected") files, none empty)"

grep -qx "start the notifier now and at every login: systemctl --user daemon-reload && systemctl --user enable --now chime" "$T/install.log" \
    || fail "make install does not print the start command"
grep -q "^notification server: " "$T/install.log" && grep -q "^GeoClue2: " "$T/install.log" \
    || fail "make install does not say whether the notification server and GeoClue2 answer"
ok "make install prints the start command and one line each for the notification server and GeoClue2"

# A user install (PREFIX=~/.local, the default) puts the unit where systemd --user reads it.
make --no-print-directory -n install DESTDIR=/nonexistent | grep -q "/nonexistent$HOME/.local/share/systemd/user/chime.service" \
    || fail "default PREFIX: unit not in ~/.local/share/systemd/user"
ok "default PREFIX installs the unit to ~/.local/share/systemd/user"

UNIT="$T/root/usr/local/lib/systemd/user/chime.service"
for line in "ExecStart=/usr/local/bin/chime daemon" "RestartPreventExitStatus=3" "WantedBy=default.target" \
            "After=graphical-session.target" "Restart=on-failure" "StartLimitBurst=5" \
            "Documentation=man:chime(1) file:///usr/local/share/doc/chime/README.md"; do
    grep -qxF "$line" "$UNIT" || fail "unit lacks '$line'"
done
! grep -q "@[A-Z]*@\|PartOf=graphical-session" "$UNIT" || fail "unit has an unfilled @VAR@ or is still PartOf the graphical session"
# The wait for a notification server never fails the start ('-'): without a desktop the daemon
# still starts (the user manager test below runs with a notification server, so it cannot show this).
grep -q "^ExecStartPre=-/bin/sh -c 'end=" "$UNIT" || fail "the unit's wait for a notification server is missing or can fail the start (no '-')"
grep -qx "Icon=chime" "$T/root/usr/local/share/applications/chime.desktop" || fail "desktop file lacks Icon=chime"
ACTIVATION="$T/root/usr/local/share/dbus-1/services/io.github.chime.Chime.service"
for line in "Name=io.github.chime.Chime" "Exec=/usr/local/bin/chime daemon" "SystemdService=chime.service"; do
    grep -qxF "$line" "$ACTIVATION" || fail "D-Bus service file lacks '$line'"
done
ok "unit keys (ExecStart on the installed binary, RestartPreventExitStatus=3, WantedBy=default.target, a wait for the notification server that cannot fail the start); desktop Icon=chime"

# The toolchain's folder: the one above usr/bin of the swift on PATH (TOOLCHAIN/usr/bin/swift).
SWIFT_BIN=$(readlink -f "$(command -v "${SWIFT:-swift}")")
TOOLCHAIN=$(dirname "$(dirname "$(dirname "$SWIFT_BIN")")")
BIN="$T/root/usr/local/bin/chime"
readelf -d "$BIN" >"$T/dynamic"
! grep -q "$TOOLCHAIN" "$T/dynamic" || { grep -i "path" "$T/dynamic"; fail "RUNPATH names the toolchain ($TOOLCHAIN)"; }
! grep -qi "libswift\|libFoundation\|libdispatch\|libBlocksRuntime\|lib_Foundation\|libicu" "$T/dynamic" \
    || { grep NEEDED "$T/dynamic"; fail "the binary needs Swift runtime libraries"; }
ldd "$BIN" >"$T/ldd"
! grep -q "$TOOLCHAIN\|not found" "$T/ldd" || { cat "$T/ldd"; fail "ldd: a library from the toolchain or missing"; }
ok "no Swift runtime library needed, no RUNPATH into $TOOLCHAIN ($(grep -c NEEDED "$T/dynamic") NEEDED, all from the system)"
# Opened with dlopen when first used (CalDAV, passwords, sounds), so that a command or a daemon
# without them does not load them (nor ICU, TLS, libgcrypt, which they need) at every start.
for lazy in libxml2 libcurl libsecret libcanberra; do
    ! grep -q "NEEDED.*$lazy" "$T/dynamic" || fail "the binary links $lazy, which it opens only when needed"
done
ok "libxml2, libcurl, libsecret and libcanberra are not linked (opened when first needed)"

# Everything below runs with the toolchain folder covered by an empty tmpfs and the staged /usr/local
# bound over /usr/local, in a private mount namespace; env -i leaves no variable from the test's environment.
VERSION=$(sed -n 's/^ *static let version = "\(.*\)"$/\1/p' Sources/chime/Chime.swift)
[ -n "$VERSION" ] || fail "no 'static let version' in Sources/chime/Chime.swift"
mkdir -p "$T/home" && mkdir -m 700 "$T/run"
# A Russian locale of the test's own (LOCPATH), so the installed binary's catalog can be asked.
mkdir -p "$T/locales"
localedef -i ru_RU -f UTF-8 "$T/locales/ru_RU.UTF-8" 2>/dev/null || [ -d "$T/locales/ru_RU.UTF-8" ] || fail "localedef ru_RU"
cat >"$T/inside.sh" <<INSIDE
set -eu
[ -z "\$(ls -A "$TOOLCHAIN")" ] || { echo "toolchain still visible"; exit 1; }
run() { env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$T/home" TZ=UTC CHIME_STORE="$T/home/chime.sqlite" "\$@"; }
[ "\$(run chime --version)" = "$VERSION" ] || { echo "chime --version: \$(run chime --version 2>&1)"; exit 1; }
[ "\$(run chime version)" = "$VERSION" ] || { echo "chime version: \$(run chime version 2>&1)"; exit 1; }
run chime add event "Installed check" --start 2030-01-02T09:00 --duration 30m >/dev/null
run chime agenda --from 2030-01-01 --days 7 >"$T/agenda"
grep -q "Installed check" "$T/agenda" || { cat "$T/agenda"; exit 1; }
# The catalog under share/locale, found from the installed binary: a date typed in Russian.
run env LANG=ru_RU.UTF-8 LOCPATH="$T/locales" chime add event "Проверка" --start "1 января 2030 в 10:00" --duration 30m >/dev/null
run chime agenda --from 2030-01-01 --days 1 | grep -q "10:00-10:30  Проверка" || { run chime agenda --from 2030-01-01 --days 1; exit 1; }
# As a user unit (--user needs a runtime folder; no user manager has to run). It also checks that
# ExecStart's binary is executable and that man finds chime(1) for Documentation=.
XDG_RUNTIME_DIR="$T/run" systemd-analyze --user verify /usr/local/lib/systemd/user/chime.service >"$T/verify" 2>&1 \
    || { cat "$T/verify"; exit 1; }
# Bus activation: a session bus that reads the installed service file starts the daemon at the first call.
cat >"$T/bus.conf" <<CONF
<busconfig><type>session</type><listen>unix:path=$T/bus.sock</listen><auth>EXTERNAL</auth>
<servicedir>/usr/local/share/dbus-1/services</servicedir>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy></busconfig>
CONF
run dbus-daemon --config-file="$T/bus.conf" --fork --print-pid >"$T/bus.pid"
answer=\$(run env DBUS_SESSION_BUS_ADDRESS=unix:path=$T/bus.sock gdbus call --session --timeout 20 --dest io.github.chime.Chime \
    --object-path /io/github/chime/Chime1 --method io.github.chime.Chime1.GetAuthorizationStatus event 2>&1) || true
for p in /proc/[0-9]*; do [ "\$(readlink \$p/exe 2>/dev/null)" = /usr/local/bin/chime ] && kill \${p#/proc/}; done
kill \$(cat "$T/bus.pid") 2>/dev/null || true
[ "\$answer" = "('notDetermined',)" ] || { echo "bus activation: \$answer"; exit 1; }
INSIDE
unshare -m sh -c "mount -t tmpfs tmpfs '$TOOLCHAIN' && mount --bind '$T/root/usr/local' /usr/local && sh '$T/inside.sh'" \
    || fail "with the toolchain hidden (see above)"
if [ -s "$T/verify" ]; then cat "$T/verify"; fail "systemd-analyze verify printed warnings"; fi
ok "with $TOOLCHAIN hidden and env -i: chime --version = chime version = $VERSION; add + agenda on a temp store; a date typed in Russian read through the installed catalog; systemd-analyze --user verify clean; the first D-Bus call starts the daemon (bus activation)"

sh Tests/install/user-manager.sh "$T/root"

COMPLETIONS="$T/root/usr/local/share"
bash -c ". '$COMPLETIONS/bash-completion/completions/chime' && complete -p chime" | grep -q "^complete .*-F _chime chime$" \
    || fail "bash does not register the completion"
head -1 "$COMPLETIONS/zsh/site-functions/_chime" | grep -qx "#compdef chime" || fail "zsh completion has no #compdef chime"
grep -q "^complete -c 'chime'" "$COMPLETIONS/fish/vendor_completions.d/chime.fish" || fail "fish completion has no complete -c 'chime'"
ok "bash loads the completion (complete -p chime); zsh and fish files have their headers (neither shell is installed here)"

# What bash offers while a line is typed: the store's titles for an item, its calendar names for --calendar.
CHIME_STORE="$T/completion.sqlite" TZ=UTC "$BIN" add event Dentist --start 2026-12-10T09:00 --create >/dev/null
CHIME_STORE="$T/completion.sqlite" "$BIN" calendar add Work >/dev/null
offered=$(CHIME_STORE="$T/completion.sqlite" PATH="$T/root/usr/local/bin:$PATH" bash -c '
    . "$1/bash-completion/completions/chime"
    COMP_WORDS=(chime show ""); COMP_CWORD=2; COMP_LINE="chime show "; COMP_POINT=${#COMP_LINE}; _chime chime "" show
    COMP_WORDS=(chime agenda --calendar W); COMP_CWORD=3; COMP_LINE="chime agenda --calendar W"; COMP_POINT=${#COMP_LINE}; _chime chime W --calendar
    printf "%s " "${COMPREPLY[@]}"' sh "$COMPLETIONS")
[ "$offered" = "Dentist Work " ] || fail "bash completion offered '$offered', not the title Dentist and the calendar Work"
ok "bash completes an item's title after 'chime show' and a calendar name after --calendar"

PAGE="$T/root/usr/local/share/man/man1/chime.1"
MANPAGER=cat MANWIDTH=100 man -l "$PAGE" >"$T/man.txt" 2>"$T/man.err" || { cat "$T/man.err"; fail "man -l"; }
[ ! -s "$T/man.err" ] || { cat "$T/man.err"; fail "man -l printed warnings"; }
for heading in NAME SYNOPSIS DESCRIPTION COMMANDS "   chime daemon" "   chime add event" "EXIT STATUS"; do
    grep -q "^$heading" "$T/man.txt" || fail "man page lacks '$heading'"
done
grep -q "chime $VERSION" "$T/man.txt" || fail "man page does not carry the version"
if grep -n '`' "$T/man.txt" | head -3 | grep .; then fail "man page shows Markdown backticks"; fi
warnings=$(groff -man -ww -z "$PAGE" 2>&1) && [ -z "$warnings" ] || { echo "$warnings"; fail "groff warnings"; }
ok "man -l renders chime(1) ($(wc -l <"$T/man.txt") lines, every subcommand, no groff warnings)"

make --no-print-directory uninstall DESTDIR="$T/root" PREFIX=/usr/local >/dev/null
left=$(cd "$T/root" && find . ! -type d)
[ -z "$left" ] || fail "make uninstall left: $left"
ok "make uninstall removes every installed file"
