"""Frames on the wire: every peer reads a batch's event frames and acks right, in their
order, with permessage-deflate negotiated or not (and deflated for the peer that asked
when the server offers it)."""

from __future__ import annotations

import asyncio
import json

import pytest
from websockets.asyncio.client import ClientConnection, connect

from taku.store import MemoryEventStore
from taku.testing.peer import Raw, new_table
from taku.testing.server import start_server, stop_server


class _Counting(ClientConnection):
    """A client connection that counts the bytes it reads off the socket."""

    received = 0

    def data_received(self, data: bytes) -> None:
        self.received += len(data)
        super().data_received(data)


@pytest.mark.parametrize("compression", [False, True])
async def test_every_peer_reads_a_batchs_frames_with_or_without_deflate(
    compression: bool,
) -> None:
    running = await start_server(MemoryEventStore(), compression=compression)
    try:
        # the server offers deflate only when configured; one peer asks, one does not
        deflating = Raw(
            await connect(running.ws_url, compression="deflate", create_connection=_Counting)
        )
        plain = Raw(await connect(running.ws_url, compression=None, create_connection=_Counting))
        created = await new_table(deflating)
        tid = created["table_id"]
        joined = await plain.request(
            {"type": "join", "table_id": tid, "token": created["player_token"], "name": "P"}
        )
        assert joined["type"] == "joined"
        for p in (deflating, plain):
            sub = await p.request({"type": "subscribe", "table_id": tid})
            assert sub["type"] == "subscribed"
        negotiated = deflating.ws.response.headers.get("Sec-WebSocket-Extensions")  # type: ignore[attr-defined]
        assert ("permessage-deflate" in (negotiated or "")) is compression
        start = max(e["seq"] for e in deflating.events + plain.events)
        before = {id(p): p.ws.received for p in (deflating, plain)}  # type: ignore[attr-defined]
        # several commands sent at once by both: stored and published in batches
        texts = ["あ" * (i * 40) + f"行{i}" for i in range(12)]  # lengths past 125 bytes
        texts.append("長" * 4000)  # the longest chat line
        sends = []
        for i, text in enumerate(texts):
            peer = deflating if i % 2 else plain
            sends.append(
                peer.ws.send(  # type: ignore[attr-defined]
                    json.dumps(
                        {
                            "type": "chat",
                            "id": f"m{i}",
                            "table_id": tid,
                            "text": text,
                            "command_id": f"c{i}",
                        }
                    )
                )
            )
        await asyncio.gather(*sends)
        last = start + len(texts)
        seen = []
        for p in (deflating, plain):
            events = await p.until_seq(last)
            seen.append([(e["seq"], e["event"]["text"]) for e in events if e["seq"] > start])
            await p.quiet(0.1)
            acks = [m for m in p.others if m["type"] == "ack"]
            mine = [f"c{i}" for i in range(len(texts)) if (p is deflating) == bool(i % 2)]
            assert sorted(a["command_id"] for a in acks) == sorted(mine)
        assert seen[0] == seen[1]  # the same events, in seq order, to both
        assert [s for s, _ in seen[0]] == list(range(start + 1, last + 1))
        assert sorted(t for _, t in seen[0]) == sorted(texts)
        got = {id(p): p.ws.received - before[id(p)] for p in (deflating, plain)}  # type: ignore[attr-defined]
        if compression:  # the long lines deflated for the peer that asked
            assert got[id(deflating)] < got[id(plain)] / 3
        await deflating.close()
        await plain.close()
    finally:
        await stop_server(running)
