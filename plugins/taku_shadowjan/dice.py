"""Chat commands of シャドー・ジャン2: a line that is exactly one move, for the speaker's
character whose move it is (see docs/rulesets/shadowjan.md).

    着席 / 開始 / テンホー / カラテ [2,3] / ワザマエ [+N] / ニューロン / ベタオリ
    リーチ [相手] / ダマテン / ツモ カラテ|ワザマエ|ニューロン
    攻撃 近接|スリケン|ジツ|銃 相手 [ダイス] / 回避 [N]

The NinjaSlayer2 dice commands of :mod:`taku_nstrpg.dice` roll here too (``N4``,
``H3[S]``, ``SB``, ``WS8``, ``WSE``; ``S`` in front for a secret roll), since the game
is played on NSTRPG checks. Anything else is not ours (``None``): plain chat or the
generic dice.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any, Literal

from taku.core.ruleset import Context, Emitted
from taku.core.table import TableState, check_permit
from taku_nstrpg.dice import dice_chat
from taku_shadowjan import commands as c
from taku_shadowjan._flow import reject
from taku_shadowjan.decider import decide, waiting_for
from taku_shadowjan.options import SjOptions
from taku_shadowjan.state import SjGame

__all__ = ["chat", "parse"]

_STATS: dict[str, Literal["karate", "wazamae", "neuron"]] = {
    "カラテ": "karate",
    "ワザマエ": "wazamae",
    "ニューロン": "neuron",
    "KARATE": "karate",
    "WAZAMAE": "wazamae",
    "NEURON": "neuron",
}
_KINDS: dict[str, Literal["melee", "shuriken", "jitsu", "gun"]] = {
    "近接": "melee",
    "近接攻撃": "melee",
    "スリケン": "shuriken",
    "遠隔": "shuriken",
    "ジツ": "jitsu",
    "銃": "gun",
    "銃撃": "gun",
}


def _char_by_name(table: TableState, name: str) -> str | None:
    for cid, ch in table.characters.items():
        if ch.name == name or cid == name:
            return cid
    return None


def parse(
    text: str, table: TableState, actor: str | None, speaking_as: str | None = None
) -> Any | None:
    """The command a chat line stands for, or ``None`` when it is not a シャドー・ジャン command.

    The move is for ``speaking_as`` (a chat line spoken as a character), else for the
    speaker's character whose move it is, else for the speaker's first character.
    """
    t = unicodedata.normalize("NFKC", text).strip()
    words = t.split()
    if not words:
        return None
    head, rest = words[0].upper(), words[1:]
    game = table.game if isinstance(table.game, SjGame) else SjGame()
    mine = [cid for cid, ch in table.characters.items() if ch.owner == actor]
    who, _step = waiting_for(game)
    me = speaking_as or (who if who in mine else (mine[0] if mine else ""))
    if head in ("着席", "SIT") and not rest:
        free = [cid for cid in mine if cid not in game.players]
        return c.Sit(character_id=speaking_as or (free[0] if free else me))
    if head in ("開始", "START") and not rest:
        return c.Start()
    if head in ("テンホー", "テンホー・チーホー", "TENHO") and not rest:
        return c.Tenho(character_id=me)
    if head in ("カラテ", "ゴーモーパイ") and len(rest) <= 1:
        if rest:
            m = re.fullmatch(r"\[?(\d+(?:,\d+)*)\]?", rest[0])
            if not m:
                return None
            return c.Goumoupai(character_id=me, split=[int(x) for x in m[1].split(",")])
        return c.Goumoupai(character_id=me)
    if head in ("ワザマエ", "イカサマ") and len(rest) <= 1:
        if rest:
            m = re.fullmatch(r"\+?(\d+)", rest[0])
            if not m:
                return None
            return c.Ikasama(character_id=me, enhance=int(m[1]))
        return c.Ikasama(character_id=me)
    if head == "ニューロン" and not rest:
        return c.Neuron(character_id=me)
    if head == "ベタオリ" and not rest:
        return c.Betaori(character_id=me)
    if head == "リーチ" and len(rest) <= 1:
        target = _char_by_name(table, rest[0]) if rest else None
        if rest and target is None:
            return None
        return c.Declare(character_id=me, kind="riichi", stick_target=target)
    if head in ("ダマテン", "ダマ") and not rest:
        return c.Declare(character_id=me, kind="dama")
    if head == "ツモ" and len(rest) == 1 and rest[0].upper() in _STATS:
        return c.Tsumo(character_id=me, stat=_STATS[rest[0].upper()])
    if head == "攻撃" and len(rest) in (2, 3) and rest[0] in _KINDS:
        target = _char_by_name(table, rest[1])
        if target is None:
            return None
        if len(rest) == 3:
            if not rest[2].isdigit() or int(rest[2]) < 1:
                return None
            return c.Attack(
                character_id=me,
                kind=_KINDS[rest[0]],
                splits=[c.Split(target=target, dice=int(rest[2]))],
            )
        return c.Attack(character_id=me, kind=_KINDS[rest[0]], target=target)
    if head == "回避" and len(rest) <= 1:
        if rest and not rest[0].isdigit():
            return None
        return c.Evade(character_id=me, dice=int(rest[0]) if rest else 0)
    return None


def chat(text: str, table: TableState, ctx: Context[SjOptions]) -> list[Emitted] | None:
    """The events of a chat move (the same as its command, under the same declared
    ``permit``), or of a NinjaSlayer2 dice command (a ``dice_rolled`` event), or
    ``None``. The core handles the ``S`` (secret) prefix.

    Raises:
        Forbidden: ``command/forbidden`` for another player's character.
        InvalidCommand: ``command/unknown_character`` when the speaker has no character.
        Rejected: ``rule/shadowjan/<reason>`` as the command would.
    """
    cmd = parse(text, table, ctx.actor, ctx.character_id)
    if cmd is None:
        return dice_chat(text, ctx)
    if ctx.secret:
        # a move moves the hand for everyone: it cannot be hidden (the dice of a move are public)
        reject(
            "secret_move",
            "対局の手はシークレットにできません（Sを付けずに送ってください）",
            "シャドー・ジャン2 対局の進行",
        )
    check_permit(table, cmd, ctx)
    return decide(table, cmd, ctx)
