"""Shared by the decider and the helpers: error codes, sections, sheet lookups."""

from __future__ import annotations

from typing import Any, NoReturn

import msgspec

from taku.core.ruleset import Context
from taku.core.table import TableState
from taku.errors import InvalidCommand, Rejected
from taku_hiden import tables as T
from taku_hiden.options import DEFAULT_OPTIONS, HidenOptions
from taku_hiden.state import HidenSheet, HidenState, strip_brackets

__all__ = [
    "RULESET_ID",
    "SOCIAL_TRAITS",
    "S_CHECK",
    "S_DIFFICULTY",
    "S_OPPOSED",
    "S_TRAITS",
    "S_VARIOUS",
    "S_ZABUTON",
]

RULESET_ID = "hiden"

S_CHECK = "秘伝の声 五ノ一 行動判定の方法"
S_DIFFICULTY = "秘伝の声 五ノ二 行動の難易度"
S_TRAITS = "秘伝の声 五ノ四 特徴による修正"
S_ZABUTON = "秘伝の声 五ノ五 座布団"
S_OPPOSED = "秘伝の声 五ノ六 対抗判定"
S_VARIOUS = "秘伝の声 五ノ七 さまざまな判定"

SOCIAL_TRAITS = ("容貌", "声", "内気")
"""Traits whose effect on social checks is at most their CP (五ノ七 特徴・性格と対人行為; HD-20)."""


def _reject(reason: str, message: str, section: str) -> NoReturn:
    raise Rejected(RULESET_ID, reason, message, section=section)


def _options(ctx: Context) -> HidenOptions:
    return ctx.options if isinstance(ctx.options, HidenOptions) else DEFAULT_OPTIONS


def _game(table: TableState) -> HidenState:
    return table.game if isinstance(table.game, HidenState) else HidenState()


def _sheet(table: TableState, character_id: str) -> HidenSheet:
    ch = table.characters.get(character_id)
    if ch is None:
        raise InvalidCommand(f"no character {character_id!r}", code="command/unknown_character")
    return msgspec.convert(ch.sheet, HidenSheet)


def _find(named: dict[str, Any], name: str) -> tuple[str, Any] | None:
    """``named[name]`` where keys and name compare without 〈〉《》 brackets."""
    want = strip_brackets(name)
    for k, v in named.items():
        if strip_brackets(k) == want:
            return strip_brackets(k), v
    return None


def _sake_tolerance(sheet: HidenSheet | None) -> int:
    found = _find(sheet.traits, "酒の耐性") if sheet else None
    return max(0, found[1].cp) if found else 0


def _anshi_level(sheet: HidenSheet | None) -> int:
    """〈暗視〉: a 《特技》 level, else a trait's level (or CP), else an ability or 《技能》 of that name (G-HD-09)."""
    if sheet is None:
        return 0
    if found := _find(sheet.tokugi, "暗視"):
        return found[1].level
    if found := _find(sheet.traits, "暗視"):
        t = found[1]
        return t.level if t.level is not None else max(0, t.cp)
    # written 〈暗視〉 in the text, so a sheet may keep it as an ability or a 《技能》 level
    if found := _find(sheet.abilities, "暗視"):
        return max(0, found[1])
    if found := _find(sheet.skills, "暗視"):
        return found[1]
    return 0


def _optional_sheet(table: TableState, character_id: str | None) -> HidenSheet | None:
    return _sheet(table, character_id) if character_id is not None else None


def _condition_label(key: str) -> str:
    return (T.FATIGUE.get(key) or T.DRINK[key])[0]
