"""A table over real WebSocket connections: chat, dice, secrecy, resume, idempotency, conflicts."""

from __future__ import annotations

import asyncio
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taku.testing.peer import Raw, new_table


async def join(peer: Raw, created: dict, name: str, role: str = "player") -> dict:
    token = created["player_token"] if role == "player" else created["spectator_token"]
    joined = await peer.request(
        {"type": "join", "table_id": created["table_id"], "token": token, "name": name}
    )
    assert joined["type"] == "joined", joined
    return joined


async def test_gm_and_player_see_the_same_log(connect) -> None:
    """Chat and rolls of both sides reach both, in the same seq order, with every face."""
    gm, pl = await connect(), await connect()
    created = await new_table(gm)
    tid = created["table_id"]
    await join(pl, created, "たろう")
    for p in (gm, pl):
        assert (await p.request({"type": "subscribe", "table_id": tid}))["type"] == "subscribed"
    acks = [
        await gm.request({"type": "chat", "table_id": tid, "text": "ようこそ"}),
        await pl.request({"type": "chat", "table_id": tid, "text": "2D6>=7 攻撃"}),
        await gm.request({"type": "chat", "table_id": tid, "text": "1D100<=50"}),
        await pl.request({"type": "chat", "table_id": tid, "text": "よろしく"}),
    ]
    assert [a["type"] for a in acks] == ["ack"] * 4
    last = acks[-1]["last_seq"]
    gm_log = await gm.until_seq(last)
    pl_log = await pl.until_seq(last)
    assert [e["seq"] for e in gm_log] == list(range(1, last + 1))
    assert [(e["seq"], e["event"]) for e in gm_log] == [(e["seq"], e["event"]) for e in pl_log]
    roll = next(e["event"] for e in pl_log if e["event"]["type"] == "dice_rolled")
    (r,) = roll["rolls"]
    assert len(r["faces"]) == 2 and roll["total"] == sum(r["faces"])
    assert roll["comment"] == "攻撃"
    assert roll["success"] == (roll["total"] >= 7)


async def test_secret_roll_reaches_roller_and_gm_only(connect) -> None:
    """A secret roll is seen by the roller and the GM; others get a redacted event at the same seq."""
    gm, pl, other = await connect(), await connect(), await connect()
    created = await new_table(gm)
    tid = created["table_id"]
    await join(pl, created, "たろう")
    await join(other, created, "はなこ")
    for p in (gm, pl, other):
        await p.request({"type": "subscribe", "table_id": tid})
    ack = await pl.request({"type": "chat", "table_id": tid, "text": "S2D6 こっそり"})
    seq = ack["first_seq"]
    for p in (gm, pl, other):
        await p.until_seq(seq)
    seen = {
        name: next(e for e in p.events if e["seq"] == seq)
        for name, p in (("gm", gm), ("pl", pl), ("other", other))
    }
    assert seen["gm"]["event"]["type"] == seen["pl"]["event"]["type"] == "dice_rolled"
    assert seen["gm"]["event"]["secret"] is True
    assert seen["other"]["event"]["type"] == "redacted" and seen["other"]["redacted"] is True
    assert "faces" not in json.dumps(seen["other"])
    # a GM's secret roll is hidden from every player
    ack = await gm.request({"type": "chat", "table_id": tid, "text": "S1D100"})
    await pl.until_seq(ack["first_seq"])
    assert next(e for e in pl.events if e["seq"] == ack["first_seq"])["event"]["type"] == "redacted"
    # the log and the state obey the same rule
    log = await other.request({"type": "get_log", "table_id": tid})
    assert [e["event"]["type"] for e in log["events"] if e["seq"] in (seq, ack["first_seq"])] == [
        "redacted"
    ] * 2


async def test_spectator_reads_but_cannot_roll(connect) -> None:
    """A spectator sees the table but may not roll dice or act."""
    gm, sp = await connect(), await connect()
    created = await new_table(gm)
    tid = created["table_id"]
    joined = await join(sp, created, "見学", role="spectator")
    assert joined["role"] == "spectator"
    err = await sp.request(
        {
            "type": "command",
            "table_id": tid,
            "command_id": "x1",
            "command": {"type": "roll", "expression": "2D6"},
        }
    )
    assert err["code"] == "command/forbidden"
    state = await sp.request({"type": "get_state", "table_id": tid})
    assert state["state"]["members"][joined["member_id"]]["role"] == "spectator"


async def test_same_command_id_twice_writes_once(connect) -> None:
    """A command sent twice with one command id yields one event and the same ack."""
    gm = await connect()
    tid = (await new_table(gm))["table_id"]
    cmd = {
        "type": "command",
        "table_id": tid,
        "command_id": "once",
        "command": {"type": "chat", "text": "一度だけ"},
    }
    first = await gm.request(cmd)
    second = await gm.request(cmd)
    assert (first["first_seq"], first["last_seq"]) == (second["first_seq"], second["last_seq"])
    assert second["duplicate"] is True and "duplicate" not in first
    log = await gm.request({"type": "get_log", "table_id": tid})
    assert sum(e["event"].get("text") == "一度だけ" for e in log["events"]) == 1


