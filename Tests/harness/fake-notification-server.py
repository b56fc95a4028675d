#!/usr/bin/env python3
"""fake-notification-server.py READY_FILE: a notification server that shows nothing, on the session
bus ($DBUS_SESSION_BUS_ADDRESS), for tests where a desktop's would be up but no display is.

It owns org.freedesktop.Notifications and answers GetServerInformation, GetCapabilities, Notify
(each notification a new id) and CloseNotification. READY_FILE is created once the name is owned.
"""
import asyncio
import sys

from dbus_next import RequestNameReply
from dbus_next.aio import MessageBus
from dbus_next.service import ServiceInterface, method

READY_FILE = sys.argv[1]


class Notifications(ServiceInterface):
    def __init__(self):
        super().__init__("org.freedesktop.Notifications")
        self.last_id = 0

    @method()
    def GetServerInformation(self) -> "ssss":
        return ["fake-notification-server", "chime tests", "1", "1.2"]

    @method()
    def GetCapabilities(self) -> "as":
        return ["body", "actions"]

    @method()
    def Notify(self, app_name: "s", replaces_id: "u", app_icon: "s", summary: "s", body: "s",
               actions: "as", hints: "a{sv}", expire_timeout: "i") -> "u":
        self.last_id += 1
        return replaces_id or self.last_id

    @method()
    def CloseNotification(self, id: "u"):
        pass


async def main():
    bus = await MessageBus().connect()
    bus.export("/org/freedesktop/Notifications", Notifications())
    reply = await bus.request_name("org.freedesktop.Notifications")
    if reply != RequestNameReply.PRIMARY_OWNER:
        sys.exit(f"org.freedesktop.Notifications is taken ({reply.name})")
    open(READY_FILE, "w").close()
    await asyncio.get_running_loop().create_future()


asyncio.run(main())
