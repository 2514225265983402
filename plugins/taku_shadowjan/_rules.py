"""Pure rules of シャドー・ジャン2 that need no state: the scoring tables, the equipment
restrictions, the knock-out split, the ニンジャ殺すべし test and the seat order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from taku_nstrpg.state import NsSheet

__all__ = [
    "CHOMBO",
    "RON",
    "TSUMO",
    "chombo_deltas",
    "equipment_problem",
    "ninja_slayer_triggers",
    "ron_deltas",
    "split_points",
    "tsumo_deltas",
]

TSUMO: dict[str, dict[int, int]] = {
    "tenho": {4: 16000, 3: 24000, 2: 48000},  # ヤクマン (テンホー・チーホー)
    "riichi": {4: 6000, 3: 9000, 2: 18000},  # ハネマン
    "dama": {4: 4000, 3: 6000, 2: 12000},  # マンガン
}
"""SJ-30: what EACH remaining opponent pays on a ツモ, by players remaining (◆得点の獲得)."""
RON: dict[str, int] = {"riichi": 18000, "dama": 12000}
"""SJ-31: what the ron'd player alone pays."""
CHOMBO: dict[int, int] = {4: 4000, 3: 6000, 2: 12000}
"""SJ-32: what the offender pays EACH other remaining player."""


def tsumo_deltas(
    winner: str, remaining: Sequence[str], kind: str, multiplier: int = 1
) -> dict[str, int]:
    """SJ-30, G-SJ-15/16: every other remaining player pays the row for the number remaining."""
    each = TSUMO[kind][len(remaining)] * multiplier
    out = {c: -each for c in remaining if c != winner}
    out[winner] = each * len(out)
    return out


def ron_deltas(winner: str, payer: str, kind: str, multiplier: int = 1) -> dict[str, int]:
    """SJ-31: the ron'd player pays ハネマン 18000 (リーチ) or マンガン 12000 (ダマテン)."""
    amount = RON[kind] * multiplier
    return {winner: amount, payer: -amount}


def chombo_deltas(offender: str, remaining: Sequence[str], multiplier: int = 1) -> dict[str, int]:
    """SJ-32: the offender pays each other remaining player 4000 / 6000 / 12000."""
    each = CHOMBO[len(remaining)] * multiplier
    out = {c: each for c in remaining if c != offender}
    out[offender] = -each * len(out)
    return out


def split_points(points: int, survivors: Sequence[str]) -> dict[str, int]:
    """SJ-34, G-SJ-12: equal shares, each rounded down to a multiple of 1000 (the hundreds
    and below cut); nothing is shared from a score of 0 or less."""
    if points <= 0 or not survivors:
        return {c: 0 for c in survivors}
    share = points // len(survivors) // 1000 * 1000
    return {c: share for c in survivors}


def ninja_slayer_triggers(face: int | None, score: int) -> bool:
    """SJ-28, G-SJ-14: the 1d6 exceeds score / 1000 (real numbers); automatic below 0."""
    if score < 0:
        return True
    assert face is not None, "a score of 0 or more needs the 1d6"
    return face * 1000 > score


_MOVEMENT = ("連続側転", "キリングマシーン", "移動")


def is_bio(weapon_id: str, name: str) -> bool:
    """A bio-cyber weapon (usable for melee only, 基本ルール): its id starts ``bio`` or its name says バイオ."""
    return weapon_id.startswith("bio") or "バイオ" in name


def equipment_problem(sheet: NsSheet) -> str | None:
    """Why a character may not sit at the table, or ``None`` (SJ-02, 基本ルール).

    No melee weapons and no cyber weapons (bio-cyber for melee only); guns may be
    carried for the ロン回避判定 only; no movement skills (連続側転, キリングマシーン …).
    """
    for w in sheet.carried():
        if w.kind == "melee" and not is_bio(w.id, w.name):
            return f"近接武器・サイバネ武器({w.name})は使用禁止"
        if w.kind == "shuriken" and w.id != "shuriken":
            return f"遠隔武器({w.name})は使用禁止"
    eq = sheet.weapon()
    if eq is not None and eq.kind != "melee" and eq.id != "shuriken":
        return f"{eq.name} を構えて卓にはつけない"
    for s in sheet.skills:
        if any(m in s for m in _MOVEMENT):
            return f"移動スキル({s})は使用不可"
    return None


def rank(scores: Mapping[str, int], out: Mapping[str, bool], seats: Sequence[str]) -> list[str]:
    """Highest score first; knocked-out players after the survivors; ties by seat order."""
    pos = {c: i for i, c in enumerate(seats)}
    return sorted(scores, key=lambda c: (out.get(c, False), -scores[c], pos.get(c, 99)))


__all__ += ["is_bio", "rank"]
