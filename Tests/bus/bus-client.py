#!/usr/bin/env python3
"""A second-language client of Chime's D-Bus service (dbus-next, asyncio), as another app would
write it: ask for access to events and to reminders (waiting for the Response signal when the user
is asked), subscribe, list the week's events and the reminders, add a reminder, wait for Changed,
complete it, wait for Changed again, and read what changed since subscribing (Changes).
Prints one JSON line per step on stdout; exits 1 on a D-Bus error (printed as JSON)."""
import asyncio
import json
import sys
import time

from dbus_next import BusType, Message, MessageType
from dbus_next.aio import MessageBus
from dbus_next.errors import DBusError

NAME, PATH, IFACE = "io.github.chime.Chime", "/io/github/chime/Chime1", "io.github.chime.Chime1"


def say(step, **fields):
    print(json.dumps({"step": step, **fields}), flush=True)


async def main():
    bus = await MessageBus(bus_type=BusType.SESSION).connect()
    introspection = await bus.introspect(NAME, PATH)
    chime = bus.get_proxy_object(NAME, PATH, introspection).get_interface(IFACE)
    signals = asyncio.Queue()
    chime.on_response(lambda handle, entity, status: signals.put_nowait(("Response", handle, entity, status)))
    chime.on_changed(lambda sequence, types: signals.put_nowait(("Changed", sequence, types)))

    async def next_signal(kind, timeout=30):
        while True:
            signal = await asyncio.wait_for(signals.get(), timeout)
            if signal[0] == kind:
                return signal

    for entity in ("event", "reminder"):
        handle, status = await chime.call_request_access(entity)
        say("requested", entity=entity, handle=handle, status=status)
        if status == "notDetermined":
            _, answered, entity, status = await next_signal("Response", timeout=60)
            say("answered", handle=answered, entity=entity, status=status)
        if status != "authorized":
            return
    subscribed = await chime.call_subscribe()
    say("subscribed", sequence=subscribed)
    now = int(time.time())
    week = json.loads(await chime.call_events(now, now + 7 * 86400))
    say("week", titles=[o["title"] for o in week["occurrences"]])
    before = json.loads(await chime.call_reminders(False))
    say("listed", titles=[r["title"] for r in before["reminders"]])
    added = json.loads(await chime.call_add_reminder({"title": sys.argv[1], "due": "tomorrow 10:00"}))["item"]
    say("added", id=added["id"], due=added["due"]["local"])
    _, sequence, types = await next_signal("Changed")
    say("changed", sequence=sequence, types=types)
    done = json.loads(await chime.call_complete(added["id"]))["item"]
    say("completed", id=done["id"], completed=done["completed"])
    _, sequence, types = await next_signal("Changed")
    say("changed", sequence=sequence, types=types)
    missed = json.loads(await chime.call_changes(subscribed))
    say("changes", last=missed["last_sequence"], kinds=sorted({c["kind"] for c in missed["changes"]}),
        ids=sorted({c["id"] for c in missed["changes"]}))
    if len(sys.argv) > 2 and sys.argv[2] == "--linger":
        say("lingering")
        await asyncio.sleep(3600)


try:
    asyncio.run(main())
except DBusError as error:
    print(json.dumps({"error": error.type, "message": error.text}), flush=True)
    sys.exit(1)
