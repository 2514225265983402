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
        await gm.request({"type": "command", "table_id": tid, "command_id": "log-2", "command": {"type": "set_role", "member_id": "m9", "role": "gm"}})
    done = [e for e in logs if e["event"] == "command_done"]
    rejected = [e for e in logs if e["event"] == "command_rejected"]
    assert len(done) == 1 and len(rejected) == 1
    assert done[0]["seqs"] == [3, 3] and "duration_ms" in done[0]
    assert done[0]["table_id"] == tid and done[0]["member_id"] == "m2" and done[0]["command_id"] == "log-1"
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
        assert line["event"] == "hello_world" and line["table_id"] == "t1" and line["level"] == "info"
    finally:
        structlog.reset_defaults()
