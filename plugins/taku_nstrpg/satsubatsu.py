"""The サツバツ! critical table and 痛打 (NSTRPG 2-13).

Pure data and functions: :data:`TABLE` has every row of the
サツバツ・クリティカル表 (NS-90), :func:`tsuda` picks the one 痛打 that applies
to a base damage (痛打 never stacks, NS-92; the largest is used, G-NS-05), and
:func:`critical_of` tells a check's faces apart into サツバツ! / ナムアミダブツ!
(NS-88, NS-89).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final, Literal

import msgspec

from taku_nstrpg.checks import NAMU_DEFAULT, SATSUBATSU_DEFAULT, Pattern

__all__ = [
    "NAMU",
    "CriticalEffect",
    "apply_row",
    "NONE",
    "SATSUBATSU",
    "TABLE",
    "SatsubatsuRow",
    "critical_of",
    "row",
    "tsuda",
]

Critical = Literal["", "satsubatsu", "namuamidabutsu"]
"""No critical, サツバツ! or ナムアミダブツ!"""
NONE: Final = ""
SATSUBATSU: Final = "satsubatsu"
"""サツバツ! (回避:NORMAL)."""
NAMU: Final = "namuamidabutsu"
"""ナムアミダブツ! (回避難易度+1)."""


class SatsubatsuRow(msgspec.Struct, frozen=True, kw_only=True):
    """One row of the サツバツ・クリティカル表.

    Attributes:
        number: the d6 face (1–6).
        name: the row's name (``"両腕破壊"``).
        tsuda: the row's 痛打 (0 for row 6, whose 痛打 is 2D6 on 即死耐性).
        ability_damage: attribute -> points, applied only if 体力 was reduced.
        injury: the ●部位損傷 part (``"頭部"`` …), or ``""``.
        knockback: 弾き飛ばし as an added effect (row 1).
        instant_death: 即死! (row 6).
        line: the shout and description.
        effect: the rule text of the row.
    """

    number: int
    name: str
    tsuda: int
    ability_damage: dict[str, int] = {}
    injury: str = ""
    knockback: bool = False
    instant_death: bool = False
    line: str = ""
    effect: str = ""


TABLE: tuple[SatsubatsuRow, ...] = (
    SatsubatsuRow(
        number=1,
        name="痛烈な一撃",
        tsuda=1,
        knockback=True,
        line="「イヤーッ!」腹部に強烈な一撃が命中! 敵はくの字に折れ曲がり、ワイヤーアクションめいて吹っ飛んだ!",
        effect="『痛打+1』。敵の【体力】を減らした場合、付属効果として『弾き飛ばし』を与える。",
    ),
    SatsubatsuRow(
        number=2,
        name="頭部痛打",
        tsuda=1,
        ability_damage={"neuron": 2, "wazamae": 1},
        injury="頭部",
        line="「観念してハイクを詠め!」頭部への痛烈なカラテが命中! 眼球破壊もしくは激しい脳震盪が敵を襲う!",
        effect="『痛打+1』。敵の【体力】を減らした場合、付属効果として『ニューロンダメージ2』と『ワザマエダメージ1』と『●部位損傷:頭部』を与える。",
    ),
    SatsubatsuRow(
        number=3,
        name="急所破壊",
        tsuda=1,
        ability_damage={"neuron": 1, "seishin": 2},
        injury="胴体",
        line="「苦しみ抜いて死ぬがいい!」急所や内臓を情け容赦なく破壊!",
        effect="『痛打+1』。敵の【体力】を減らした場合、付属効果として『ニューロンダメージ1』と『精神力ダメージ2』と『●部位損傷:胴体』を与える。",
    ),
    SatsubatsuRow(
        number=4,
        name="脚部破壊",
        tsuda=1,
        ability_damage={"karate": 1, "kyakuryoku": 2},
        injury="脚部",
        line="「どこへ逃げても無駄だ!」敵の脚を無慈悲に粉砕!",
        effect="『痛打+1』。敵の【体力】を減らした場合、付属効果として『カラテダメージ1』と『脚力ダメージ2』と『●部位損傷:脚部』を与える。",
    ),
    SatsubatsuRow(
        number=5,
        name="両腕破壊",
        tsuda=1,
        ability_damage={"karate": 2, "wazamae": 2},
        injury="腕部",
        line="「これで手も足も出まい!」敵の両腕をダブルチョップ切断! 傷口から鮮血がスプリンクラーめいて噴き出す!",
        effect="『痛打+1』。敵の【体力】を減らした場合、付属効果として『カラテダメージ2』と『ワザマエダメージ2』と『●部位損傷:腕部』を与える。",
    ),
    SatsubatsuRow(
        number=6,
        name="心臓破壊",
        tsuda=0,
        instant_death=True,
        line="「さらばだ! イイイヤアアアアーーーーッ!」ヤリめいたチョップが敵の胸を貫通! さらに心臓を掴み取り、握りつぶした! ゴウランガ!",
        effect="『即死!』。敵が『即死耐性』を持つ場合、この効果は『痛打+2D6』に置き換えられる。",
    ),
)
"""The サツバツ・クリティカル表, rows 1–6 (NS-90)."""


def row(number: int) -> SatsubatsuRow:
    """The row for a d6 face.

    Raises:
        ValueError: ``number`` is not 1–6.
    """
    if not 1 <= number <= 6:
        raise ValueError(f"the サツバツ table has rows 1-6, not {number}")
    return TABLE[number - 1]


def tsuda(sources: Iterable[int]) -> int:
    """The 痛打 that applies to one base damage: only one, the largest (NS-92, G-NS-05).

    >>> tsuda([1, 1])   # 強攻撃 and table row 2: still +1
    1
    """
    return max((s for s in sources if s > 0), default=0)


def critical_of(
    faces: Sequence[int],
    *,
    success: bool,
    satsubatsu: Pattern | None = SATSUBATSU_DEFAULT,
    namu: Pattern | None = NAMU_DEFAULT,
) -> Critical:
    """Which critical a melee check's faces give: ``NAMU``, ``SATSUBATSU`` or ``NONE``.

    Args:
        faces: the attack's faces.
        success: whether the check succeeded; a failed check has no critical (G-NS-04).
        satsubatsu: the サツバツ! pattern (【6,6】; 【6,6,6】 for 精密攻撃); ``None``
            when the attack cannot cause one (shooting, a non-ninja attacker).
        namu: the ナムアミダブツ! pattern (【6,6,6】; 【6,6,6,6】 for 精密攻撃). It
            needs the サツバツ! too (NS-89).
    """
    if not success or satsubatsu is None or not satsubatsu.matches(faces):
        return NONE
    if namu is not None and namu.matches(faces):
        return NAMU
    return SATSUBATSU


class CriticalEffect(msgspec.Struct, frozen=True, kw_only=True):
    """What an undodged サツバツ! row does to a hit (before ダメージ軽減).

    Attributes:
        tsuda: the one 痛打 that applies (with the hit's others, the largest).
        instant_death: 即死! (no 即死耐性).
        ability_damage, injury, knockback: the added effects, if 体力 goes down.
    """

    tsuda: int
    instant_death: bool = False
    ability_damage: dict[str, int] = {}
    injury: str = ""
    knockback: bool = False


def apply_row(
    number: int, *, other_tsuda: Iterable[int] = (), resistance: bool = False, death_roll: int = 0
) -> CriticalEffect:
    """A サツバツ! row applied to a hit that already has ``other_tsuda`` (強攻撃 …).

    Row 6 is 即死!, or 痛打+``death_roll`` (2D6) against 即死耐性 (NS-94).
    """
    r = row(number)
    sources = [*other_tsuda, r.tsuda]
    if r.instant_death and resistance:
        sources.append(death_roll)
    return CriticalEffect(
        tsuda=tsuda(sources),
        instant_death=r.instant_death and not resistance,
        ability_damage=dict(r.ability_damage),
        injury=r.injury,
        knockback=r.knockback,
    )
