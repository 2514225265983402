"""Bad input gets its own stable error code, and the server goes on serving everyone."""

from __future__ import annotations

import json

import pytest

from taku.store import MemoryEventStore
from taku.testing.peer import Raw, new_table
from taku.testing.server import RunningServer, start_server, stop_server


@pytest.fixture
async def table(connect) -> tuple[Raw, Raw, str]:
    gm, pl = await connect(), await connect()
    created = await new_table(gm)
    tid = created["table_id"]
    joined = await pl.request(
        {"type": "join", "table_id": tid, "token": created["player_token"], "name": "P"}
    )
    assert joined["type"] == "joined"
    return gm, pl, tid


async def test_each_bad_input_has_its_code(table: tuple[Raw, Raw, str]) -> None:
    """Malformed JSON, unknown types, wrong fields, unknown tables, bad tokens and
    forbidden commands each get their own code; the connection stays open."""
    gm, pl, tid = table
    cases: list[tuple[str | dict, str]] = [
        ("{not json", "protocol/malformed_json"),
        ("[1, 2]", "protocol/unknown_type"),
        ({"type": "teleport"}, "protocol/unknown_type"),
        ({"type": "chat", "table_id": tid}, "protocol/invalid_fields"),
        (
            {"type": "chat", "table_id": tid, "text": "x", "colour": "red"},
            "protocol/invalid_fields",
        ),
        ({"type": "get_state", "table_id": 42}, "protocol/invalid_fields"),
        ({"type": "join", "table_id": "tnope", "token": "x"}, "table/not_found"),
        ({"type": "join", "table_id": tid, "token": "wrong"}, "auth/bad_token"),
        ({"type": "get_state", "table_id": "tother"}, "protocol/not_joined"),
        ({"type": "create_table", "ruleset": "no-such-game"}, "table/unknown_ruleset"),
        (
            {"type": "command", "table_id": tid, "command_id": "c1", "command": {"type": "fly"}},
            "protocol/unknown_type",
        ),
        (
            {
                "type": "command",
                "table_id": tid,
                "command_id": "c2",
                "command": {"type": "roll", "expression": 5},
            },
            "protocol/invalid_fields",
        ),
        (
            {
                "type": "command",
                "table_id": tid,
                "command_id": "c3",
                "command": {"type": "reveal_seed"},
            },
            "command/forbidden",
        ),
        (
            {
                "type": "command",
                "table_id": tid,
                "command_id": "c4",
                "command": {"type": "set_role", "member_id": "m2", "role": "player"},
            },
            "command/forbidden",
        ),
        ({"type": "chat", "table_id": tid, "text": "999D6"}, "dice/too_many_dice"),
        ({"type": "chat", "table_id": tid, "text": "2D1001"}, "dice/too_many_faces"),
        (
            {
                "type": "command",
                "table_id": tid,
                "command_id": "c5",
                "command": {"type": "roll", "expression": "hello"},
            },
            "dice/invalid",
        ),
        ({"type": "chat", "table_id": tid, "text": "   "}, "command/empty"),
    ]
    for msg, code in cases:
        if isinstance(msg, str):
            await pl.send_raw(msg)
            reply = await pl.reply()
        else:
            reply = await pl.request(msg)
        assert reply["type"] == "error", (msg, reply)
        assert reply["code"] == code, (msg, reply)
        # every error frame: a Japanese message from the catalogue, with its params (always present)
        assert any("\u3040" <= ch <= "\u9fff" for ch in reply["message"]), (msg, reply)
        assert "None" not in reply["message"] and "「」" not in reply["message"], (msg, reply)
        assert isinstance(reply["params"], dict) and reply["details"] == reply["params"], (
            msg,
            reply,
        )
    # the same connection still works, and so does everyone else's
    assert (await pl.request({"type": "chat", "table_id": tid, "text": "まだ大丈夫"}))[
        "type"
    ] == "ack"
    assert (await gm.request({"type": "chat", "table_id": tid, "text": "こちらも"}))[
        "type"
    ] == "ack"
    state = await gm.request({"type": "get_state", "table_id": tid})
    assert (
        state["seq"] == 5
    )  # created, GM, player, two chats: nothing of the bad inputs was written


