#!/usr/bin/env python3
"""fake-user-manager.py ENVIRONMENT_FILE READY_FILE: a stand-in for the systemd user manager on
the session bus ($DBUS_SESSION_BUS_ADDRESS), for tests on a private bus where none runs.

It owns org.freedesktop.systemd1 and answers the Environment property of
org.freedesktop.systemd1.Manager at /org/freedesktop/systemd1 with the lines of ENVIRONMENT_FILE
(KEY=VALUE, one per line), read at each request, so a test changes the manager's environment by
rewriting the file, as `systemctl --user set-environment` would. READY_FILE is created once the
name is owned.
"""
import asyncio
import sys

from dbus_next.aio import MessageBus
from dbus_next.service import PropertyAccess, ServiceInterface, dbus_property

ENVIRONMENT_FILE, READY_FILE = sys.argv[1], sys.argv[2]


class Manager(ServiceInterface):
    def __init__(self):
        super().__init__("org.freedesktop.systemd1.Manager")

    @dbus_property(access=PropertyAccess.READ)
    def Environment(self) -> "as":
        with open(ENVIRONMENT_FILE) as f:
            return [line.strip() for line in f if "=" in line]


async def main():
    bus = await MessageBus().connect()
    bus.export("/org/freedesktop/systemd1", Manager())
    await bus.request_name("org.freedesktop.systemd1")
    open(READY_FILE, "w").close()
    await asyncio.get_running_loop().create_future()


asyncio.run(main())
