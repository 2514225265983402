"""The table running itself: deals, turns, 振り込み, fights, scoring and the end.

The decider's handlers add the events of a player's move to an :class:`Acc`,
which applies each to its copy of the game at once; then the functions here
carry the game on through every step that needs no choice (rolling the deal,
the 振り込み判定, scoring, the next hand …) until a player must move again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import msgspec

from taku.core.dice import Roll
from taku.core.kit import Emit, rejecter
from taku.core.ruleset import Context
from taku.core.table import TableState
from taku_nstrpg import checks as ck
from taku_nstrpg import combat as cb
from taku_nstrpg import damage as dmg
from taku_nstrpg import dkk as nsdkk
from taku_nstrpg import satsubatsu as sb
from taku_nstrpg.state import NsSheet
from taku_shadowjan import _rules as rules
from taku_shadowjan import events as ev
from taku_shadowjan._evolve import evolve
from taku_shadowjan.options import SjOptions
from taku_shadowjan.state import (
    BATTLE,
    Battle,
    EndReason,
    Player,
    ScoreReason,
    SjGame,
    SjHit,
    Status,
)

__all__ = ["Acc", "reject", "section"]

RULES = "シャドー・ジャン2"
_NS_SHEET = msgspec.convert(nsdkk.NINJA_SLAYER, NsSheet)


reject = rejecter("shadowjan")
"""``reject(reason, message, section)``: ``rule/shadowjan/<reason>``; sections are :func:`section`'s."""


def section(where: str) -> str:
    """The rulebook section a rejection cites: ``"シャドー・ジャン2 <where>"``."""
    return f"{RULES} {where}"


class Acc(Emit[SjGame, SjOptions]):
    """The events of one command, applied as they are added (:class:`taku.core.kit.Emit`),
    with the reading helpers the rules need (a player, a sheet, an attribute now …)."""

    def __init__(self, table: TableState, ctx: Context[SjOptions], opts: SjOptions) -> None:
        super().__init__(
            table, evolve, opts, table.game if isinstance(table.game, SjGame) else SjGame()
        )
        self.ctx = ctx
        self.opts = opts

    # ------------------------------------------------------------------ reading

    def p(self, cid: str) -> Player:
        return self.game.players[cid]

    def sheet(self, cid: str) -> NsSheet:
        """The character's NSTRPG sheet (Ninja Slayer's stat block once transformed, G-SJ-17)."""
        if self.game.players.get(cid) is not None and self.game.players[cid].slayer:
            return _NS_SHEET
        return sheet_of(self.table, cid)

    def stat(self, cid: str, name: str) -> int:
        """An attribute now: base minus ability damage, floor 1 (NS-19)."""
        return dmg.effective(
            getattr(self.sheet(cid), name), self.p(cid).ability_damage.get(name, 0)
        )

    def evasion_per_turn(self, cid: str) -> int:
        """回避ダイス a turn (NS-18): the printed 【回避】 or the best current attribute."""
        sh = self.sheet(cid)
        if sh.evasion is not None:
            return sh.evasion
        return max(self.stat(cid, s) for s in ("karate", "neuron", "wazamae"))

    def active(self) -> list[str]:
        return active(self.game)

    def order_from(self, start: str) -> list[str]:
        return order_from(self.game, start)

    def next_after(self, cid: str) -> str:
        seats = list(self.game.seats)
        i = seats.index(cid)
        for k in range(1, len(seats) + 1):
            c = seats[(i + k) % len(seats)]
            if not self.game.players[c].out:
                return c
        return cid

    def roll(self, n: int, sides: int = 6) -> Roll:
        return self.ctx.dice.roll(n, sides)


def sheet_of(table: TableState, cid: str) -> NsSheet:
    return msgspec.convert(table.characters[cid].sheet, NsSheet)


def active(game: SjGame) -> list[str]:
    """The players still in (not knocked out), in seat order."""
    return [c for c in game.seats if not game.players[c].out and game.players[c].status == "active"]


def order_from(game: SjGame, start: str) -> list[str]:
    """The seat order starting at ``start``, players still in only."""
    seats = list(game.seats)
    i = seats.index(start) if start in seats else 0
    rot = seats[i:] + seats[:i]
    live = set(active(game))
    return [c for c in rot if c in live]


# --------------------------------------------------------------------------- seat order and deal


