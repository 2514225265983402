"""taku_client sends a command again, with the same id, when a node cannot store it:
on the same node after ``store/retry``, on the next URL after ``store/unavailable`` or
when no answer comes within ``command_timeout_s``.

The two "nodes" here are scripted WebSocket servers (what a real node answers when its
database is cut off is tested in tests/multinode/test_partition.py)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from websockets.asyncio.server import ServerConnection, serve

from taku_client import CommandError, TakuClient


class ScriptedNode:
    """Answers ``hello``; answers each command as ``answer(command_id, count)`` says
    (a code for an error, "ack", or None for silence)."""

    def __init__(self, answer: Callable[[str, int], str | None]) -> None:
        self.answer = answer
        self.seen: list[str] = []
        self.port = 0

    async def handle(self, ws: ServerConnection) -> None:
        async for frame in ws:
            msg = json.loads(frame)
            if msg["type"] == "hello":
                await ws.send(
                    json.dumps({"type": "welcome", "re": msg["id"], "protocol": "taku/1"})
                )
                continue
            cid = msg["command_id"]
            self.seen.append(cid)
            what = self.answer(cid, self.seen.count(cid))
            if what is None:
                continue
            if what == "ack":
                reply: dict[str, Any] = {
                    "type": "ack",
                    "table_id": msg["table_id"],
                    "command_id": cid,
                    "first_seq": 2,
                    "last_seq": 2,
                }
            else:
                reply = {
                    "type": "error",
                    "code": what,
                    "message": "…",
                    "params": {},
                    "details": {},
                    "command_id": cid,
                }
            await ws.send(json.dumps({**reply, "re": msg["id"]}))


@pytest.fixture
async def nodes() -> AsyncIterator[Callable[..., Any]]:
    servers = []

    async def start(answer: Callable[[str, int], str | None]) -> ScriptedNode:
        node = ScriptedNode(answer)
        server = await serve(node.handle, "127.0.0.1", 0)
        servers.append(server)
        node.port = server.sockets[0].getsockname()[1]
        return node

    yield start
    for s in servers:
        s.close()
        await s.wait_closed()


def url(node: ScriptedNode) -> str:
    return f"ws://127.0.0.1:{node.port}/ws"


async def test_unavailable_moves_to_the_next_node_with_the_same_command_id(nodes) -> None:  # type: ignore[no-untyped-def]
    a = await nodes(lambda cid, n: "store/unavailable")
    b = await nodes(lambda cid, n: "ack")
    async with await TakuClient.connect([url(a), url(b)]) as c:
        ack = await c.chat("t1", "2D6")
        assert c.url == url(b) and c.moves == 1
    assert a.seen == b.seen == [ack.command_id]


async def test_no_answer_within_the_command_timeout_moves_on(nodes) -> None:  # type: ignore[no-untyped-def]
    a = await nodes(lambda cid, n: None)  # a node that never answers
    b = await nodes(lambda cid, n: "ack")
    async with await TakuClient.connect([url(a), url(b)], command_timeout_s=0.3) as c:
        loop = asyncio.get_running_loop()
        t0 = loop.time()
        ack = await c.chat("t1", "2D6")
        assert loop.time() - t0 < 2
    assert a.seen == b.seen == [ack.command_id]


async def test_store_retry_is_sent_again_to_the_same_node(nodes) -> None:  # type: ignore[no-untyped-def]
    a = await nodes(lambda cid, n: "store/retry" if n < 3 else "ack")
    async with await TakuClient.connect(url(a)) as c:
        ack = await c.chat("t1", "2D6")
        assert c.moves == 0
    assert a.seen == [ack.command_id] * 3


async def test_a_rejection_is_not_retried_and_retries_end(nodes) -> None:  # type: ignore[no-untyped-def]
    a = await nodes(lambda cid, n: "command/forbidden" if cid.startswith("x") else "store/retry")
    async with await TakuClient.connect(url(a), retry_for_s=0.3) as c:
        with pytest.raises(CommandError) as refused:
            await c.command("t1", {"type": "roll", "expression": "1D6"}, command_id="x1")
        assert refused.value.code == "command/forbidden"
        with pytest.raises(CommandError) as gave_up:
            await c.command("t1", {"type": "roll", "expression": "1D6"}, command_id="y1")
        assert gave_up.value.code == "store/retry"
    assert a.seen.count("x1") == 1 and a.seen.count("y1") > 1
