#!/usr/bin/env python3
"""N concurrent clients x M calls against Chime's D-Bus service (dbus-next, asyncio; each client
its own bus connection). Every tenth call adds a reminder titled PREFIX-CLIENT-CALL; the others
alternate between GetAuthorizationStatus, Events (a week) and Reminders. Prints one JSON object:
calls, errors (with the first few messages), added titles, and call latency percentiles in ms."""
import asyncio
import json
import sys
import time

from dbus_next import BusType
from dbus_next.aio import MessageBus
from dbus_next.errors import DBusError

NAME, PATH, IFACE = "io.github.chime.Chime", "/io/github/chime/Chime1", "io.github.chime.Chime1"
clients, calls, prefix = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]


async def client(number, introspection, latencies, errors, added):
    bus = await MessageBus(bus_type=BusType.SESSION).connect()
    chime = bus.get_proxy_object(NAME, PATH, introspection).get_interface(IFACE)
    now = int(time.time())
    for call in range(calls):
        started = time.perf_counter()
        try:
            if call % 10 == 9:
                title = f"{prefix}-{number}-{call}"
                await chime.call_add_reminder({"title": title, "due": "tomorrow 9:00"})
                added.append(title)
            elif call % 3 == 0:
                await chime.call_get_authorization_status("reminder")
            elif call % 3 == 1:
                await chime.call_events(now, now + 7 * 86400)
            else:
                await chime.call_reminders(False)
        except DBusError as error:
            errors.append(f"{error.type}: {error.text}")
        latencies.append((time.perf_counter() - started) * 1000)
    bus.disconnect()


async def main():
    probe = await MessageBus(bus_type=BusType.SESSION).connect()
    introspection = await probe.introspect(NAME, PATH)
    latencies, errors, added = [], [], []
    started = time.perf_counter()
    await asyncio.gather(*(client(n, introspection, latencies, errors, added) for n in range(clients)))
    elapsed = time.perf_counter() - started
    latencies.sort()
    pick = lambda q: round(latencies[min(len(latencies) - 1, int(q * len(latencies)))], 2)
    print(json.dumps({"calls": len(latencies), "errors": len(errors), "first_errors": errors[:5], "added": added,
                      "seconds": round(elapsed, 2), "p50_ms": pick(0.5), "p99_ms": pick(0.99), "max_ms": round(latencies[-1], 2)}))


asyncio.run(main())