def seat_order(acc: Acc, group: Sequence[str], rolls: list[ev.SeatRoll]) -> list[str]:
    """SJ-04, G-SJ-01: 1d100 each, highest first; the tied reroll among themselves."""
    got: dict[str, int] = {}
    for cid in group:
        r = acc.roll(1, 100)
        rolls.append(ev.SeatRoll(character_id=cid, roll=r))
        got[cid] = r.faces[0]
    out: list[str] = []
    for value in sorted(set(got.values()), reverse=True):
        tied = [c for c in group if got[c] == value]
        out += tied if len(tied) == 1 else seat_order(acc, tied, rolls)
    return out


def start_hand(acc: Acc, hand: int, dealer: str, *, replay: bool = False) -> None:
    """◆配牌 (SJ-07): 回避ダイス, then 6 − 1d6 メンツ each from the dealer on."""
    acc.add(ev.HandStarted(hand=hand, dealer=dealer, draws=acc.game.draws, replay=replay))
    acc.add(
        ev.EvasionDiceTaken(dice={c: acc.evasion_per_turn(c) for c in acc.active()}, reason="deal")
    )
    for cid in acc.order_from(dealer):
        r = acc.roll(1, 6)
        acc.add(ev.MentsuDealt(character_id=cid, roll=r, mentsu=6 - r.faces[0]))
    continue_deal(acc)


def continue_deal(acc: Acc) -> None:
    """After the deal's declarations (G-SJ-05): 回避ダイス again, then the dealer's turn (SJ-10)."""
    if acc.game.declaring:
        return
    acc.add(
        ev.EvasionDiceTaken(
            dice={c: acc.evasion_per_turn(c) for c in acc.active()}, reason="after_deal"
        )
    )
    start_turn(
        acc, acc.game.dealer if acc.game.dealer in acc.active() else acc.next_after(acc.game.dealer)
    )


def start_turn(acc: Acc, cid: str) -> None:
    """A turn begins; the dealer's turn refreshes 回避ダイス (SJ-25), except the hand's first."""
    first = acc.game.turn_count == 0
    acc.add(ev.TurnStarted(character_id=cid, turn=acc.game.turn_count + 1))
    if cid == acc.game.dealer and not first:
        acc.add(
            ev.EvasionDiceTaken(
                dice={c: acc.evasion_per_turn(c) for c in acc.active()}, reason="dealer_turn"
            )
        )


# --------------------------------------------------------------------------- after a move


def after_action(acc: Acc) -> None:
    """SJ-18: 4 メンツ or more forces a declaration; otherwise the turn ends."""
    if acc.game.declaring:
        return
    turn_end(acc)


def after_declaration(acc: Acc) -> None:
    if acc.game.phase == BATTLE or acc.game.declaring:
        return
    if acc.game.in_deal:
        continue_deal(acc)
    else:
        turn_end(acc)


def turn_end(acc: Acc) -> None:
    """The end of a turn: 振り込み判定 (SJ-20), 流局 (SJ-27), the next player's turn."""
    g = acc.game
    actor = g.turn
    p = acc.p(actor)
    others = [c for c in acc.active() if c != actor and acc.p(c).declaration]
    if others and actor in acc.active():
        bonus = 2 if p.betaori else 0  # SJ-16
        level = (
            ck.UH if p.declaration == "riichi" else ck.HARD
        )  # SJ-20: one step higher after リーチ
        r, res = ck.roll_check(acc.ctx.dice, acc.stat(actor, "neuron") + bonus, level)
        ron_by = () if res.success else tuple(others)
        acc.add(
            ev.FurikomiRolled(
                character_id=actor,
                roll=r,
                difficulty=level,
                bonus=bonus,
                success=res.success,
                ron_by=ron_by,
            )
        )
        if ron_by:
            # SJ-22 … SJ-24: ロン, which cannot be declined; the ron'd player answers every declarer
            acc.add(
                ev.BattleStarted(
                    battle=Battle(
                        kind="ron",
                        defenders=ron_by,
                        attackers=(actor,),
                        uncovered=ron_by,
                        ron_by=actor,
                    )
                )
            )
            advance_battle(acc)
            return
    acc.add(ev.TurnEnded(character_id=actor))
    fd = acc.game.first_declarer
    if fd and fd == actor and acc.p(fd).declared_turns >= 2:
        draws = acc.game.draws + 1
        acc.add(ev.Ryukyoku(draws=draws))  # SJ-27
        if acc.opts.max_draws and draws >= acc.opts.max_draws:
            hand_over(acc)  # G-SJ-10: the GM's cap: the hand counts and the dealer moves on
        else:
            start_hand(
                acc, acc.game.hand, acc.game.dealer, replay=True
            )  # G-SJ-10: same dealer, replayed
        return
    start_turn(acc, acc.next_after(actor))


