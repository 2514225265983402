"""A full scripted session of 澱み流れ over WebSocket, from the log's first event to the last.

Pre-play (trailer, handouts, introductions, key numbers, suits), an opening
scene with the card example, 舞台裏 and パス, a middle scene with 登場判定, a
purchase, a gift of 流れ and 直感把握, a climax combat, and the ending; every
member follows it live on their own connection, then the log is replayed.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import uuid
from typing import Any

import msgspec
from websockets.asyncio.client import ClientConnection, connect

from taku.core.commands import Command, CreateCharacter
from taku.core.dice import ScriptedDice
from taku.core.table import TableState, fold
from taku_yodomi import commands as C

FACE = re.compile(r"[♠♥♦♣](?:10|[2-9AJQK])|JK[12]")


class Client:
    """One member's WebSocket connection: requests by id, events kept in order."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.events: list[dict[str, Any]] = []
        self.ids = itertools.count(1)
        self.table_id = ""

    async def request(self, **msg: Any) -> dict[str, Any]:
        rid = next(self.ids)
        await self.ws.send(json.dumps({**msg, "id": rid}, ensure_ascii=False))
        async with asyncio.timeout(5):
            while True:
                m = json.loads(await self.ws.recv())
                if m["type"] == "event":
                    self.events.append(m)
                elif m.get("re") == rid:
                    assert m["type"] != "error", m
                    return m

    async def send(self, command: Command) -> dict[str, Any]:
        ack = await self.request(
            type="command",
            table_id=self.table_id,
            command_id=uuid.uuid4().hex,
            command=msgspec.to_builtins(command),
        )
        assert ack["type"] == "ack", ack
        return ack

    async def events_until(self, seq: int) -> list[dict[str, Any]]:
        async with asyncio.timeout(5):
            while not self.events or self.events[-1]["seq"] < seq:
                m = json.loads(await self.ws.recv())
                if m["type"] == "event":
                    self.events.append(m)
        return self.events

    def last(self, type_: str) -> dict[str, Any]:
        return next(e["event"] for e in reversed(self.events) if e["event"]["type"] == type_)


