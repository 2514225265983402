"""A bare WebSocket peer for protocol tests (raw frames in, decoded messages out).

Unlike the client library (``taku_client``), it sends exactly what a test
gives it, malformed frames included.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

__all__ = ["Raw", "new_table"]


class Raw:
    """A bare WebSocket peer: send dicts or raw frames, read messages.

    Replies (``re`` set) and pushed events are kept apart so a test can wait for
    either without losing the other.
    """

    def __init__(self, ws: object) -> None:
        self.ws = ws
        self.events: list[dict[str, Any]] = []
        self.others: list[dict[str, Any]] = []
        self._n = 0

    @classmethod
    async def connect(cls, url: str) -> Raw:
        from websockets.asyncio.client import connect

        return cls(await connect(url))

    async def close(self) -> None:
        await self.ws.close()  # type: ignore[attr-defined]

    async def send_raw(self, frame: str | bytes) -> None:
        await self.ws.send(frame)  # type: ignore[attr-defined]

    async def _read(self, timeout: float) -> dict[str, Any]:
        msg = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))  # type: ignore[attr-defined]
        if msg["type"] == "event":
            self.events.append(msg)
        else:
            self.others.append(msg)
        return msg

    async def request(self, msg: dict[str, Any], timeout: float = 10) -> dict[str, Any]:
        """Send ``msg`` with a fresh ``id`` and return the reply to it."""
        self._n += 1
        rid = self._n
        await self.ws.send(json.dumps({**msg, "id": rid}))  # type: ignore[attr-defined]
        while True:
            for m in self.others:
                if m.get("re") == rid:
                    self.others.remove(m)
                    return m
            await self._read(timeout)

    async def reply(self, timeout: float = 10) -> dict[str, Any]:
        """The next non-event message (sent without an id)."""
        while not self.others:
            await self._read(timeout)
        return self.others.pop(0)

    async def until_seq(self, seq: int, timeout: float = 10) -> list[dict[str, Any]]:
        """Read until an event with ``seq`` arrived; returns every event so far."""
        while not any(e["seq"] >= seq for e in self.events):
            await self._read(timeout)
        return self.events

    async def quiet(self, timeout: float = 0.2) -> None:
        """Read whatever arrives within ``timeout``."""
        try:
            while True:
                await self._read(timeout)
        except TimeoutError:
            return


async def new_table(gm: Raw, ruleset: str = "generic") -> dict[str, Any]:
    """Create a table as ``gm``; returns the ``created`` reply."""
    created = await gm.request(
        {"type": "create_table", "ruleset": ruleset, "name": "テスト卓", "gm_name": "GM"}
    )
    assert created["type"] == "created", created
    return created