async def test_oversized_frame_is_refused_but_the_connection_stays(
    table: tuple[Raw, Raw, str],
) -> None:
    """A frame over 64 KiB gets protocol/frame_too_large; the next message works."""
    gm, pl, tid = table
    await pl.send_raw(json.dumps({"type": "chat", "table_id": tid, "text": "あ" * 30_000}))
    reply = await pl.reply()
    assert reply["code"] == "protocol/frame_too_large"
    assert (await pl.request({"type": "chat", "table_id": tid, "text": "小さい"}))["type"] == "ack"
    # the limit is in bytes: 30,000 characters of UTF-8 Japanese are 90,000 bytes
    unescaped = json.dumps(
        {"type": "chat", "table_id": tid, "text": "あ" * 30_000}, ensure_ascii=False
    )
    assert len(unescaped) < 64 * 1024 < len(unescaped.encode())
    await pl.send_raw(unescaped)
    assert (await pl.reply())["code"] == "protocol/frame_too_large"
    assert (await pl.request({"type": "chat", "table_id": tid, "text": "次"}))["type"] == "ack"


async def test_a_text_frame_that_is_not_utf8_is_malformed_and_the_connection_stays(
    table: tuple[Raw, Raw, str],
) -> None:
    """docs/protocol.md: a text frame that is not UTF-8 is refused as not JSON (the
    JSON decoder checks the UTF-8); the next message works."""
    gm, pl, tid = table
    await pl.ws.send(b'{"type":"chat","table_id":"' + tid.encode() + b'","text":"\xff"}', text=True)  # type: ignore[attr-defined]
    assert (await pl.reply())["code"] == "protocol/malformed_json"
    assert (await pl.request({"type": "chat", "table_id": tid, "text": "次"}))["type"] == "ack"


async def test_rate_limit_per_connection(tmp_path) -> None:
    """Past the per-connection rate, messages get protocol/rate_limited; others are unaffected."""
    from taku.store import MemoryEventStore

    running: RunningServer = await start_server(MemoryEventStore(), rate_per_s=1.0, rate_burst=5)
    try:
        noisy, calm = await Raw.connect(running.ws_url), await Raw.connect(running.ws_url)
        for _ in range(8):
            await noisy.send_raw(json.dumps({"type": "hello"}))
        codes = [(await noisy.reply()).get("code") for _ in range(8)]
        assert codes.count(None) == 5 and codes[5:] == ["protocol/rate_limited"] * 3
        assert (await calm.request({"type": "hello"}))["type"] == "welcome"
        await noisy.close()
        await calm.close()
    finally:
        await stop_server(running)


async def test_http_side(taku_server: RunningServer) -> None:
    """/healthz answers ok and / serves the web client, on the WebSocket port."""
    import urllib.request

    def get(path: str) -> tuple[int, bytes, str]:
        with urllib.request.urlopen(taku_server.http_url.rstrip("/") + path, timeout=5) as r:
            return r.status, r.read(), r.headers.get("Content-Type", "")

    import asyncio

    status, body, _ = await asyncio.to_thread(get, "/healthz")
    assert (status, body) == (200, b"ok\n")
    status, body, ctype = await asyncio.to_thread(get, "/")
    assert status == 200 and ctype.startswith("text/html") and b"<html" in body.lower()
    import urllib.error

    with pytest.raises(urllib.error.HTTPError) as e:
        await asyncio.to_thread(get, "/../../etc/passwd")
    assert e.value.code == 404
    e.value.close()


