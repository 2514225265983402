"""DKK, the Wasshoi! check, the 死神のエントリー決定表 and Ninja Slayer himself (NSTRPG 2-15).

Pure data and functions: :func:`wasshoi` reads a 2D6 against the highest
【DKK】 present (NS-97, NS-98), :data:`ENTRY_TABLE` has the six entries (NS-99),
:data:`DKK_GUIDE` the gain guideline (NS-25) and :data:`NINJA_SLAYER` his
stat block as a sheet (NS-102).
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

__all__ = [
    "DKK_GUIDE",
    "DKK_MAX",
    "ENTRY_TABLE",
    "NINJA_SLAYER",
    "DkkGuide",
    "EntryRow",
    "clamp_dkk",
    "d3",
    "hate_bonus",
    "wasshoi",
    "wasshoi_target",
]

DKK_MAX = 12
"""【DKK】 never exceeds 12 (NS-25)."""


def clamp_dkk(value: int) -> int:
    """【DKK】 kept within 0..12."""
    return max(0, min(DKK_MAX, value))


def d3(face: int) -> int:
    """A D3 read from a d6: ceil(face / 2) (G-NS-16)."""
    return (face + 1) // 2


def hate_bonus(dots: int) -> int:
    """◉◉憎悪:ニンジャソウルの闇: +2 dice per ◉ of the single target's ニンジャソウルの闇
    and the skills that need it (NS-105, NS-EX-31: 3 + 1 ◉ give 8). Pass it as ``bonus_dice``."""
    return 2 * max(dots, 0)


def wasshoi_target(dkk_values: Iterable[int]) -> int:
    """The Wasshoi! target: the highest 【DKK】 among the ninjas present (0 when none)."""
    return max(dkk_values, default=0)


def wasshoi(total: int, target: int) -> bool:
    """Wasshoi! succeeds (Ninja Slayer enters) when the 2D6 total is at most the target (NS-98)."""
    return total <= target


class EntryRow(msgspec.Struct, frozen=True, kw_only=True):
    """One row of the 死神のエントリー決定表 (NS-99)."""

    number: int
    title: str
    placement: str
    sokuten_penalty: int = 0
    """連続側転判定 difficulty added to every ninja with 【DKK】 1+ until the next turn ends."""


ENTRY_TABLE: tuple[EntryRow, ...] = (
    EntryRow(
        number=1,
        title="高所からの回転着地! タタミ四枚の距離で睨み合った!",
        placement="標的ニンジャから3または4マス離れた任意のマスに、【殺】コマを置くこと。",
    ),
    EntryRow(
        number=2,
        title="ドアを蹴破って出現!",
        placement="標的ニンジャがいる部屋の任意のドアの隣に【殺】コマを置くこと。なお、ドアにあらかじめ鍵をかけるなどの行為は全て無駄である。",
    ),
    EntryRow(
        number=3,
        title="KRAAAAASH! 窓を突き破り出現!",
        placement="標的ニンジャがいる部屋の任意の窓の隣に【殺】コマを置くこと。【殺】コマが隣接している間、その窓は脱出用として使用できなくなる。",
    ),
    EntryRow(
        number=4,
        title="天井破壊や床破砕、または垂直リフト射出により出現!",
        placement="標的ニンジャから2マス離れた任意の場所に【殺】コマを置くこと。",
        sokuten_penalty=1,
    ),
    EntryRow(
        number=5,
        title="冷蔵庫や金庫から突如出現!",
        placement="標的ニンジャから最も近いトレジャーボックス1個(もしくは適切な障害物や爆発物)の隣に【殺】コマを置くこと。",
        sokuten_penalty=1,
    ),
    EntryRow(
        number=6,
        title="「行き先はジゴクですよ」",
        placement="マップ上にいるNPC1人(標的ニンジャから最も近くにいる者)が、実はニンジャスレイヤーの変装であった。そのNPCのコマを【殺】に変更せよ。",
        sokuten_penalty=2,
    ),
)
"""死神のエントリー決定表 (D6)."""


class DkkGuide(msgspec.Struct, frozen=True, kw_only=True):
    """A line of the DKK gain guideline (GM helper, NS-25): ``dice`` is ``""``, ``"D3"``, ``"2D3"`` or ``"2D6"``."""

    id: str
    text: str
    fixed: int = 0
    dice: str = ""


DKK_GUIDE: dict[str, DkkGuide] = {
    g.id: g
    for g in (
        DkkGuide(id="kill", text="【カルマ:善】のNPCを殺害/拷問/金品強奪", fixed=1),
        DkkGuide(id="kill_satsubatsu", text="【カルマ:善】のNPCを『サツバツ!』で殺害", dice="D3"),
        DkkGuide(id="vip_torture", text="【カルマ:善】の重要NPCを拷問/部位損傷させる", dice="D3"),
        DkkGuide(id="vip_kill", text="【カルマ:善】の重要NPCを殺害/気絶させる", dice="2D3"),
        DkkGuide(
            id="vip_instant_death", text="【カルマ:善】の重要NPCを『即死!』させる", dice="2D6"
        ),
    )
}

NINJA_SLAYER: dict[str, object] = {
    "kind": "boss",
    "ninja": True,
    "karate": 13,
    "neuron": 7,
    "wazamae": 10,
    "jitsu": 0,
    "tairyoku": 13,
    "seishin": 9,
    "kyakuryoku": 7,
    "manken": 10,
    "evasion": 14,  # printed 回避 14 (G-NS-19)
    "instant_death_resistance": True,
    "evasion_modifiers": {"melee": -1, "shuriken": -1},
    "weapons": [
        {
            "id": "ns_fists",
            "name": "素手(ニンジャスレイヤー)",
            "kind": "melee",
            "slots": 0,
            "tsuda_on_six": 1,
        },
    ],
    "equipped": "ns_fists",
    "skills": [
        "●連続攻撃3",
        "●連射2",
        "●時間差",
        "●マルチターゲット",
        "◉ランスキック",
        "◉◉憎悪:ニンジャソウルの闇",
        "◉ヘルタツマキ",
        "◉ツヨイ・スリケン",
        "◉ナラク・ウィズイン",
        "●即死耐性",
    ],
    "notes": "装備:家族の写真、パーソナルメンポ、伝統的ニンジャ装束",
}
"""Ninja Slayer's stat block (NS-102) as a character sheet: create him with ``nstrpg.create_ninja_slayer``."""
