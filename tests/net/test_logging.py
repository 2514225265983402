"""One canonical log line per command, with its context bound; tokens never logged."""

from __future__ import annotations

import json

import structlog
from structlog.testing import capture_logs

from taku.testing.peer import new_table


async def test_a_command_logs_one_line_with_its_context(connect) -> None:
    gm = await connect()
    with capture_logs(processors=[structlog.contextvars.merge_contextvars]) as logs:
        created = await new_table(gm)
        tid = created["table_id"]
        await gm.request({"type": "chat", "table_id": tid, "text": "2D6", "command_id": "log-1"})
        await gm.request(
            {
                "type": "command",
                "table_id": tid,
                "command_id": "log-2",
                "command": {"type": "set_role", "member_id": "m9", "role": "gm"},
            }
        )
    done = [e for e in logs if e["event"] == "command_done"]
    rejected = [e for e in logs if e["event"] == "command_rejected"]
    assert len(done) == 1 and len(rejected) == 1
    assert done[0]["seqs"] == [3, 3] and "duration_ms" in done[0]
    assert (
        done[0]["table_id"] == tid
        and done[0]["member_id"] == "m2"
        and done[0]["command_id"] == "log-1"
    )
    assert done[0]["conn_id"].startswith("c")
    assert rejected[0]["code"] == "command/unknown_member"
    text = json.dumps(logs, default=str)
    for token in (created["gm_token"], created["player_token"], created["spectator_token"]):
        assert token not in text


def test_json_logging_renders_msgspec_json(capsys) -> None:
    """Production logging writes JSON lines through msgspec."""
    from taku import log as taku_log

    taku_log.configure(json=True, level="info", cache=False)
    try:
        structlog.get_logger("t").info("hello_world", table_id="t1")
        out = capsys.readouterr().out.strip().splitlines()[-1]
        line = json.loads(out)
        assert (
            line["event"] == "hello_world" and line["table_id"] == "t1" and line["level"] == "info"
        )
    finally:
        structlog.reset_defaults()


async def test_a_garbled_handshake_logs_one_line_not_a_traceback(
    taku_server, connect, caplog
) -> None:  # type: ignore[no-untyped-def]
    """Bytes after a handshake request (junk, a second request) make the websockets
    library trip over its own assertion (``send_eof`` twice): the log carries one
    ``bad_handshake`` line per such peer, no traceback, and the server goes on serving."""
    import asyncio
    import logging

    port = taku_server.server.port
    junk = [
        b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\nxxxxxxxx",
        b"GET / HTTP/1.1\r\nHost: x\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n",
    ]
    caplog.set_level(logging.WARNING)
    with capture_logs() as logs:
        for payload in junk:
            r, w = await asyncio.open_connection("127.0.0.1", port)
            w.write(payload)
            await w.drain()
            await asyncio.wait_for(r.read(), 5)  # the server drops it
            w.close()
        gm = await connect()
        assert (await new_table(gm))["table_id"]  # still serving
    tracebacks = [r for r in caplog.records if r.exc_info is not None]
    assert tracebacks == [], [r.getMessage() for r in tracebacks]
    lines = [e for e in logs if e["event"] == "bad_handshake"]
    assert len(lines) == len(junk) and all(e["peer"].startswith("127.0.0.1:") for e in lines), lines


def test_library_loggers_go_through_the_same_json_pipeline(capsys) -> None:
    """websockets' and asyncpg's stdlib log lines come out as JSON lines with the same
    fields as taku's own (event, level, timestamp, bound context), plus their logger's name."""
    import logging

    from taku import log as taku_log

    root = logging.getLogger()
    level = root.level
    taku_log.configure(json=True, level="info", cache=False)
    try:
        structlog.contextvars.bind_contextvars(conn_id="c7")
        structlog.get_logger("taku.net").info("own_line", table_id="t1")
        logging.getLogger("websockets.server").info("connection %s open", "x")
        logging.getLogger("asyncpg.pool").warning("pool down")
        try:
            raise ValueError("boom")
        except ValueError:
            logging.getLogger("websockets.server").exception("unexpected internal error")
        logging.getLogger("websockets.server").debug("below the level")
        lines = [json.loads(x) for x in capsys.readouterr().out.strip().splitlines()]
    finally:
        structlog.contextvars.clear_contextvars()
        structlog.reset_defaults()
        for h in [h for h in root.handlers if type(h).__name__ == "_TakuHandler"]:
            root.removeHandler(h)
        root.setLevel(level)
    own, ws, pg, exc = lines
    assert set(own) == {"event", "level", "timestamp", "conn_id", "table_id"}
    assert ws == {
        "event": "connection x open",
        "level": "info",
        "timestamp": ws["timestamp"],
        "conn_id": "c7",
        "logger": "websockets.server",
    }
    assert ws["timestamp"].endswith("Z") and own["timestamp"][:10] == ws["timestamp"][:10]
    assert (pg["logger"], pg["level"], pg["event"]) == ("asyncpg.pool", "warning", "pool down")
    assert exc["level"] == "error" and exc["exception"][0]["exc_type"] == "ValueError"
