"""A 秘伝の声 table over real WebSocket connections, played by following the state
message's ``affordances`` alone (no ``turn``: the chapter has no order of play)."""

from __future__ import annotations

from typing import Any

from taku.testing.peer import Raw, new_table

from .conftest import KOU


async def _state(peer: Raw, tid: str) -> dict[str, Any]:
    reply = await peer.request({"type": "get_state", "table_id": tid})
    assert reply["type"] == "state", reply
    return reply


async def _send(peer: Raw, tid: str, cid: str, command: dict[str, Any]) -> dict[str, Any]:
    reply = await peer.request(
        {"type": "command", "table_id": tid, "command_id": cid, "command": command}
    )
    assert reply["type"] == "ack", reply
    return reply


def _pick(affordance: dict[str, Any], **picks: Any) -> dict[str, Any]:
    """The command of an affordance: its args and, for each open key, the pick (else the first choice)."""
    body = {"type": affordance["command"], **affordance.get("args", {})}
    for key, choices in affordance.get("choices", {}).items():
        body[key] = picks[key] if key in picks else choices[0]["value"]
    return body


async def test_a_check_and_its_answer_by_affordances(connect) -> None:  # type: ignore[no-untyped-def]
    """The player rolls 甲's 《姿隠し》 判定値 alone; the GM is then offered, as the next
    step, to answer it with 乙, and does; the player is never offered the GM's tools and
    the spectator is offered nothing."""
    gm, pl, sp = await connect(), await connect(), await connect()
    created = await new_table(gm, "hiden")
    tid = created["table_id"]
    for peer, token, name in (
        (pl, created["player_token"], "たろう"),
        (sp, created["spectator_token"], "みる"),
    ):
        joined = await peer.request({"type": "join", "table_id": tid, "token": token, "name": name})
        assert joined["type"] == "joined", joined
    await _send(pl, tid, "c1", {"type": "create_character", "name": "甲", "sheet": KOU})
    otsu = {"abilities": {"知覚": 0}, "tokugi": {"探索": {"level": 3, "ability": "知覚"}}}
    await _send(gm, tid, "c2", {"type": "create_character", "name": "乙", "sheet": otsu})

    state = await _state(pl, tid)
    assert "turn" not in state  # absent for a game without turns
    offered = state["affordances"]
    assert not [
        a for a in offered if a["command"] in ("hiden.award_zabuton", "hiden.set_conditions")
    ]
    (hide,) = [
        a
        for a in offered
        if a["command"] == "hiden.check" and a.get("args", {}).get("skill") == "姿隠し"
    ]
    ack = await _send(pl, tid, "c3", _pick(hide, difficulty=None))  # none: the 判定値 alone
    check_id = f"k{ack['first_seq']}"

    offered = (await _state(gm, tid))["affordances"]
    (answer,) = [a for a in offered if a["command"] == "hiden.oppose"]
    assert answer["primary"] and answer["args"] == {"against": check_id}
    ack = await _send(gm, tid, "c4", _pick(answer))
    log = await gm.request({"type": "get_log", "table_id": tid})
    (resolved,) = [e["event"] for e in log["events"] if e["seq"] == ack["first_seq"]]
    assert resolved["type"] == "hiden.opposed_resolved" and resolved["against"] == check_id
    assert not (await _state(sp, tid)).get("affordances")  # empty (omitted) for a spectator