async def test_a_command_id_reused_for_another_command_is_refused(connect) -> None:
    """The same command id with a different command gets command/id_reused and writes
    nothing; the same command again (fields in another order) is still a duplicate."""
    gm = await connect()
    tid = (await new_table(gm))["table_id"]
    first = await gm.request(
        {
            "type": "command",
            "table_id": tid,
            "command_id": "k1",
            "command": {"type": "roll", "expression": "2D6"},
        }
    )
    assert first["type"] == "ack", first
    err = await gm.request(
        {
            "type": "command",
            "table_id": tid,
            "command_id": "k1",
            "command": {"type": "chat", "text": "別の命令"},
        }
    )
    assert (err["type"], err["code"], err["command_id"]) == ("error", "command/id_reused", "k1")
    err = await gm.request({"type": "chat", "table_id": tid, "command_id": "k1", "text": "2D6"})
    assert err["code"] == "command/id_reused"
    again = await gm.request(
        {
            "type": "command",
            "table_id": tid,
            "command_id": "k1",
            "command": {"expression": "2D6", "type": "roll"},
        }
    )
    assert (
        again["type"] == "ack"
        and again["duplicate"] is True
        and again["first_seq"] == first["first_seq"]
    )
    log = await gm.request({"type": "get_log", "table_id": tid})
    assert log["events"][-1]["seq"] == first["last_seq"]


async def test_stale_expected_seq_conflicts_and_changes_nothing(connect) -> None:
    """A command with a stale expected seq is refused with command/stale_seq and writes nothing."""
    gm, pl = await connect(), await connect()
    created = await new_table(gm)
    tid = created["table_id"]
    await join(pl, created, "たろう")
    state = await gm.request({"type": "get_state", "table_id": tid})
    seq = state["seq"]
    ok = await gm.request(
        {
            "type": "command",
            "table_id": tid,
            "command_id": "a",
            "expected_seq": seq,
            "command": {"type": "chat", "text": "先"},
        }
    )
    assert ok["type"] == "ack" and ok["first_seq"] == seq + 1
    err = await pl.request(
        {
            "type": "command",
            "table_id": tid,
            "command_id": "b",
            "expected_seq": seq,
            "command": {"type": "chat", "text": "後"},
        }
    )
    assert err["type"] == "error" and err["code"] == "command/stale_seq"
    assert err["details"] == {"expected_seq": seq, "seq": seq + 1}
    assert (await gm.request({"type": "get_state", "table_id": tid}))["seq"] == seq + 1


async def test_resume_after_a_dropped_connection(connect) -> None:
    """A member rejoins with their own token and resumes after the last seq they had."""
    gm, pl = await connect(), await connect()
    created = await new_table(gm)
    tid = created["table_id"]
    joined = await join(pl, created, "たろう")
    await pl.request({"type": "subscribe", "table_id": tid})
    for i in range(3):
        await gm.request({"type": "chat", "table_id": tid, "text": f"line {i}"})
    seen = await pl.until_seq(6)
    k = max(e["seq"] for e in seen)
    await pl.close()
    for i in range(3, 6):
        await gm.request({"type": "chat", "table_id": tid, "text": f"line {i}"})
    back = await connect()
    again = await back.request({"type": "join", "table_id": tid, "token": joined["member_token"]})
    assert again["member_id"] == joined["member_id"] and "member_token" not in again
    sub = await back.request({"type": "subscribe", "table_id": tid, "after_seq": k})
    assert sub["seq"] == 9
    await gm.request({"type": "chat", "table_id": tid, "text": "live"})
    got = await back.until_seq(10)
    assert [e["seq"] for e in got] == list(range(k + 1, 11))


@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(cuts=st.lists(st.integers(min_value=0, max_value=12), min_size=1, max_size=3))
async def test_resume_from_any_point_has_no_gap_or_repeat(taku_server, cuts: list[int]) -> None:
    """While the GM writes, a player drops and resumes at random points: no gap, no repeat."""
    gm = await Raw.connect(taku_server.ws_url)
    created = await new_table(gm)
    tid = created["table_id"]
    pl = await Raw.connect(taku_server.ws_url)
    token = (await join(pl, created, "たろう"))["member_token"]
    received: list[int] = []

    async def writer() -> None:
        for i in range(15):
            await gm.request({"type": "chat", "table_id": tid, "text": f"{i}"})
            await asyncio.sleep(0)

    task = asyncio.create_task(writer())
    await pl.request({"type": "subscribe", "table_id": tid})
    for cut in cuts:
        for _ in range(cut):
            try:
                await pl._read(0.05)
            except TimeoutError:
                break
        received += [e["seq"] for e in pl.events]
        await pl.close()
        pl = await Raw.connect(taku_server.ws_url)
        await pl.request({"type": "join", "table_id": tid, "token": token})
        await pl.request(
            {"type": "subscribe", "table_id": tid, "after_seq": received[-1] if received else 0}
        )
    await task
    last = (await gm.request({"type": "get_state", "table_id": tid}))["seq"]
    if not received or received[-1] < last:
        await pl.until_seq(last)
    received += [e["seq"] for e in pl.events]
    assert received == list(range(1, last + 1))
    await pl.close()
    await gm.close()


