"""Landing a hit: 痛打, the サツバツ! table, ダメージ軽減 and the damage's results (NSTRPG 2-12, 2-13)."""

from __future__ import annotations

from taku.core.ruleset import Context
from taku.core.table import TableState
from taku_nstrpg import damage as dmg
from taku_nstrpg import satsubatsu as sb
from taku_nstrpg._evolve import sheet_of
from taku_nstrpg.events import DamageResolved
from taku_nstrpg.options import NsOptions
from taku_nstrpg.state import Hit, NsGame, current

__all__ = ["NARAKU", "resolve_hit"]

NARAKU = "◉ナラク・ウィズイン"
"""Ninja Slayer's skill: no 爆発四散, and no カイシャク while he lies fainted (NS-106)."""


def resolve_hit(
    table: TableState, game: NsGame, hit: Hit, ctx: Context, opts: NsOptions, *, note: str = ""
) -> DamageResolved:
    """The ``damage_resolved`` event of an undodged ``hit``; rolls the サツバツ! d6 (and 2D6) when needed.

    Order (G-NS-06): base damage + the one 痛打 (NS-92), − ダメージ軽減 (NS-95), then
    :func:`taku_nstrpg.damage.resolve_damage`. A mob hit by サツバツ! is removed
    when ``mob_crit_autoremove`` is on (G-NS-29).
    """
    target_sheet = sheet_of(table.characters[hit.target].sheet)
    f = game.fighters[hit.target]
    base = hit.damage
    sources = [hit.tsuda]
    if hit.tsuda_on_six and 6 in hit.faces:
        sources.append(hit.tsuda_on_six)  # Ninja Slayer: a hit with a 【6】 is 痛打+1 (NS-102)
    table_roll = None
    death_roll = None
    row_n = 0
    instant = False
    ability: dict[str, int] = {}
    injury = ""
    knock = False
    if hit.critical:
        table_roll = ctx.dice.roll(1, 6)
        row = sb.row(table_roll.faces[0])
        row_n = row.number
        sources.append(row.tsuda)
        ability = dict(row.ability_damage)
        injury = row.injury
        knock = row.knockback
        if row.instant_death:
            if target_sheet.instant_death_resistance:
                death_roll = ctx.dice.roll(2, 6)  # 即死耐性: 痛打+2D6 instead (NS-94)
                sources.append(death_roll.total)
            else:
                instant = True
    tsuda = 0 if hit.no_tsuda else sb.tsuda(sources)
    reduction = target_sheet.damage_reduction
    amount = dmg.final_damage(base, tsuda, reduction)
    out = dmg.resolve_damage(
        kind=target_sheet.kind,
        ninja=target_sheet.is_ninja,
        tairyoku=f.tairyoku,
        seishin=f.seishin,
        status=f.status,
        amount=amount,
        ability_damage=ability,
        injury=injury,
        instant_death=instant,
    )
    knockback = 0
    if knock and out.reduced and out.status not in (dmg.EXPLODED, dmg.DEAD, dmg.REMOVED):
        # 弾き飛ばし: the attacker's カラテ for カラテ/脚力 checks, else the damage before reduction (NS-93)
        if hit.stat in ("karate", "kyakuryoku"):
            attacker = hit.attacker
            if attacker is not None and attacker in table.characters:
                knockback = current(
                    sheet_of(table.characters[attacker].sheet),
                    game.fighters.get(attacker),
                    "karate",
                )
            else:
                knockback = hit.attacker_karate
        else:
            knockback = base + tsuda
    status = out.status
    if status == dmg.EXPLODED and NARAKU in target_sheet.skills:
        # ◉ナラク・ウィズイン: at 体力 0 or less he does not explode but lies in a special 気絶 (NS-106)
        status = dmg.FAINTED
    crit_removed = False
    if (
        hit.critical
        and target_sheet.kind == "mob"
        and opts.mob_crit_autoremove
        and status != dmg.DEAD
    ):
        status, crit_removed = dmg.REMOVED, True
    return DamageResolved(
        target=hit.target,
        source=hit.attacker,
        hit_id=hit.id,
        base=base,
        tsuda=tsuda,
        reduction=reduction,
        amount=amount,
        critical=hit.critical,
        table=table_roll,
        row=row_n,
        death_roll=death_roll,
        instant_death=instant,
        knockback=knockback,
        tairyoku=out.tairyoku,
        seishin=out.seishin,
        seishin_spent=out.seishin_spent,
        status=status,
        ability_damage=out.ability_damage,
        injury=out.injury,
        crit_removed=crit_removed,
        note=note,
    )
