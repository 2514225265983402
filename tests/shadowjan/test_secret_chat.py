"""The secret prefix on every chat command of docs/rulesets/shadowjan.md. A move moves the
hand for everyone (its dice and the turn are public), so ``S<move>`` is refused with
``rule/shadowjan/secret_move`` and nothing written, rather than hiding events whose
effect every player sees in the state; the plain line is public. The NinjaSlayer2 dice
(``SN4``) stay secret-able (tests/shadowjan/test_chat_render.py)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from taku.core.commands import Chat, CreateCharacter
from taku_shadowjan import commands as C

from .conftest import Game, make_game, ninja

Scenario = Callable[[], Awaitable[Game]]


async def lobby() -> Game:
    """Two seated; the first player has a third character still standing."""
    g = await make_game(n=2, start=False)
    await g.h.send(g.members[0], CreateCharacter(name="三人目", sheet=ninja()))
    return g


async def ready() -> Game:
    """Two seated, the seat order and the deal scripted."""
    g = await make_game(n=2, start=False)
    g.h.roll(90, 80, 4, 4)
    return g


async def tenho() -> Game:
    """ジョン dealt 5 メンツ: テンホー・チーホー may be declared."""
    return await make_game(n=2, deal=[1, 4])


async def action() -> Game:
    """ジョン's turn with 2 メンツ; every die misses."""
    g = await make_game(n=2, deal=[4, 4])
    g.h.roll(*[1] * 8)
    return g


async def ikasama() -> Game:
    """ジョン's turn; every die is a 6 (the イカサマ succeeds)."""
    g = await make_game(n=2, deal=[4, 4])
    g.h.roll(*[6] * 8)
    return g


async def declare() -> Game:
    """ジョン dealt 4 メンツ: he must declare; the stick rolls 3."""
    g = await make_game(n=2, deal=[2, 4])
    g.h.roll(3)
    return g


async def tsumo() -> Game:
    """ジョン has declared ダマテン: his turn is the ツモ判定; no 6."""
    g = await make_game(n=2, deal=[2, 4])
    await g.send(g.cids[0], C.Declare(character_id=g.cids[0], kind="dama"))
    g.h.roll(*[1] * 8)
    return g


async def ron() -> Game:
    """スティファニー (【ジツ】1, a チャカガン) failed the 振り込み判定 against ジョン's リーチ:
    she must attack him; every die misses."""
    g = await make_game(n=2, sheets=[ninja(), ninja(jitsu=1, weapons=["chakagun"])], deal=[2, 4])
    john, steph = g.cids
    await g.send(john, C.Declare(character_id=john, kind="riichi"))
    g.h.roll(1, 2, 3, 4)
    await g.send(john, C.Tsumo(character_id=john, stat="karate"))
    g.h.roll(1, 1, 1, 1, 1, 2, 3, 4)  # ニューロン fails, then the 振り込み判定
    await g.send(steph, C.Neuron(character_id=steph))
    g.h.roll(*[1] * 12)
    return g


async def stick() -> Game:
    """ジョン threw the リーチ棒 at スティファニー: she must evade; every die misses."""
    g = await make_game(n=2, deal=[2, 4])
    g.h.roll(3)
    await g.send(
        g.cids[0], C.Declare(character_id=g.cids[0], kind="riichi", stick_target=g.cids[1])
    )
    g.h.roll(*[1] * 6)
    return g


# every line of the chat-command table (docs/rulesets/shadowjan.md), the situation it is
# a legal move in, and who speaks it (0: ジョン's player, 1: スティファニー's)
LINES: list[tuple[str, Scenario, int]] = [
    ("着席", lobby, 0),
    ("sit", lobby, 0),
    ("開始", ready, 0),
    ("start", ready, 0),
    ("テンホー", tenho, 0),
    ("テンホー・チーホー", tenho, 0),
    ("カラテ", action, 0),
    ("ゴーモーパイ", action, 0),
    ("カラテ [2,2]", action, 0),
    ("ワザマエ", ikasama, 0),
    ("イカサマ", ikasama, 0),
    ("イカサマ +2", ikasama, 0),
    ("ニューロン", action, 0),
    ("ベタオリ", action, 0),
    ("リーチ", declare, 0),
    ("リーチ スティファニー", declare, 0),
    ("ダマテン", declare, 0),
    ("ダマ", declare, 0),
    ("ツモ カラテ", tsumo, 0),
    ("ツモ ワザマエ", tsumo, 0),
    ("ツモ ニューロン", tsumo, 0),
    ("攻撃 近接 ジョン", ron, 1),
    ("攻撃 スリケン ジョン 3", ron, 1),
    ("攻撃 ジツ ジョン", ron, 1),
    ("攻撃 銃 ジョン", ron, 1),
    ("回避 3", stick, 1),
    ("回避", stick, 1),
]


async def _frames(g: Game, speaker: int, line: str) -> dict[str, list[dict]]:
    """The frames each member receives for ``line`` spoken by ``speaker``."""
    watcher = await g.h.join("見物", role="spectator")
    seq = g.h.state.seq
    events = await g.h.chat(g.members[speaker], line)
    assert events and all(type(e).__struct_config__.tag.startswith("shadowjan.") for e in events), (
        line,
        events,
    )
    who = {
        "speaker": g.members[speaker],
        "other": g.members[1 - speaker],
        "gm": g.h.gm,
        "spectator": watcher,
    }
    return {k: await g.h.frames(m, after_seq=seq) for k, m in who.items()}


@pytest.mark.parametrize(("line", "scenario", "speaker"), LINES, ids=[x[0] for x in LINES])
async def test_a_secret_move_is_refused_and_nothing_written(
    line: str, scenario: Scenario, speaker: int
) -> None:
    g = await scenario()
    for prefix in ("S", "Ｓ"):
        err = await g.h.rejected(g.members[speaker], Chat(text=prefix + line))
        assert err.code == "rule/shadowjan/secret_move", (line, err)


@pytest.mark.parametrize(("line", "scenario", "speaker"), LINES, ids=[x[0] for x in LINES])
async def test_plain_chat_command_is_public(line: str, scenario: Scenario, speaker: int) -> None:
    g = await scenario()
    frames = await _frames(g, speaker, line)
    for k, got in frames.items():
        assert got and all(
            not f.get("redacted") and f["event"]["type"].startswith("shadowjan.") for f in got
        ), (k, got)