async def test_new_tables_are_rate_limited_server_wide() -> None:
    """Anyone may create a table, so the server caps new tables per minute across all connections."""
    from taku.store import MemoryEventStore

    running: RunningServer = await start_server(MemoryEventStore(), creates_per_minute=3)
    try:
        a, b = await Raw.connect(running.ws_url), await Raw.connect(running.ws_url)
        replies = [
            await (a if i % 2 else b).request({"type": "create_table", "ruleset": "generic"})
            for i in range(5)
        ]
        assert [r["type"] for r in replies] == ["created"] * 3 + ["error"] * 2
        assert replies[-1]["code"] == "protocol/rate_limited"
        assert (await a.request({"type": "hello"}))["type"] == "welcome"  # the connection goes on
        await a.close()
        await b.close()
    finally:
        await stop_server(running)


async def test_a_ruleset_bug_fails_only_that_command(
    table: tuple[Raw, Raw, str], monkeypatch
) -> None:
    """An exception inside a ruleset's decide (a bug, not a rejection) answers that
    command with internal/error and its command id, writes nothing, and the table
    and the connection go on."""
    from taku.core import table as core_table

    gm, _pl, tid = table
    real = core_table.decide

    def buggy(state, command, ctx, ruleset):  # type: ignore[no-untyped-def]
        if getattr(command, "text", "") == "boom":
            raise ZeroDivisionError("a bug")
        return real(state, command, ctx, ruleset)

    monkeypatch.setattr(core_table, "decide", buggy)
    before = await gm.request({"type": "get_state", "table_id": tid})
    err = await gm.request({"type": "chat", "table_id": tid, "text": "boom", "command_id": "bug-1"})
    assert (
        err["type"] == "error" and err["code"] == "internal/error" and err["command_id"] == "bug-1"
    )
    ack = await gm.request({"type": "chat", "table_id": tid, "text": "fine", "command_id": "ok-1"})
    assert ack["type"] == "ack" and ack["first_seq"] == before["seq"] + 1


async def test_a_client_that_stops_reading_is_dropped_and_the_rest_go_on() -> None:
    """A subscriber whose frames pile up unread past ``max_backlog_bytes`` is dropped;
    the server keeps its memory and goes on serving the table's other members."""
    from structlog.testing import capture_logs

    from taku.store import MemoryEventStore

    from .test_catchup import small_window_member

    running = await start_server(
        MemoryEventStore(), max_backlog_bytes=64 * 1024, rate_per_s=100_000.0, rate_burst=100_000
    )
    sleeper = None
    try:
        gm = await Raw.connect(running.ws_url)
        created = await new_table(gm)
        tid = created["table_id"]
        sleeper, _ = await small_window_member(running, created, "zzz")
        await sleeper.request({"type": "subscribe", "table_id": tid, "after_seq": 10**6})
        with capture_logs() as logs:
            for i in range(3000):  # the sleeper never reads again
                ack = await gm.request(
                    {"type": "chat", "table_id": tid, "text": "x" * 1000, "command_id": f"c{i}"}
                )
                assert ack["type"] == "ack"
                if any(e["event"] == "connection_dropped_backlog" for e in logs):
                    break
        assert any(e["event"] == "connection_dropped_backlog" for e in logs), (
            "the sleeper is still connected"
        )
        ack = await gm.request(
            {"type": "chat", "table_id": tid, "text": "still here", "command_id": "after"}
        )
        assert ack["type"] == "ack"
        await gm.close()
    finally:
        if sleeper is not None:
            sleeper.ws.transport.abort()  # type: ignore[attr-defined]
        await stop_server(running)


async def test_an_unknown_ruleset_is_named_with_those_installed(connect) -> None:
    gm = await connect()
    reply = await gm.request({"type": "create_table", "ruleset": "nope"})
    assert reply["code"] == "table/unknown_ruleset"
    assert reply["message"] == "「nope」というルールはありません"
    assert reply["params"]["ruleset"] == "nope" and "nstrpg" in reply["params"]["installed"]


