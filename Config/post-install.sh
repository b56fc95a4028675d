#!/bin/sh
# The end of `make install`: the one command that starts the service, and whether the desktop services
# it uses answer now. Informational only: it never fails the install.
#   Config/post-install.sh DESTDIR BINDIR DOCDIR UNITDIR
DESTDIR=$1 BINDIR=$2 DOCDIR=$3 UNITDIR=$4
echo "installed $BINDIR/chime${DESTDIR:+ (staged under $DESTDIR)}"
case ":$PATH:" in
    *":$BINDIR:"*) ;;
    *) [ -n "$DESTDIR" ] || echo "note: $BINDIR is not on PATH yet (Debian's ~/.profile adds ~/.local/bin at the next login)";;
esac
# systemd --user looks for units only in its search path (systemd.unit(5)); elsewhere the unit is linked.
case "$UNITDIR" in
    "$HOME/.config/systemd/user" | "$HOME/.local/share/systemd/user" | /etc/systemd/user | /usr/local/lib/systemd/user | \
    /usr/local/share/systemd/user | /usr/lib/systemd/user | /usr/share/systemd/user | "")
        echo "start the notifier now and at every login: systemctl --user daemon-reload && systemctl --user enable --now chime";;
    *)
        echo "systemd --user does not look in $UNITDIR; start the notifier now and at every login with:"
        echo "  systemctl --user link $UNITDIR/chime.service && systemctl --user enable --now chime";;
esac
# Asks a D-Bus name for something, with gdbus (libglib2.0-bin) or busctl (systemd); 3 s at most.
ask() {    # ask session|system NAME PATH INTERFACE METHOD
    if command -v gdbus >/dev/null 2>&1; then
        timeout 5 gdbus call --"$1" --timeout 3 --dest "$2" --object-path "$3" --method "$4.$5" 2>/dev/null
    elif command -v busctl >/dev/null 2>&1; then
        timeout 5 busctl --"$( [ "$1" = session ] && echo user || echo system)" --timeout=3 call "$2" "$3" "$4" "$5" 2>/dev/null
    else
        return 1
    fi
}
if info=$(ask session org.freedesktop.Notifications /org/freedesktop/Notifications org.freedesktop.Notifications GetServerInformation); then
    echo "notification server: $info"
else
    echo "notification server: none answers on this session bus (alarms then go to the journal: journalctl --user -u chime)"
fi
if ask system org.freedesktop.GeoClue2 /org/freedesktop/GeoClue2/Manager org.freedesktop.DBus.Peer Ping >/dev/null; then
    echo "GeoClue2: answers on the system bus (location alarms possible; GeoClue must allow the desktop id chime: see $DOCDIR/README.md)"
elif [ -e /usr/share/dbus-1/system-services/org.freedesktop.GeoClue2.service ]; then
    echo "GeoClue2: installed, but does not answer on the system bus (location alarms off; timed alarms work): see systemctl status geoclue and journalctl -u geoclue"
else
    echo "GeoClue2: not installed (location alarms off; timed alarms work): sudo apt install geoclue-2.0"
fi
exit 0
