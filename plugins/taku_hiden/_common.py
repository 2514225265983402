"""Shared by the decider and the helpers: error codes, sections, sheet lookups."""

from __future__ import annotations

from typing import Any

import msgspec

from taku.core import kit
from taku.core.ruleset import Context
from taku.core.table import TableState
from taku.errors import Forbidden
from taku_hiden import tables as T
from taku_hiden.state import HidenSheet, HidenState, strip_brackets

__all__ = [
    "ERRORS",
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


_reject = kit.rejecter(RULESET_ID)
"""``_reject(reason, message, section)``: raise ``rule/hiden/<reason>`` (every reason is in ``ERRORS``)."""

ERRORS: dict[str, str] = {
    "ability_required": "判定に使う〈能力値〉が指定されていない（《技能》と使うとき、能力値だけの判定のとき）",
    "unknown_ability": "個人設定用紙にない〈能力値〉",
    "tokugi_fixed_ability": "《特技》は決められた対応能力値でしか判定できない",
    "unknown_trait": "個人設定用紙にない特徴",
    "trait_value_required": "キャラクターのいない判定の特徴には修正値が要る",
    "trait_over_cp": "容貌・声・内気の修正は消費CPを超えられない",
    "gm_chooses_traits": "判定に関係する特徴はGMが選ぶ",
    "unknown_check": "その判定はない（または閉じた）",
    "not_opposable": "目標値のない判定値だけが対抗判定の目標値になる",
    "zabuton_reroll_off": "この卓では座布団で振り直さない",
    "no_open_check": "座布団で振り直せる判定がない",
    "no_character": "キャラクターのいない判定は座布団で振り直せない",
    "not_in_check": "そのキャラクターはその判定をしていない",
    "which_side": "対抗判定のどちらの側の座布団か指定が要る",
    "no_zabuton": "座布団を持っていない",
    "conversion_off": "この卓では座布団をCPに変換しない",
    "nothing_to_convert": "変換する座布団がない",
    "no_distance": "跳ぶ距離が指定されていない",
    "kan_or_kg": "重さは貫かキロのどちらか一方で指定する",
    "no_weight": "持ち上げる物の重さが指定されていない",
    "unknown_visibility": "視界の修正の表にない条件",
    "unknown_condition": "疲労などによる修正の表にない状態",
    "unknown_situation": "発作の難易度表にない状況",
    "unknown_seizure_trait": "特徴は発作か不治の病",
    "no_seizure_trait": "発作も不治の病も持たないキャラクター",
}
"""Every ``rule/hiden/<reason>`` the ruleset raises, with its Japanese meaning (``Ruleset.errors``)."""


def _require_control(table: TableState, ctx: Context[Any], character_id: str) -> None:
    """A check that names characters in nested fields (both sides of an 対抗判定): the sender
    must control each (the core's permit covers only a top-level field).

    Raises:
        InvalidCommand: ``command/unknown_character``.
        Forbidden: ``command/forbidden`` when the character is another member's.
    """
    ch = kit.character(table, character_id)
    if not ctx.controls(table, character_id):
        raise Forbidden(
            f"{character_id} is not the sender's",
            role=ctx.role,
            reason=f"{ch.name}はあなたのキャラクターではありません",
        )


def _require_gm(ctx: Context[Any], reason: str) -> None:
    """Raises ``command/forbidden`` unless the sender is a GM (a rule beyond the command's permit)."""
    if not ctx.is_gm:
        raise Forbidden("GM only", role=ctx.role, reason=reason)


def _game(table: TableState) -> HidenState:
    return table.game if isinstance(table.game, HidenState) else HidenState()


def _sheet(table: TableState, character_id: str) -> HidenSheet:
    """The character's sheet (``command/unknown_character`` when there is none)."""
    return msgspec.convert(kit.character(table, character_id).sheet, HidenSheet)


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
