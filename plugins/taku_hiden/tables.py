"""The chapter's tables and helper arithmetic (秘伝の声 五ノ二, 五ノ七), pure functions.

Everything here is data or arithmetic on it: the difficulty table, the
《跳躍》 and 《持ち上げ》 helpers, the visibility, fatigue and drink modifiers,
and the 発作 / 不治の病 difficulties. The decider wraps them in commands
(``hiden.jump`` …) whose events record the numbers, and clients read the
tables from the table state's ``game.tables``.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Literal, get_args

__all__ = [
    "DIFFICULTY_TABLE",
    "DRINK",
    "FATIGUE",
    "JUMP",
    "KAN_KG",
    "KEN_SHAKU",
    "JO_SHAKU",
    "LIFT_BASE_KAN",
    "SEIZURE",
    "SEIZURE_TRAITS",
    "ConditionKey",
    "ConditionName",
    "SeizureTrait",
    "SituationKey",
    "SituationName",
    "VisibilityName",
    "VISIBILITY",
    "fatigue_modifier",
    "jump_difficulty",
    "lift_difficulty",
    "lookup",
    "seizure_difficulty",
    "simple_target",
    "tables",
    "to_shaku",
    "visibility_modifier",
]

# --------------------------------------------------------------------------- 五ノ二 難易度

DIFFICULTY_TABLE: tuple[tuple[int, str], ...] = (
    (-3, "とても容易な行動。一般人でもできる。"),
    (-2, "容易な行動。不得意な行動でも五分五分。"),
    (-1, "容易だが、気を抜くと失敗する。"),
    (0, "一般人には五分五分。"),
    (1, "少しかじった程度なら何とかできる。"),
    (2, "少しかじった程度で五分五分。"),
    (3, "熟練者なら楽勝。初級者では失敗が多い。"),
    (4, "初級者ではむずかしい。"),
    (5, "ある程度の熟練が必要。"),
    (6, "熟練した者でも気は抜けない。"),
    (7, "熟練者でも五分五分。"),
    (8, "熟練者でも失敗が多い。達人の域。"),
    (9, "その道の達人ならばなんとかできる。"),
    (10, "名人の域。"),
)
"""五ノ二 「難易度の程度」: (difficulty, description), −3 … 10 (HD-07)."""

SIMPLE_TARGET_OFFSET = 7


def simple_target(difficulty: int) -> int:
    """The 簡易目標値: difficulty + 7 (五ノ二; HD-07). Outside −3…10 it extends linearly (G-HD-11)."""
    return difficulty + SIMPLE_TARGET_OFFSET


# --------------------------------------------------------------------------- 五ノ七 《跳躍》

KEN_SHAKU = 6
"""1 間 = 6 尺 (五ノ七: "3間(=18尺)")."""
JO_SHAKU = 10
"""1 丈 = 10 尺 (五ノ七: "1丈(=10尺)")."""

JumpKind = Literal["high", "long"]

JUMP: dict[str, dict[str, int]] = {
    "high": {"standing": 2, "run_up": 3, "unit": 1},
    "long": {"standing": 5, "run_up": 6, "unit": 2},
}
"""五ノ七 《跳躍》: the 尺 at difficulty 0 without / with a run-up, and the 尺 per +1 (HD-15)."""


def to_shaku(
    *, ken: Fraction | int = 0, jo: Fraction | int = 0, shaku: Fraction | int = 0
) -> Fraction:
    """A distance in 尺 from 間, 丈 and 尺 (1 間 = 6 尺, 1 丈 = 10 尺)."""
    return Fraction(ken) * KEN_SHAKU + Fraction(jo) * JO_SHAKU + Fraction(shaku)


def jump_difficulty(
    kind: JumpKind, run_up: bool, distance_shaku: Fraction, *, rounding: str = "up"
) -> int:
    """The 《跳躍》 difficulty of a jump (五ノ七; HD-15).

    ``(distance − base) / unit`` where base is the difficulty-0 distance of the
    table (2/3 尺 high, 5/6 尺 long) and unit 1 尺 (high) or 2 尺 (long). A part
    unit counts as a whole one with ``rounding="up"`` (G-HD-05), else it drops.
    The book's 3 間 run-up example says 5; the table gives 6 (G-HD-04).
    """
    row = JUMP[kind]
    base = row["run_up" if run_up else "standing"]
    steps = (Fraction(distance_shaku) - base) / row["unit"]
    return math.ceil(steps) if rounding == "up" else math.floor(steps)


# --------------------------------------------------------------------------- 五ノ七 《持ち上げ》

KAN_KG = Fraction(15, 4)
"""1 貫 = 3.75 kg (五ノ七: "15貫(56.25キロ)")."""
LIFT_BASE_KAN = 15
"""15 貫 is difficulty 0 (五ノ七)."""


def lift_difficulty(kan: Fraction) -> int:
    """The 《持ち上げ》 difficulty: whole 貫 (fraction dropped) − 15 (五ノ七; HD-16)."""
    return math.floor(Fraction(kan)) - LIFT_BASE_KAN


# --------------------------------------------------------------------------- 五ノ七 視界の修正

VISIBILITY: dict[str, tuple[str, int]] = {
    "淡い霧": ("淡い霧が出ている", 4),
    "濃い霧": ("濃い霧が出ている", 6),
    "霧雨": ("霧雨が降っている", 3),
    "どしゃ降り": ("どしゃ降り", 7),
    "満月": ("月夜 (満月)", 2),
    "半月": ("月夜 (半月)", 4),
    "星夜": ("星が出ている夜", 6),
    "闇夜": ("闇夜", 8),
    "雨夜": ("雨が降っている夜", 10),
}
"""五ノ七 視界の修正: key -> (the book's wording, difficulty modifier) (HD-17)."""


VisibilityName = Literal[
    "淡い霧", "濃い霧", "霧雨", "どしゃ降り", "満月", "半月", "星夜", "闇夜", "雨夜",
    "淡い霧が出ている", "濃い霧が出ている", "霧雨が降っている", "月夜 (満月)", "月夜 (半月)", "星が出ている夜", "雨が降っている夜",
]  # fmt: skip
"""A 視界の修正 condition: a key of :data:`VISIBILITY` or the book's wording."""


def visibility_modifier(modifiers: list[int], anshi_level: int) -> tuple[list[int], int]:
    """Apply 〈暗視〉 to visibility modifiers (五ノ七; HD-17).

    〈暗視〉 cancels at most its level in all, and never more than a modifier
    itself ("淡い霧" 4 with 〈暗視〉 10 cancels 4). Returns the cancelled amount
    per modifier (in order) and the remaining total.
    """
    budget = max(0, anshi_level)
    cancelled = []
    for m in modifiers:
        c = min(budget, max(0, m))
        cancelled.append(c)
        budget -= c
    return cancelled, sum(modifiers) - sum(cancelled)


# --------------------------------------------------------------------------- 五ノ七 疲労などによる修正

FATIGUE: dict[str, tuple[str, int]] = {
    "食事抜き": ("前のご飯をぬいた", 2),
    "絶食": ("丸一日なにも食べていない", 5),
    "働きづめ": ("一日働きづめに働いた", 3),
    "徹夜": ("前の晩徹夜した", 6),
}
"""五ノ七 疲労などによる修正, hunger and fatigue: key -> (wording, modifier) (HD-18)."""

DRINK: dict[str, tuple[str, int]] = {
    "晩酌程度": ("晩酌程度", 1),
    "ゆっくり飲んだ": ("ゆっくり飲んだ", 5),
    "浴びるほど飲んだ": ("浴びるほど飲んだ", 10),
}
"""五ノ七 the drink modifiers ("最後の三つ"), reduced by 酒の耐性 (HD-18, HD-19)."""


ConditionKey = Literal[
    "食事抜き", "絶食", "働きづめ", "徹夜", "晩酌程度", "ゆっくり飲んだ", "浴びるほど飲んだ"
]
"""A 疲労などによる修正 condition as stored: a key of :data:`FATIGUE` or :data:`DRINK`."""

ConditionName = Literal[
    "食事抜き", "絶食", "働きづめ", "徹夜", "晩酌程度", "ゆっくり飲んだ", "浴びるほど飲んだ",
    "前のご飯をぬいた", "丸一日なにも食べていない", "一日働きづめに働いた", "前の晩徹夜した",
]  # fmt: skip
"""A condition as a command names it: a key or the book's wording."""


def fatigue_modifier(key: str, sake_tolerance: int = 0) -> int:
    """One fatigue / hunger / drink modifier (五ノ七; HD-18, HD-19).

    A drink modifier is lowered by the CP of 酒の耐性, never below 0
    ("酒の耐性" 5 after 晩酌程度: 1 − 5 → 0, not −4).
    """
    if key in DRINK:
        return max(0, DRINK[key][1] - max(0, sake_tolerance))
    return FATIGUE[key][1]


# --------------------------------------------------------------------------- 五ノ七 発作 / 不治の病

SEIZURE_TRAITS = ("発作", "不治の病")
SeizureTrait = Literal["発作", "不治の病"]

SEIZURE: dict[str, tuple[str, int, int]] = {
    "雑魚戦闘": ("雑魚戦闘", -6, -4),
    "親玉戦闘": ("親玉戦闘の対峙", -2, 0),
    "軽い緊張": ("軽い緊張", -4, -2),
    "普通の緊張": ("普通の緊張", 0, 2),
    "強い緊張": ("強い緊張", 2, 4),
    "失敗は許されない": ("絶対に失敗は許されない", 5, 7),
}
"""五ノ七: situation -> (wording, 発作 difficulty, 不治の病 difficulty) (HD-21)."""

SituationKey = Literal[
    "雑魚戦闘", "親玉戦闘", "軽い緊張", "普通の緊張", "強い緊張", "失敗は許されない"
]
"""A situation of the 発作 / 不治の病 table as stored: a key of :data:`SEIZURE`."""

SituationName = Literal[
    "雑魚戦闘", "親玉戦闘", "軽い緊張", "普通の緊張", "強い緊張", "失敗は許されない", "親玉戦闘の対峙", "絶対に失敗は許されない"
]  # fmt: skip
"""A situation as a command names it: a key or the book's wording."""

COMBAT_SITUATIONS = ("雑魚戦闘", "親玉戦闘")
"""Situations in combat: the 〈気合い〉 check is made every turn (HD-21)."""


def seizure_difficulty(trait: str, situation: str) -> int:
    """The 〈気合い〉 difficulty for a character with 発作 or 不治の病 (五ノ七; HD-21)."""
    _, hossa, fuji = SEIZURE[situation]
    return hossa if trait == "発作" else fuji


# --------------------------------------------------------------------------- lookup


def lookup(
    table: dict[str, tuple[str, int]] | dict[str, tuple[str, int, int]], key: str
) -> str | None:
    """The key of ``table`` that ``key`` names, by key or by the book's wording."""
    if key in table:
        return key
    for k, row in table.items():
        if row[0] == key:
            return k
    return None


def _names(table: dict[str, tuple[str, int]] | dict[str, tuple[str, int, int]]) -> set[str]:
    return {*table, *(row[0] for row in table.values())}


# the closed sets above are the tables' own keys and wordings
assert set(get_args(VisibilityName)) == _names(VISIBILITY)
assert set(get_args(ConditionKey)) == {*FATIGUE, *DRINK}
assert set(get_args(ConditionName)) == _names(FATIGUE) | _names(DRINK)
assert set(get_args(SituationKey)) == set(SEIZURE)
assert set(get_args(SituationName)) == _names(SEIZURE)
assert get_args(SeizureTrait) == SEIZURE_TRAITS


def tables() -> dict[str, object]:
    """All the chapter's tables as JSON data, for clients (``game.tables``)."""
    return {
        "difficulty": [
            {"difficulty": d, "simple_target": simple_target(d), "description": text}
            for d, text in DIFFICULTY_TABLE
        ],
        "jump": {k: dict(v) for k, v in JUMP.items()},
        "units": {
            "間": KEN_SHAKU,
            "丈": JO_SHAKU,
            "貫_kg": float(KAN_KG),
            "lift_base_kan": LIFT_BASE_KAN,
        },
        "visibility": [{"key": k, "label": v[0], "modifier": v[1]} for k, v in VISIBILITY.items()],
        "fatigue": [
            {"key": k, "label": v[0], "modifier": v[1], "drink": False} for k, v in FATIGUE.items()
        ]
        + [{"key": k, "label": v[0], "modifier": v[1], "drink": True} for k, v in DRINK.items()],
        "seizure": [
            {
                "key": k,
                "label": v[0],
                "発作": v[1],
                "不治の病": v[2],
                "combat": k in COMBAT_SITUATIONS,
            }
            for k, v in SEIZURE.items()
        ],
    }