# --------------------------------------------------------------------------- scoring


def multiplier(acc: Acc, *, chombo: bool = False) -> int:
    """SJ-27, G-SJ-11: ×2 per consecutive 流局; チョンボ only when the option says so."""
    if chombo and not acc.opts.chombo_multiplied:
        return 1
    return 2**acc.game.draws


def score_tsumo(acc: Acc, winner: str, kind: str) -> None:
    """SJ-30 (``kind``: ``tenho``, ``riichi`` or ``dama``)."""
    live = acc.active()
    m = multiplier(acc)
    reason = cast(ScoreReason, "tenho" if kind == "tenho" else f"tsumo_{kind}")
    acc.add(
        ev.Scored(
            reason=reason,
            who=winner,
            deltas=rules.tsumo_deltas(winner, live, kind, m),
            multiplier=m,
            remaining=len(live),
        )
    )


def score_ron(acc: Acc, winner: str, payer: str, m: int | None = None) -> None:
    """SJ-31: from the ron'd player alone (``m``: the hand's 流局 factor, taken before any win of it)."""
    kind = acc.p(winner).declaration or "dama"
    m = multiplier(acc) if m is None else m
    acc.add(
        ev.Scored(
            reason=cast(ScoreReason, f"ron_{kind}"),  # ron_riichi or ron_dama
            who=winner,
            deltas=rules.ron_deltas(winner, payer, kind, m),
            multiplier=m,
            remaining=len(acc.active()),
        )
    )


def score_chombo(acc: Acc, offender: str, m: int | None = None) -> None:
    """SJ-32: to each other remaining player."""
    live = acc.active()
    if offender not in live or len(live) < 2:
        return  # knocked out already: their points went to the survivors (SJ-34)
    m = multiplier(acc, chombo=True) if m is None else m
    acc.add(
        ev.Scored(
            reason="chombo",
            who=offender,
            deltas=rules.chombo_deltas(offender, live, m),
            multiplier=m,
            remaining=len(live),
        )
    )


def hand_over(acc: Acc) -> None:
    """SJ-26, SJ-33: the dealer moves on, or the game ends."""
    live = acc.active()
    if len(live) <= 1:
        end_game(acc, "one_left")
    elif acc.opts.end_on_negative and any(acc.p(c).score < 0 for c in live):
        end_game(acc, "negative")
    elif acc.game.hand >= acc.opts.hands:
        end_game(acc, "hands")
    else:
        start_hand(acc, acc.game.hand + 1, acc.next_after(acc.game.dealer))


def end_game(acc: Acc, reason: EndReason, winner: str = "") -> None:
    """SJ-33: the highest score wins; a tie for first is fought out (イクサ)."""
    g = acc.game
    live = acc.active()
    if not winner and acc.opts.tiebreak_ikusa and len(live) >= 2:
        top = max(acc.p(c).score for c in live)
        tied = tuple(c for c in live if acc.p(c).score == top)
        if len(tied) >= 2:
            acc.add(ev.BattleStarted(battle=Battle(kind="ikusa", fighters=tied, attackers=tied)))
            acc.add(
                ev.EvasionDiceTaken(dice={c: acc.evasion_per_turn(c) for c in tied}, reason="ikusa")
            )
            advance_battle(acc)
            return
    out = {c: (p.out or p.status != "active") for c, p in g.players.items()}
    ranking = rules.rank({c: p.score for c, p in g.players.items()}, out, g.seats)
    if winner:
        ranking = [winner] + [c for c in ranking if c != winner]
    acc.add(
        ev.GameEnded(
            reason=reason, ranking=tuple(ranking), scores={c: p.score for c, p in g.players.items()}
        )
    )


# --------------------------------------------------------------------------- ニンジャ殺すべし


