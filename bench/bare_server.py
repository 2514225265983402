"""The yardstick: a bare websockets broadcast server (no rules, no storage, no auth),
with the same websockets settings as taku (no permessage-deflate).

Protocol: the first message of a connection is ``{"join": TABLE}``; every
later message is broadcast, unchanged, to every connection of that table
(the sender included). Run: ``python bench/bare_server.py PORT``.
"""

from __future__ import annotations

import asyncio
import json
import sys

from websockets.asyncio.server import ServerConnection, broadcast, serve

tables: dict[str, set[ServerConnection]] = {}


async def handler(ws: ServerConnection) -> None:
    first = json.loads(await ws.recv())
    members = tables.setdefault(first["join"], set())
    members.add(ws)
    try:
        async for message in ws:
            broadcast(members, message)
    finally:
        members.discard(ws)


async def main(port: int) -> None:
    async with serve(
        handler, "127.0.0.1", port, max_size=2**20, ping_interval=None, compression=None
    ):
        print("ready", flush=True)
        await asyncio.Future()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1])))
