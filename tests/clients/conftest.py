"""Helpers for the client tests: reach into the running server to drop connections."""

from __future__ import annotations

import asyncio

from websockets.asyncio.server import ServerConnection


def server_connections(running: object) -> set[ServerConnection]:
    """The server side of every open WebSocket connection of ``running`` (a RunningServer)."""
    ws_server = running.server._server  # type: ignore[attr-defined]
    assert ws_server is not None, "the server is not running"
    return set(ws_server.connections)


async def drop_all(running: object, code: int = 1012) -> int:
    """Close every client connection from the server's side (1012: service restart)."""
    conns = server_connections(running)
    await asyncio.gather(*(c.close(code, "test drops the connection") for c in conns))
    return len(conns)