async def test_list_rulesets_schemas_carry_japanese_titles(connect) -> None:
    """The sheet, options, state and command schemas a client builds forms from are the
    labelled ones (the Structs' Japanese titles), not msgspec's class names."""
    gm = await connect()
    reply = await gm.request({"type": "list_rulesets"})
    for info in reply["rulesets"]:
        for key in ("sheet_schema", "options_schema", "state_schema", "command_schema"):
            for name, entry in info.get(key, {}).get("$defs", {}).items():
                if entry.get("type") == "object":
                    title = entry.get("title", "")
                    assert any("\u3040" <= ch <= "\u9fff" for ch in title), (
                        info["id"],
                        key,
                        name,
                        title,
                    )


class _HeldStore(MemoryEventStore):
    """Writes each append at once but makes it durable only when the test releases it."""

    def __init__(self) -> None:
        super().__init__()
        self.holding = False
        self.held: list[object] = []

    def append_nowait(self, table_id, events, *, expected_seq, done):  # type: ignore[no-untyped-def]
        if not self.holding:
            return super().append_nowait(table_id, events, expected_seq=expected_seq, done=done)
        self._append_now(table_id, events, expected_seq)
        self.held.append(done)

    def release(self) -> None:
        held, self.held = self.held, []
        for done in held:
            done(None)  # type: ignore[operator]


async def test_a_rate_limited_command_is_refused_in_its_turn_naming_its_command_id() -> None:
    """docs/protocol.md: answers come in the order the commands were sent. A command
    refused for the rate waits behind the command still in flight, and its error names
    the command (its ``id`` and ``command_id``), so the client knows which to resend."""
    store = _HeldStore()
    running: RunningServer = await start_server(store, rate_per_s=0.001, rate_burst=3)
    try:
        gm = await Raw.connect(running.ws_url)
        created = await new_table(gm)  # three messages saved up: this,
        tid = created["table_id"]
        subscribed = await gm.request({"type": "subscribe", "table_id": tid, "after_seq": 0})
        assert subscribed["type"] == "subscribed"  # this, and A; B is one too many
        gm.events.clear()
        store.holding = True
        await gm.send_raw(
            json.dumps(
                {"type": "chat", "id": "a", "table_id": tid, "text": "一", "command_id": "A"}
            )
        )
        await gm.send_raw(
            json.dumps(
                {"type": "chat", "id": "b", "table_id": tid, "text": "二", "command_id": "B"}
            )
        )
        await gm.quiet(0.3)
        assert gm.others == []  # nothing answers B before A is answered
        store.release()
        first, second = await gm.reply(), await gm.reply()
        assert (first["type"], first["re"], first["command_id"]) == ("ack", "a", "A")
        assert (second["type"], second["code"]) == ("error", "protocol/rate_limited")
        assert (second["re"], second["command_id"]) == ("b", "B")
        assert [e["command_id"] for e in gm.events] == ["A"]  # B was not taken
        await gm.close()
    finally:
        await stop_server(running)


async def test_a_frame_that_does_not_decode_is_refused_in_its_turn_naming_its_command_id() -> None:
    """A ``command`` frame with a field it may not have (or no JSON at all) is answered
    after the commands still in flight, and its error names what it can read of it."""
    store = _HeldStore()
    running: RunningServer = await start_server(store)
    try:
        gm = await Raw.connect(running.ws_url)
        tid = (await new_table(gm))["table_id"]
        store.holding = True
        await gm.send_raw(
            json.dumps(
                {"type": "chat", "id": "a", "table_id": tid, "text": "一", "command_id": "A"}
            )
        )
        bad = {"type": "command", "id": "b", "table_id": tid, "command_id": "B", "extra": 1}
        await gm.send_raw(json.dumps({**bad, "command": {"type": "chat", "text": "二"}}))
        await gm.send_raw("{not json")
        await gm.quiet(0.3)
        assert gm.others == []  # nothing is answered before A is
        store.release()
        answers = [await gm.reply() for _ in range(3)]
        assert [(m["type"], m.get("re")) for m in answers] == [
            ("ack", "a"),
            ("error", "b"),
            ("error", None),
        ]
        assert answers[1]["code"] == "protocol/invalid_fields" and answers[1]["command_id"] == "B"
        assert answers[2]["code"] == "protocol/malformed_json"
        await gm.close()
    finally:
        await stop_server(running)
