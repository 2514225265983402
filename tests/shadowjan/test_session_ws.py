"""A complete scripted four-hand game of シャドー・ジャン2 over WebSocket, from the seat order
to the final ranking, with no GM move; then its log replayed gives the same scores."""

from __future__ import annotations

import json
from typing import Any

import msgspec

from taku.core.dice import ScriptedDice
from taku.testing.peer import Raw
from taku_shadowjan import events as ev
from taku_shadowjan._evolve import evolve
from taku_shadowjan.events import EVENTS
from taku_shadowjan.state import SjGame

from .conftest import ninja

MISS = [1, 1, 1, 1]
_TYPES = {t.__struct_config__.tag: t for t in EVENTS}


class Seat:
    """One player's connection."""

    def __init__(self, peer: Raw, table_id: str) -> None:
        self.peer = peer
        self.tid = table_id
        self.n = 0
        self.cid = ""

    async def command(self, command: dict[str, Any]) -> dict[str, Any]:
        self.n += 1
        reply = await self.peer.request(
            {
                "type": "command",
                "table_id": self.tid,
                "command_id": f"{id(self)}-{self.n}",
                "command": command,
            }
        )
        assert reply["type"] == "ack", reply
        return reply

    async def move(self, verb: str, **fields: Any) -> dict[str, Any]:
        return await self.command({"type": f"shadowjan.{verb}", "character_id": self.cid, **fields})

    async def state(self) -> dict[str, Any]:
        return (await self.message())["state"]

    async def message(self) -> dict[str, Any]:
        """The whole ``state`` message: ``state``, ``affordances``, ``turn``."""
        return await self.peer.request({"type": "get_state", "table_id": self.tid})