async def test_full_session_over_websocket(
    scripted_server: Any, scripted_dice: ScriptedDice, order: Any
) -> None:
    """Pre-play, opening, middle, climax combat and ending over WebSocket; replayed from the log."""
    server = scripted_server
    scripted_dice.add_shuffle(order("♦10", "♠9", "♠K", "♥2", "JK1"))
    scripted_dice.extend(
        [
            7,
            3,  # key numbers: アキラ 7, ミナ 3
            2,
            3,  # opening: アキラ 2D9 [2,3]
            4,
            5,  # 舞台裏: ミナ 2D10
            4,
            8,  # middle: アキラ 登場判定 48
            3,
            4,  # purchase [3,4]
            6,
            1,  # 直感把握 61
            7,
            7,  # climax: アキラ hits with [7,7] (key number 7: 30)
            9,
            9,  # 澱みの獣 evades with [9,9] (critical)
            2,
            3,  # 澱みの獣 attacks [2,3]
            10,
            10,  # アキラ's defence fumbles [0,0]
            6,
            2,  # ミナ attacks [6,2]
            1,
            2,  # 澱みの獣 defends [1,2]
        ]
    )
    async with (
        connect(server.ws_url) as gws,
        connect(server.ws_url) as aws,
        connect(server.ws_url) as bws,
        connect(server.ws_url) as sws,
    ):
        gm, p1, p2, spec = Client(gws), Client(aws), Client(bws), Client(sws)
        created = await gm.request(
            type="create_table", ruleset="yodomi", name="澱み流れ卓", gm_name="GM"
        )
        tid = created["table_id"]
        for c in (gm, p1, p2, spec):
            c.table_id = tid
        await p1.request(type="join", table_id=tid, token=created["player_token"], name="あかね")
        await p2.request(type="join", table_id=tid, token=created["player_token"], name="ぶんた")
        await spec.request(type="join", table_id=tid, token=created["spectator_token"], name="見物")
        for c in (gm, p1, p2, spec):
            await c.request(type="subscribe", table_id=tid, after_seq=0)

        # characters
        await p1.send(
            CreateCharacter(
                name="アキラ",
                sheet={
                    "pp": 40,
                    "sp": 60,
                    "action": 6,
                    "evasion": 5,
                    "social": 4,
                    "wealth": 6,
                    "abilities": {"体": 5, "知": 3},
                },
            )
        )
        a = p1.last("character_created")["character_id"]
        await p2.send(
            CreateCharacter(
                name="ミナ",
                sheet={
                    "pp": 30,
                    "sp": 50,
                    "action": 3,
                    "evasion": 4,
                    "abilities": {"体": 2, "知": 6},
                },
            )
        )
        b = p2.last("character_created")["character_id"]
        await gm.send(
            CreateCharacter(
                name="澱みの獣",
                sheet={"pp": 12, "sp": 10, "action": 4, "evasion": 3, "defense": {"体": 2}},
            )
        )
        e = gm.last("character_created")["character_id"]

        # pre-play
        await gm.send(C.ReadTrailer(text="淀んだ街に、流れを見る者たちが集う。"))
        await gm.send(C.GiveHandout(character_id=a, text="PC1: 澱みを追う観察者"))
        await gm.send(C.GiveHandout(character_id=b, text="PC2: 失踪した友を探す"))
        await p1.send(C.Introduce(character_id=a, text="アキラ、刀使いの観察者"))
        await p2.send(C.Introduce(character_id=b, text="ミナ、学生"))
        await p1.send(C.RollKeyNumber(character_id=a))
        await p2.send(C.RollKeyNumber(character_id=b))
        await p1.send(C.ChooseSuit(character_id=a, suit="♦"))
        await p2.send(C.ChooseSuit(character_id=b, suit="♠"))
        await gm.send(C.DealCards(character_id=a, count=2))
        await gm.send(C.DealCards(character_id=b, count=2))

        # opening: アキラ alone; the card example ♦10 + ♠9 = +11 (YD-EX-01)
        await gm.send(C.StartScene(kind="opening", scene_player=a))
        await p1.send(C.RollCheck(character_id=a, ability="体", difficulty=20, label="張り込み"))
        rolled = p1.last("yodomi.check_rolled")["check"]
        assert rolled["value"] == 10 and rolled["success"] is False
        # the state message carries each viewer's affordances and the turn: アキラ's player is
        # offered 流れ on that check from her own hand, and sends exactly what was offered
        mine = await p1.request(type="get_state", table_id=tid)
        assert mine["turn"]["phase"] == "scene" and mine["turn"]["actor"] == a
        (play,) = [x for x in mine["affordances"] if x["command"] == "yodomi.play_cards"]
        assert play["args"] == {"check_id": rolled["check_id"]}
        assert [c["value"] for c in play["choices"]["cards"]] == ["♦10", "♠9"]
        theirs = await p2.request(type="get_state", table_id=tid)
        assert set(FACE.findall(json.dumps(theirs["affordances"], ensure_ascii=False))) == {
            "♠K",
            "♥2",
        }  # her own only
        assert (await spec.request(type="get_state", table_id=tid)).get("affordances", []) == []
        ack = await p1.request(
            type="command",
            table_id=tid,
            command_id=uuid.uuid4().hex,
            command={
                "type": play["command"],
                **play["args"],
                "cards": [c["value"] for c in play["choices"]["cards"]],
            },
        )
        assert ack["type"] == "ack", ack
        boosted = p1.last("yodomi.check_boosted")["check"]
        assert boosted["value"] == 21 and boosted["success"] is True
        await gm.send(C.EndScene())
        await p2.send(C.Backstage(character_id=b))
        assert p2.last("yodomi.backstage_recovered")["pp"] == 30
        await p1.send(C.GainPath(character_id=a, target="ミナ", emotion="友情"))
        await p2.send(C.GainPath(character_id=b, target="アキラ", emotion="信頼"))
        await p2.send(C.CutHand(character_id=b, cards=["♥2"]))
        await gm.send(C.CloseSceneEnd())

        # middle: ミナ's scene; アキラ enters (PP 40 + 20 for the パス to ミナ)
        await gm.send(C.StartScene(kind="middle", scene_player=b))
        await p1.send(C.EnterScene(character_id=a))
        entry = p1.last("yodomi.check_rolled")["check"]
        assert (entry["value"], entry["target"], entry["success"]) == (48, 60, True)
        await p1.send(C.Purchase(character_id=a, wealth=2))
        assert p1.last("yodomi.purchase_rolled")["total"] == 4 + 7 + 2
        await gm.send(C.DealCards(character_id=b))
        await p2.send(C.GiveCards(from_character=b, to_character=a, cards=["JK1"]))
        await p1.send(C.Intuition(character_id=a, ability="知", cards=["JK1"]))
        intu = p1.last("yodomi.check_rolled")["check"]
        assert (intu["value"], intu["target"], intu["success"]) == (61, 63, True)
        await gm.send(C.EndScene())
        await gm.send(C.CloseSceneEnd())

        # climax: combat in two engagements
        await gm.send(C.StartScene(kind="climax", scene_player=a, present=[b, e]))
        await gm.send(C.StartCombat(engagements=[[a, e], [b]]))
        await gm.send(C.AdvanceRound())  # setup
        await gm.send(C.AdvanceRound())  # initiative: アキラ (行動値 6)
        await p1.send(C.Attack(attacker=a, target=e, ability="体", power=10, attribute="体"))
        attack = p1.last("yodomi.attack_declared")["attack"]
        assert attack["hit"]["key_critical"] and attack["hit"]["value"] == 35
        await gm.send(C.Defend(attack_id=attack["attack_id"]))
        assert gm.last("yodomi.attack_resolved")["winner"] == "attacker"
        assert gm.last("yodomi.damaged")["pp"] == 4
        await gm.send(C.Attack(attacker=e, target=a, power=12, yodomi=True))
        attack = gm.last("yodomi.attack_declared")["attack"]
        await p1.send(C.Defend(attack_id=attack["attack_id"]))
        assert (
            p1.last("yodomi.damaged")["pp"] == 28
            and p1.last("yodomi.damaged")["attribute"] == "澱み"
        )
        await p2.send(
            C.Attack(attacker=b, target=e, ability="体", power=8, skill_bonus=2, attribute="体")
        )
        attack = p2.last("yodomi.attack_declared")["attack"]
        await gm.send(C.Defend(attack_id=attack["attack_id"]))
        assert gm.last("yodomi.condition_changed")["condition"] == "incapacitated"
        assert gm.last("yodomi.actor_chosen") == {
            "type": "yodomi.actor_chosen"
        }  # everyone acted: cleanup
        await gm.send(C.AdvanceRound())  # cleanup
        await gm.send(C.EndCombat())
        await gm.send(C.EndScene())
        await gm.send(C.CloseSceneEnd())

        # ending
        await gm.send(C.StartScene(kind="ending", scene_player=a, present=[b]))
        await gm.send(C.EndScene())
        ack = await gm.send(C.CloseSceneEnd(final=True))
        last = ack["last_seq"]

        # every member followed the whole log, gap-free, each as they may see it
        streams = {}
        for name, c in (("gm", gm), ("p1", p1), ("p2", p2), ("spec", spec)):
            evs = await c.events_until(last)
            assert [ev["seq"] for ev in evs] == list(range(1, last + 1)), name
            streams[name] = evs
        assert streams["p1"][-1]["event"] == {
            "type": "yodomi.scene_end_closed",
            "number": 4,
            "final": True,
        }
        # p2 never saw アキラ's cards before they were played; the spectator saw played cards only
        played = {"♦10", "♠9", "JK1"}
        assert set(FACE.findall(json.dumps(streams["spec"], ensure_ascii=False))) <= played
        assert set(FACE.findall(json.dumps(streams["p2"], ensure_ascii=False))) <= played | {
            "♠K",
            "♥2",
            "JK1",
        }
        assert set(FACE.findall(json.dumps(streams["gm"], ensure_ascii=False))) <= played
        assert all(ev["text"] for ev in streams["spec"])  # every event renders

        # the log again, and the state replayed at earlier seqs
        log = await p2.request(type="get_log", table_id=tid, after_seq=0, limit=5000)
        assert [json.loads(x) if isinstance(x, str) else x for x in log["events"]] == [
            {k: v for k, v in ev.items() if k != "re"} for ev in streams["p2"]
        ]
        now = await gm.request(type="get_state", table_id=tid)
        again = await gm.request(type="get_state", table_id=tid, at_seq=last)
        assert now["state"] == again["state"]
        assert now["state"]["game"]["phase"] == "finished"
        mid = await p2.request(type="get_state", table_id=tid, at_seq=last // 2)
        assert set(FACE.findall(json.dumps(mid, ensure_ascii=False))) <= played | {
            "♠K",
            "♥2",
            "JK1",
        }

    table = await server.hub.table(tid)
    replayed = fold(
        TableState(table_id=tid), await server.store.read(tid), table.ruleset, table.decoder
    )
    assert msgspec.to_builtins(replayed) == msgspec.to_builtins(table.state)
    # YD-48: the beast, 戦闘不能 when the climax ended, is back at 【PP】1 in the ending
    assert replayed.game.chars[e].condition == "active" and replayed.game.chars[e].pp == 1
    assert replayed.game.chars[a].pp == 28 and len(replayed.game.chars[a].paths) == 1
