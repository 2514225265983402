"""Protocol versions over a real connection (issue 19, item 7): the subprotocol taku.v1,
and a hello naming a version the server does not speak."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from taku.store import MemoryEventStore
from taku.testing.server import RunningServer, start_server, stop_server
from taku_client import TakuClient


@pytest.fixture
async def server() -> AsyncIterator[RunningServer]:
    running = await start_server(MemoryEventStore())
    yield running
    await stop_server(running)


async def test_the_subprotocol_taku_v1_is_accepted(server: RunningServer) -> None:
    async with connect(server.ws_url, subprotocols=["taku.v2", "taku.v1"]) as ws:  # type: ignore[list-item]
        assert ws.subprotocol == "taku.v1"
        assert ws.response.headers["Sec-WebSocket-Protocol"] == "taku.v1"
        await ws.send(json.dumps({"type": "hello", "id": 1}))
        assert json.loads(await ws.recv())["protocol"] == "taku/1"
    # a client that offers no subprotocol (older ones) is still served, without one
    async with connect(server.ws_url) as ws:
        assert ws.subprotocol is None
        await ws.send(json.dumps({"type": "hello", "id": 1}))
        assert json.loads(await ws.recv())["type"] == "welcome"


async def test_only_unknown_subprotocols_are_refused_naming_taku_v1(server: RunningServer) -> None:
    with pytest.raises(InvalidStatus) as refused:
        async with connect(server.ws_url, subprotocols=["taku.v9"]):  # type: ignore[list-item]
            pass
    assert refused.value.response.status_code == 400
    assert b"taku.v1" in refused.value.response.body


async def test_the_client_library_offers_taku_v1(server: RunningServer) -> None:
    client = await TakuClient.connect(server.ws_url)
    try:
        assert client._ws is not None and client._ws.subprotocol == "taku.v1"
        assert client.welcome is not None and client.welcome.protocol == "taku/1"
    finally:
        await client.close()


async def test_hello_with_an_unsupported_protocol_is_refused_naming_the_supported(
    server: RunningServer,
) -> None:
    async with connect(server.ws_url, subprotocols=["taku.v1"]) as ws:  # type: ignore[list-item]
        await ws.send(json.dumps({"type": "hello", "id": 7, "protocol": "taku/2"}))
        error = json.loads(await ws.recv())
        assert error["type"] == "error" and error["re"] == 7
        assert error["code"] == "protocol/unsupported_version"
        assert error["params"]["supported"] == ["taku/1"]
        assert error["params"]["protocol"] == "taku/2"
        assert error["message"] == (
            "サーバーはプロトコル「taku/2」に対応していません（対応している版: taku/1）"
        )
        # the connection stays: a hello with the version it speaks is welcomed
        await ws.send(json.dumps({"type": "hello", "id": 8, "protocol": "taku/1"}))
        welcome = json.loads(await ws.recv())
        assert (welcome["type"], welcome["re"], welcome["protocol"]) == ("welcome", 8, "taku/1")