async def test_four_hand_game_over_websocket(
    scripted_server: Any, scripted_dice: ScriptedDice
) -> None:
    """Seat order (a tie rerolled), テンホー・チーホー with a counter, リーチ棒, ロン by two declarers,
    イカサマ チョンボ, リーチ ツモ; every player follows live; the replay gives the same scores."""
    url = scripted_server.ws_url
    gm_peer = await Raw.connect(url)
    peers = [await Raw.connect(url) for _ in range(4)]
    watcher = await Raw.connect(url)
    try:
        created = await gm_peer.request(
            {"type": "create_table", "ruleset": "shadowjan", "name": "雀荘", "gm_name": "店主"}
        )
        tid = created["table_id"]
        seats = [Seat(p, tid) for p in peers]
        names = ["アキラ", "ボブ", "チカ", "ダン"]
        for s, name in zip(seats, names, strict=True):
            joined = await s.peer.request(
                {"type": "join", "table_id": tid, "token": created["player_token"], "name": name}
            )
            assert joined["type"] == "joined"
        await watcher.request(
            {"type": "join", "table_id": tid, "token": created["spectator_token"], "name": "見物"}
        )
        for p in (*peers, watcher):
            assert (await p.request({"type": "subscribe", "table_id": tid}))["type"] == "subscribed"
        for s, name in zip(seats, names, strict=True):
            await s.command({"type": "create_character", "name": name, "sheet": ninja()})
            await s.peer.until_seq(1)
            s.cid = next(
                cid for cid, ch in (await s.state())["characters"].items() if ch["name"] == name
            )
            await s.move("sit")
        a, b, c, d = seats

        scripted_dice.extend(
            [50, 90, 90, 10, 30, 70]
        )  # seat order: ボブ and チカ tie at 90 and reroll
        scripted_dice.extend([1, 4, 4, 4])  # hand 1, dealer チカ: チカ 5 メンツ, the rest 2
        await a.command({"type": "shadowjan.start"})
        msg = await c.message()
        assert msg["state"]["game"]["seats"] == [c.cid, b.cid, a.cid, d.cid]
        assert (
            msg["turn"]["actor"] == c.cid
            and msg["turn"]["phase"] == "action"
            and msg["turn"]["round_label"] == "東1局"
        )
        assert any(m["command"] == "shadowjan.tenho" for m in msg["affordances"])
        assert not any(
            m["command"].startswith("shadowjan.") for m in (await a.message())["affordances"]
        )  # not アキラ's move

        # hand 1: テンホー・チーホー; ボブ hits, チカ dodges with more successes: カウンターカラテ
        await c.move("tenho")
        scripted_dice.extend([5, 1, 1, 1])
        await b.move("attack", kind="melee", target=c.cid)
        scripted_dice.extend([6, 6])
        await c.move("evade", dice=2)
        await b.move("evade", dice=0)  # the counter lands on ボブ
        scripted_dice.extend(MISS)
        await a.move("attack", kind="shuriken", target=c.cid)
        scripted_dice.extend(
            MISS + [2, 4, 4, 4]
        )  # ダン misses; hand 2 dealt by ボブ (ボブ 4 メンツ)
        await d.move("attack", kind="melee", target=c.cid)
        st = await a.state()
        assert st["game"]["scores"] == {a.cid: 9000, b.cid: 9000, c.cid: 73000, d.cid: 9000}

        # hand 2: ボブ declares リーチ at the deal and throws the stick at チカ
        scripted_dice.extend([2, 1])
        await b.move("declare", kind="riichi", stick_target=c.cid)
        await c.move("evade", dice=1)
        scripted_dice.extend([6, 6, 1, 1])  # two 6s: not yet a ツモ
        await b.move("tsumo", stat="karate")
        scripted_dice.extend([6, 6, 1, 1])  # アキラ ニューロン: +2 → 4
        await a.move("neuron")
        scripted_dice.extend([5, 1, 1, 1])  # 振り込み判定 passes
        await a.move("declare", kind="dama")
        scripted_dice.extend(
            MISS + MISS
        )  # ダン: ニューロン fails, 振り込み判定 fails: ロン by ボブ and アキラ
        await d.move("neuron")
        scripted_dice.extend(MISS)
        await d.move("attack", kind="melee", target=b.cid)
        scripted_dice.extend(MISS + [4, 4, 4, 4])  # both ロン stand; hand 3 dealt by アキラ
        await d.move("attack", kind="shuriken", target=a.cid)
        st = await a.state()
        assert st["game"]["scores"] == {a.cid: 21000, b.cid: 27000, c.cid: 73000, d.cid: -21000}
        assert st["game"]["players"][c.cid]["tairyoku"] == 8

        # hand 3: アキラ's イカサマ fails: チョンボ, everyone attacks, then the payment
        scripted_dice.extend(MISS)
        await a.move("wazamae")
        for s in (d, c):
            scripted_dice.extend(MISS)
            await s.move("attack", kind="melee", target=a.cid)
        scripted_dice.extend(MISS + [2, 4, 4, 4])  # hand 4 dealt by ダン (ダン 4 メンツ)
        await b.move("attack", kind="melee", target=a.cid)

        # hand 4: ダン's リーチ and ツモ ハネマン; the game ends
        await d.move("declare", kind="riichi")
        scripted_dice.extend([6, 6, 6, 1])
        await d.move("tsumo", stat="wazamae")

        final = await watcher.request({"type": "get_state", "table_id": tid})
        game = final["state"]["game"]
        want = {a.cid: 3000, b.cid: 25000, c.cid: 71000, d.cid: 1000}
        assert game["phase"] == "ended" and game["scores"] == want
        assert game["ranking"] == [c.cid, b.cid, a.cid, d.cid] and game["end_reason"] == "hands"
        last = final["state"]["seq"]

        # every member followed the whole game live, with readable lines
        for p in (*peers, watcher):
            events = await p.until_seq(last)
            assert [e["seq"] for e in events] == list(range(events[0]["seq"], last + 1))
        texts = [e["text"] for e in watcher.events]
        assert any("テンホー・チーホー" in t for t in texts) and any("対局終了" in t for t in texts)
        moves = [
            json.loads(e["event"]) if isinstance(e["event"], str) else e["event"]
            for e in watcher.events
        ]
        # after each of the 21 moves but the last (the end), the table said whose move it is
        assert sum(1 for m in moves if m["type"] == "shadowjan.to_move") == 20

        # the log replayed from its events alone gives the same scores
        log = await watcher.request(
            {"type": "get_log", "table_id": tid, "after_seq": 0, "limit": 5000}
        )
        replayed = SjGame()
        for e in log["events"]:
            data = e["event"]
            t = _TYPES.get(data["type"])
            if t is not None:
                replayed = evolve(replayed, msgspec.convert(data, t))
        assert {cid: p.score for cid, p in replayed.players.items()} == want
        assert replayed.ranking == tuple(game["ranking"])
        assert isinstance(msgspec.convert(moves[-1], _TYPES[moves[-1]["type"]]), ev.GameEnded)
    finally:
        for p in (gm_peer, *peers, watcher):
            await p.close()
