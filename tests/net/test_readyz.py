"""``GET /readyz``: 200 while the node can reach its store, 503 while it cannot (a load
balancer stops sending it new clients)."""

from __future__ import annotations

import asyncio
import urllib.error
import urllib.request

from taku.store import MemoryEventStore
from taku.testing.server import start_server, stop_server


class FlakyStore(MemoryEventStore):
    up = True

    @property
    def reachable(self) -> bool:
        return self.up


def status(base: str, path: str) -> int:
    try:
        with urllib.request.urlopen(base.rstrip("/") + path, timeout=5) as r:
            return r.status
    except urllib.error.HTTPError as e:
        e.close()
        return e.code


async def test_readyz_follows_the_store() -> None:
    store = FlakyStore()
    running = await start_server(store)
    try:
        base = running.http_url
        assert await asyncio.to_thread(status, base, "/readyz") == 200
        store.up = False
        assert await asyncio.to_thread(status, base, "/readyz") == 503
        assert await asyncio.to_thread(status, base, "/healthz") == 200
        store.up = True
        assert await asyncio.to_thread(status, base, "/readyz") == 200
    finally:
        await stop_server(running)