def ninja_slayer_check(acc: Acc, declarer: str) -> bool:
    """SJ-28 after ``declarer`` failed a ツモ判定; ``True`` when it triggered (the game goes on elsewhere)."""
    if not acc.opts.ninja_slayer:
        return False
    live = acc.active()
    low = min(acc.p(c).score for c in live)
    order = acc.order_from(acc.game.dealer)
    # G-SJ-13: on a tie, only the one later in the seat order from the dealer (lower initiative)
    last = [c for c in order if acc.p(c).score == low][-1]
    if last == declarer or acc.p(declarer).score - low < 50000:
        return False
    score = acc.p(last).score
    r = None if score < 0 else acc.roll(1, 6)
    hit = rules.ninja_slayer_triggers(r.faces[0] if r else None, score)
    acc.add(
        ev.NinjaSlayerChecked(
            character_id=last, declarer=declarer, roll=r, score=score, triggered=hit
        )
    )
    if not hit:
        return False
    if acc.opts.ninja_slayer_fight:
        ns = _NS_SHEET
        acc.add(
            ev.NinjaSlayerRose(
                character_id=last,
                target=declarer,
                fight=True,
                tairyoku=ns.tairyoku,
                seishin=ns.seishin,
            )
        )
        fighters = (last, declarer)
        acc.add(
            ev.BattleStarted(
                battle=Battle(
                    kind="ikusa", fighters=fighters, attackers=fighters, defenders=(declarer,)
                )
            )
        )
        acc.add(
            ev.EvasionDiceTaken(dice={c: acc.evasion_per_turn(c) for c in fighters}, reason="ikusa")
        )
        advance_battle(acc)
        return True
    # the shortcut (SJ-29): the target 爆発四散, every other PC gains 1d3 DKK, the session ends
    acc.add(ev.NinjaSlayerRose(character_id=last, target=declarer, fight=False))
    t = acc.p(declarer)
    acc.add(
        ev.DamageResolved(
            target=declarer,
            hit_id="",
            amount=0,
            tairyoku=t.tairyoku,
            seishin=t.seishin,
            status=dmg.EXPLODED if acc.opts.bakuhatsu else dmg.FAINTED,
        )
    )
    for c in acc.game.seats:
        if c == declarer or acc.p(c).out:
            continue
        r6 = acc.roll(1, 6)
        gain = nsdkk.d3(r6.faces[0])  # G-NS-16: a D3 read from a d6
        acc.add(
            ev.DkkGained(
                character_id=c, roll=r6, gained=gain, dkk=nsdkk.clamp_dkk(acc.p(c).dkk + gain)
            )
        )
    end_game(acc, "ninja_slayer", winner="")
    return True


# --------------------------------------------------------------------------- fights


def battle_waiting(game: SjGame) -> tuple[str, str] | None:
    """Who must move in the battle and how (``evade`` / ``attack``), or ``None`` when it is over."""
    b = game.battle
    if b is None:
        return None
    if game.pending:
        return game.pending[0].target, "evade"
    live = set(active(game))
    if b.kind == "ikusa":
        if len([f for f in b.fighters if f in live]) <= 1:
            return None
        for a in b.attackers:
            if a in live:
                return a, "attack"
        return None
    if not any(d in live for d in b.defenders):
        return None  # nobody left to attack (knocked out by a counter or a stick)
    for a in b.attackers:
        if a in live:
            return a, "attack"
    return None


def advance_battle(acc: Acc) -> None:
    """Carry a fight on: hits on a player without 回避ダイス land at once; when nobody
    has to attack or evade any more, the fight's result is scored."""
    while True:
        w = battle_waiting(acc.game)
        if w is None:
            end_battle(acc)
            return
        who, step = w
        if step == "evade" and acc.p(who).evasion_dice <= 0:
            hit = acc.game.pending[0]
            acc.add(
                ev.EvasionRolled(
                    character_id=who, hit_id=hit.id, dice=0, difficulty=evasion_level(acc, hit)
                )
            )
            land(acc, hit)
            continue
        b = acc.game.battle
        assert b is not None, "battle_waiting returned a step"
        if (
            b.kind == "ikusa"
            and step == "attack"
            and who == b.fighters[0]
            and acc.out
            and not isinstance(acc.out[-1], ev.EvasionDiceTaken)
        ):
            # a new round of the イクサ: 回避ダイス again (NSTRPG 2-3)
            acc.add(
                ev.EvasionDiceTaken(
                    dice={c: acc.evasion_per_turn(c) for c in b.fighters if c in acc.active()},
                    reason="ikusa",
                )
            )
        return