async def test_replayed_state_equals_the_live_state_at_each_seq(connect) -> None:
    """get_state at seq N gives exactly the state a client saw live at seq N."""
    gm, pl = await connect(), await connect()
    created = await new_table(gm)
    tid = created["table_id"]
    live: dict[int, dict] = {}
    live[2] = (await gm.request({"type": "get_state", "table_id": tid}))["state"]
    joined = await join(pl, created, "たろう")
    steps = [
        {"type": "create_character", "name": "ニンジャ", "sheet": {"karate": 3}},
        {"type": "rename", "name": "タロウ"},
        {"type": "roll", "expression": "3D6"},
    ]
    for i, command in enumerate(steps):
        ack = await pl.request(
            {"type": "command", "table_id": tid, "command_id": f"s{i}", "command": command}
        )
        live[ack["last_seq"]] = (await gm.request({"type": "get_state", "table_id": tid}))["state"]
    cid = next(iter(live[max(live)]["characters"]))
    ack = await gm.request(
        {
            "type": "command",
            "table_id": tid,
            "command_id": "ov",
            "command": {
                "type": "override",
                "path": ["characters", cid, "sheet", "karate"],
                "value": 5,
                "reason": "成長",
            },
        }
    )
    live[ack["last_seq"]] = (await gm.request({"type": "get_state", "table_id": tid}))["state"]
    assert live[ack["last_seq"]]["characters"][cid]["sheet"]["karate"] == 5
    for seq, state in live.items():
        replayed = await gm.request({"type": "get_state", "table_id": tid, "at_seq": seq})
        assert replayed["state"] == state, seq
    assert joined["member_id"] in live[max(live)]["members"]


async def test_rulesets_describe_their_commands_and_sheets(connect) -> None:
    """list_rulesets gives each ruleset's command and sheet schema, and the core commands'."""
    peer = await connect()
    reply = await peer.request({"type": "list_rulesets"})
    by_id = {r["id"]: r for r in reply["rulesets"]}
    assert {"generic", "nstrpg", "chabu", "yodomi", "hiden", "shadowjan"} <= set(by_id)
    nstrpg = by_id["nstrpg"]
    assert nstrpg["commands"] and "$defs" in nstrpg["command_schema"]
    assert nstrpg["sheet_schema"]  # nstrpg checks its sheets
    core_tags = {
        d.get("properties", {}).get("type", {}).get("enum", [None])[0]
        for d in reply["core_command_schema"]["$defs"].values()
    }
    assert {"chat", "roll", "override", "create_character"} <= core_tags
    assert {"override", "set_role", "reveal_seed"} <= set(nstrpg["gm_commands"])
    assert "roll" not in nstrpg["gm_commands"]


async def test_commands_in_flight_together_are_answered_in_order(connect) -> None:
    """A client may send commands without waiting for acks: on one table they are
    written, broadcast and acknowledged in the order sent, the sender's event before
    its ack; a get_state sent right after them sees all of them."""
    gm = await connect()
    created = await new_table(gm)
    tid = created["table_id"]
    assert (await gm.request({"type": "subscribe", "table_id": tid, "after_seq": 10**6}))[
        "type"
    ] == "subscribed"
    n = 30
    for i in range(n):
        await gm.send_raw(
            json.dumps(
                {
                    "type": "chat",
                    "table_id": tid,
                    "text": f"line {i}",
                    "command_id": f"burst-{i}",
                    "id": 100 + i,
                }
            )
        )
    await gm.send_raw(json.dumps({"type": "get_state", "table_id": tid, "id": 999}))
    order: list[tuple[str, str]] = []
    state = None
    while state is None:
        msg = await gm._read(10)
        if msg["type"] == "state":
            state = msg
        elif msg["type"] in ("event", "ack"):
            order.append((msg["type"], msg["command_id"]))
    assert order == [(kind, f"burst-{i}") for i in range(n) for kind in ("event", "ack")]
    assert state["seq"] == 2 + n


async def test_an_undecodable_command_in_a_burst_is_answered_in_its_turn(connect) -> None:
    """Among commands in flight, one that does not decode (unknown command type) gets its
    error in the order it was sent, naming its command id."""
    gm = await connect()
    created = await new_table(gm)
    tid = created["table_id"]
    for i in range(20):
        if i == 10:
            msg = {
                "type": "command",
                "table_id": tid,
                "command_id": "bad",
                "command": {"type": "fly"},
            }
        else:
            msg = {"type": "chat", "table_id": tid, "text": f"l{i}", "command_id": f"ok-{i}"}
        await gm.send_raw(json.dumps(msg))
    answers = []
    while len(answers) < 20:
        msg = await gm._read(10)
        if msg["type"] in ("ack", "error"):
            answers.append((msg["type"], msg["command_id"], msg.get("code")))
    expected = [("ack", f"ok-{i}", None) for i in range(10)] + [
        ("error", "bad", "protocol/unknown_type")
    ]
    assert answers == expected + [("ack", f"ok-{i}", None) for i in range(11, 20)]