def end_battle(acc: Acc) -> None:
    """The result of a fight (SJ-09, SJ-14, SJ-19, SJ-22, SJ-23, SJ-29, SJ-33)."""
    b = acc.game.battle
    assert b is not None, "end_battle runs only inside a battle"
    live = acc.active()
    winner = ""
    if b.kind == "ikusa":
        alive = [f for f in b.fighters if f in live]
        winner = alive[0] if alive else ""
    acc.add(ev.BattleEnded(kind=b.kind, damaged=b.damaged, winner=winner))
    if b.kind == "ikusa":
        end_game(
            acc, "ninja_slayer" if b.defenders else acc.game.end_reason or "tiebreak", winner=winner
        )
        return
    if b.kind == "stick":
        if len(acc.active()) <= 1:
            end_game(acc, "one_left")
            return
        if acc.game.in_deal:
            continue_deal(acc)
        elif acc.game.turn in acc.active():
            turn_end(acc)
        else:
            start_turn(acc, acc.next_after(acc.game.turn))
        return
    if b.kind == "tenho":
        d = b.defenders[0]
        if d in b.damaged:
            score_chombo(acc, d)
        elif d in acc.active():
            score_tsumo(acc, d, "tenho")
    elif b.kind == "ikasama":
        score_chombo(acc, b.defenders[0])
    elif b.kind == "ron":
        # SJ-27: a double ロン after a 流局 scores both wins ×2^n; the reset to ×1 comes after
        m_win, m_chombo = multiplier(acc), multiplier(acc, chombo=True)
        for d in b.defenders:
            if d not in acc.active():
                continue
            if d in b.damaged:
                score_chombo(acc, d, m_chombo)
            elif b.ron_by in acc.active():
                score_ron(acc, d, b.ron_by, m_win)
    hand_over(acc)


def evasion_level(acc: Acc, hit: SjHit) -> int:
    """The 回避判定 difficulty of ``hit`` (NSTRPG 2-11 via taku_nstrpg.combat)."""
    sheet = acc.sheet(hit.target)
    kind = "melee" if hit.kind == "counter" else ("shuriken" if hit.kind == "stick" else hit.kind)
    mods = 0
    if (
        acc.opts.iaido
        and kind in ("shuriken", "gun")
        and any("イアイドー" in s for s in sheet.skills)
    ):
        mods -= 1  # SJ-36 点棒切り払い: 遠隔攻撃 −1
    return cb.evasion_difficulty(
        base=hit.evasion,
        namu=hit.critical == sb.NAMU,
        defender=sheet.evasion_modifiers.get(kind, 0),
        modifiers=mods,
    )


def land(acc: Acc, hit: SjHit) -> None:
    """An undodged hit: 痛打 and the サツバツ! row (NSTRPG 2-13), damage, a knock-out (SJ-34)."""
    sheet = acc.sheet(hit.target)
    p = acc.p(hit.target)
    sources = [0]
    table_roll = None
    death_roll = None
    row_n = 0
    ability: dict[str, int] = {}
    instant = False
    if hit.kind == "melee" and acc.p(hit.attacker).slayer and 6 in hit.faces:
        sources.append(1)  # Ninja Slayer's fists: a 【6】 is 痛打+1 (NS-102)
    if hit.critical and acc.opts.satsubatsu:
        table_roll = acc.roll(1, 6)
        row = sb.row(table_roll.faces[0])
        row_n = row.number
        sources.append(row.tsuda)
        ability = dict(row.ability_damage)
        if row.instant_death:
            if sheet.instant_death_resistance:
                death_roll = acc.roll(2, 6)
                sources.append(death_roll.total)
            else:
                instant = True
    tsuda = sb.tsuda(sources)
    amount = dmg.final_damage(hit.damage, tsuda, sheet.damage_reduction)
    out = dmg.resolve_damage(
        kind=sheet.kind,
        ninja=sheet.is_ninja,
        tairyoku=p.tairyoku,
        seishin=p.seishin,
        status=p.status,
        amount=amount,
        ability_damage=ability,
        instant_death=instant,
    )
    status = cast(Status, out.status)  # one of taku_nstrpg.damage's statuses
    if not acc.opts.bakuhatsu and status in (dmg.EXPLODED, dmg.DEAD):
        status = dmg.FAINTED  # 爆発四散無効 (SJ-37)
    acc.add(
        ev.DamageResolved(
            target=hit.target,
            hit_id=hit.id,
            amount=amount,
            tsuda=tsuda,
            critical=hit.critical,
            table=table_roll,
            row=row_n,
            death_roll=death_roll,
            tairyoku=out.tairyoku,
            seishin=out.seishin,
            status=status,
            ability_damage=out.ability_damage,
        )
    )
    if status != dmg.ACTIVE and p.status == dmg.ACTIVE and not p.out:
        survivors = [c for c in acc.active() if c != hit.target]
        acc.add(
            ev.KnockedOut(
                character_id=hit.target,
                points=p.score,
                shares=rules.split_points(p.score, survivors),
            )
        )
