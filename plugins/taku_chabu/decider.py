"""``decide`` of the ``chabu`` ruleset: checks, attacks, 特技 and ラウンド進行.

Each command builds its events with an :class:`_Out` (a :class:`taku.core.kit.Emit`),
which folds them as it goes (through the ruleset's own ``evolve``) so that later steps read the state
the earlier ones made: a 特技's cost is paid before its effect (CH-30), a death
is noticed the moment it happens (CH-25), and after every command the combat
ends if a condition holds (CH-10) or the round moves on when everyone is
行動完了 (CH-17). A command either returns all its events or raises one
:class:`~taku.errors.Rejected` (``rule/chabu/<reason>``).
"""

from __future__ import annotations

from typing import assert_never

import msgspec

from taku.core import kit
from taku.core.commands import Command
from taku.core.events import Event
from taku.core.ruleset import Context, Emitted
from taku.core.table import TableState
from taku.errors import Forbidden, InvalidCommand
from taku_chabu._d100 import CheckResult, judge, opposed_winner, roll_d100
from taku_chabu._evolve import evolve
from taku_chabu._rules import current_actor, initiative_order, is_down, sheet_of, should_die
from taku_chabu.commands import (
    Adjust,
    Attack,
    Check,
    Decline,
    EndCombat,
    Evade,
    Move,
    OpposedCheck,
    OpposedSide,
    PassAction,
    Proceed,
    SetOrder,
    SetRange,
    SpendCounter,
    StartCombat,
    UseTokugi,
    Wait,
)
from taku_chabu.events import (
    ActionPassed,
    AttackDeclared,
    CheckDeclared,
    CheckRolled,
    CombatEnded,
    CombatStarted,
    CounterSpent,
    DamageRolled,
    DeclarationClosed,
    Died,
    EvasionDeclined,
    Moved,
    OpposedRolled,
    OpposedRound,
    OrderAgreed,
    Outcome,
    RangeSet,
    RoundEnded,
    RoundStarted,
    TokugiUsed,
    ValueAdjusted,
    Waited,
)
from taku_chabu.options import ChabuOptions, Range
from taku_chabu.state import (
    ChabuSheet,
    ChabuState,
    CharState,
    CheckSpec,
    Condition,
    Equipment,
    can_target,
)

__all__ = ["ERRORS", "REACTION", "decide", "opposed", "reject"]

REACTION = "反応"
"""The ability of the 回避判定 (チャブ ■回避判定, CH-21)."""

S_CHECK = "チャブ ■■基本判定ルール■■"
S_OPPOSED = "チャブ ■対抗判定"
S_STATES = "チャブ ■キャラクターの状態"
S_RANGE = "チャブ ■射程"
S_FLOW = "チャブ ■戦闘の流れ"
S_HIT = "チャブ ■命中判定"
S_EVADE = "チャブ ■回避判定"
S_TOKUGI = "チャブ ■■特技の使用■■"
S_TOKUGI_EQ = "チャブ ■特技と装備"


reject = kit.rejecter("chabu")
"""``reject(reason, message, section)``: raise ``rule/chabu/<reason>`` (a reason of :data:`ERRORS`)."""

ERRORS: dict[str, str] = {
    "unknown_ability": "能力値がシートにない",
    "no_reaction": "回避判定の能力値「反応」がシートにない",
    "dead": "死亡したキャラクターは行動も判定もできない",
    "incapacitated": "戦闘不能のキャラクターは能動的な行動ができない",
    "not_your_turn": "このキャラクターの手番ではない",
    "no_round": "ラウンド進行中ではない（待機宣言・行動放棄）",
    "no_combat": "ラウンド進行中ではない",
    "combat_running": "もうラウンド進行中",
    "already_waited": "待機宣言は一ラウンドに一度だけ",
    "declaration_pending": "解決中の宣言がある",
    "nothing_to_proceed": "解決を待つ宣言がない",
    "not_targeted": "回避判定を待つ命中がない",
    "unknown_equipment": "装備がシートにない",
    "not_equipped": "装備していない",
    "equipment_no_check": "装備に命中判定の【判定値】が書かれていない",
    "equipment_category": "特技が指定する分類の装備ではない",
    "equipment_ambiguous": "特技が指定する分類の装備が複数あり、どれか指定がない",
    "equipment_not_named": "特技の効果が装備の分類を指定していない",
    "unknown_tokugi": "特技がシートにない",
    "joji_always_on": "常時特技は使用しない（常に効果を発揮する）",
    "rounds_only": "ラウンド進行中にのみ使用できる特技",
    "no_declaration": "刹那は行動宣言か判定の宣言の直後にだけ使用できる",
    "setsuna_repeated": "一人が同じ刹那特技を重ねて使用することはできない",
    "setsuna_attack": "刹那タイミングの攻撃特技は自動化されていない",
    "duplicate_target": "同じ対象が二度指定された",
    "no_targets_allowed": "対象を取らない特技",
    "target_count": "対象の数が違う",
    "target_dead": "死亡したキャラクターは対象にできない",
    "out_of_range": "対象が射程外",
    "range_unknown": "射程がまだ決まっていない",
    "not_enough_hp": "コストのHPが足りない",
    "not_enough_counters": "コストのカウンターが足りない",
    "no_counter": "使うカウンターがない",
    "descension_ingaoho": "インガオホー値が100以上のままではディセンションできない",
}
"""Every ``rule/chabu/<reason>`` this ruleset raises, with its meaning (the ruleset's ``errors``)."""


def _invalid(detail: str) -> InvalidCommand:
    """``command/invalid`` with a Japanese ``detail``."""
    return InvalidCommand(detail, code="command/invalid", detail=detail)


def _require_control(out: _Out, cid: str, command: str) -> None:
    """The sender owns ``cid`` or is a GM (checks beyond the command's declared permit).

    Raises:
        InvalidCommand: ``command/unknown_character``.
        Forbidden: ``command/forbidden`` (params ``command``, ``role``, ``reason``).
    """
    ch = kit.character(out.table, cid)
    if not out.ctx.controls(out.table, cid):
        raise Forbidden(
            f"{command}: {cid} is not the sender's",
            command=command,
            role=out.ctx.role,
            reason=f"{ch.name}はあなたのキャラクターではありません",
        )


class _Out(kit.Emit[ChabuState, ChabuOptions]):
    """The events of one command, folded as they are made; a death is noticed the moment it happens."""

    def __init__(self, table: TableState, ctx: Context[ChabuOptions]) -> None:
        game = table.game if isinstance(table.game, ChabuState) else ChabuState()
        super().__init__(table, evolve, ctx.options or ChabuOptions(), game)
        self.ctx = ctx

    def add(self, event: Event) -> Event:
        super().add(event)
        if isinstance(event, DamageRolled) and event.target is not None:
            self._death(event.target)
        elif isinstance(event, TokugiUsed):
            self._death(event.character_id, hp=event.hp_after < event.hp_before)
        elif isinstance(event, ValueAdjusted):
            self._death(event.character_id, hp=event.key == "hp")
        elif isinstance(event, CounterSpent):
            self._death(event.character_id, hp=False)
        return event

    def _death(self, cid: str, *, hp: bool = True) -> None:
        """死亡 the moment HP or インガオホー値 make it so (CH-25)."""
        cs = self.game.chars.get(cid)
        if cs is None or cs.dead:
            return
        if (cause := should_die(sheet_of(self.table, cid).dl, cs, hp=hp)) is not None:
            self.add(Died(character_id=cid, cause=cause))  # type: ignore[arg-type]

    def char(self, cid: str) -> CharState:
        """The character's current values (``command/unknown_character`` for an unknown id)."""
        kit.character(self.table, cid)
        return self.game.chars.get(cid) or CharState()

    def sheet(self, cid: str) -> ChabuSheet:
        return sheet_of(self.table, cid)


# --------------------------------------------------------------------------- helpers


def _check_value(out: _Out, cid: str, spec: CheckSpec) -> int:
    """【判定値】 = 能力値 + 技能, or the 能力値 alone without the 技能 (CH-05)."""
    sheet = out.sheet(cid)
    if spec.ability not in sheet.abilities:
        reject("unknown_ability", f"能力値「{spec.ability}」がシートにありません", S_CHECK)
    value = sheet.abilities[spec.ability]
    if spec.skill is not None:
        value += sheet.skills.get(spec.skill, 0)
    return value


def _roll_check(
    out: _Out,
    cid: str | None,
    target: int,
    *,
    purpose: str = "check",
    label: str = "",
    declaration: str | None = None,
) -> CheckResult:
    roll, value = roll_d100(out.ctx.dice)
    r = judge(value, target)
    out.add(
        CheckRolled(
            character_id=cid,
            purpose=purpose,  # type: ignore[arg-type]
            label=label,
            target=target,
            roll=roll,
            value=value,
            success=r.success,
            tatsujin=r.tatsujin,
            ukatsu=r.ukatsu,
            declaration=declaration,
        )
    )
    return r


def _range(out: _Out, a: str, b: str) -> Range:
    rng = out.game.ranges.get(a, {}).get(b) or out.options.default_range
    if rng is None:
        reject("range_unknown", "GMが射程をまだ決めていません（chabu.set_range）", S_RANGE)
    return rng


def _targets(
    out: _Out, user: str, targets: list[str], most: int, reach: Range | None, section: str
) -> None:
    """対象 count and 射程 (CH-18, CH-29)."""
    if len(set(targets)) != len(targets):
        reject("duplicate_target", "同じ対象が二度指定されています", section)
    if most == 0 and targets:
        reject("no_targets_allowed", "この特技は対象を取りません", S_TOKUGI)
    if most > 0 and not 1 <= len(targets) <= most:
        reject("target_count", f"対象は{most}体までです（{len(targets)}体指定）", section)
    for t in targets:
        if out.char(t).dead:
            reject("target_dead", f"{out.table.characters[t].name}は死亡しています", S_STATES)
        if reach is not None and t != user:
            distance = _range(out, user, t)
            if not can_target(reach, distance):
                reject(
                    "out_of_range",
                    f"{out.table.characters[t].name}は射程外です（{reach}→{distance}）",
                    S_RANGE,
                )


def _require_active(out: _Out, cid: str) -> None:
    """死亡 acts no more; 戦闘不能 takes no active action (CH-24, CH-25)."""
    cs = out.char(cid)
    if cs.dead:
        reject("dead", "死亡したキャラクターは行動できません", S_STATES)
    if cs.hp <= 0:
        reject("incapacitated", "戦闘不能のキャラクターは能動的な行動ができません", S_STATES)


def _require_turn(out: _Out, cid: str) -> None:
    """A 活劇 in a round only on the character's turn, with nothing pending (CH-13, CH-16)."""
    _require_active(out, cid)
    if out.game.pending is not None:
        reject("declaration_pending", "解決中の宣言があります（chabu.proceed / 回避判定）", S_FLOW)
    combat = out.game.combat
    if combat is not None and combat.round is not None and cid in combat.participants:
        if current_actor(out.game, out.table) != cid:
            reject("not_your_turn", "このキャラクターの手番ではありません", S_FLOW)


def _require_round(out: _Out, cid: str) -> None:
    combat = out.game.combat
    if combat is None or combat.round is None or cid not in combat.participants:
        reject("no_round", "ラウンド進行中ではありません", S_FLOW)
    _require_turn(out, cid)


def _held(out: _Out, hold: bool) -> bool:
    return hold or out.options.always_hold


# --------------------------------------------------------------------------- attacks


def _declare_attack(
    out: _Out,
    attacker: str,
    targets: list[str],
    *,
    check: int,
    power: int | None,
    equipment: str | None,
    tokugi: str | None,
    modifier: int,
    is_action: bool,
    hold: bool,
    after_cost_death: bool = False,
) -> None:
    """Open the attack; unless held, roll its 命中判定 at once.

    ``after_cost_death``: the 特技's cost killed the attacker and the option
    ``effect_after_cost_death`` lets the effect resolve anyway: the attack is
    rolled at once (no 刹那 window for a dead attacker) and is not void.
    """
    decl = out.ctx.new_id("d")
    out.add(
        AttackDeclared(
            declaration=decl,
            attacker=attacker,
            equipment=equipment,
            tokugi=tokugi,
            targets=tuple(targets),
            check=check,
            power=power,
            modifier=modifier,
            is_action=is_action,
            held=not after_cost_death and _held(out, hold),
        )
    )
    if after_cost_death or not _held(out, hold):
        _resolve_hit(out, 0, void_if_down=not after_cost_death)


def _close(out: _Out, outcome: Outcome, *, lasting: bool = False) -> None:
    p = out.game.pending
    assert p is not None, "only an open declaration is closed"
    out.add(
        DeclarationClosed(
            declaration=p.id,
            character_id=p.actor,
            outcome=outcome,
            is_action=p.is_action,
            lasting=lasting,
        )
    )


def _damage(out: _Out, target: str, *, doubled: bool = False, self_hit: bool = False) -> None:
    """威力 + DL d10 (CH-22, G-CH-03), ×2 after an evasion ウカツ! (CH-08), HP floored at 0 (G-CH-08)."""
    p = out.game.pending
    assert p is not None and p.power is not None, "damage belongs to an attack with 威力"
    dl = out.sheet(p.actor).dl
    roll = out.ctx.dice.roll(dl, 10)
    total = p.power + roll.total
    if doubled:
        total *= 2
    before = out.char(target).hp
    out.add(
        DamageRolled(
            declaration=p.id,
            attacker=p.actor,
            target=target,
            power=p.power,
            dl=dl,
            roll=roll,
            doubled=doubled,
            self_hit=self_hit,
            total=total,
            hp_before=before,
            hp_after=max(before - total, 0),
        )
    )


def _resolve_hit(out: _Out, modifier: int, *, void_if_down: bool = True) -> None:
    """命中判定 (CH-19, CH-20); ウカツ! hits the attacker (CH-08, G-CH-10)."""
    p = out.game.pending
    assert p is not None and p.kind == "attack"
    if void_if_down and (out.char(p.actor).dead or out.char(p.actor).hp <= 0):
        _close(out, "void")  # a 刹那 struck the attacker down before the attack resolved
        return
    r = _roll_check(
        out,
        p.actor,
        p.check + p.modifier + modifier,
        purpose="hit",
        label=p.label,
        declaration=p.id,
    )
    if r.ukatsu:
        # ウカツ! on a 命中判定: the attack hits the attacker, who cannot evade it (G-CH-10)
        if p.power is not None:
            _damage(out, p.actor, self_hit=True)
        _close(out, "self_hit")
        return
    if not r.success:
        _close(out, "missed")
        return
    if out.options.auto_evade:
        for t in list(out.game.pending.awaiting if out.game.pending is not None else ()):
            _evade(out, t, 0)
    _maybe_damage(out)


def _evade(out: _Out, cid: str, modifier: int) -> None:
    """回避判定 with 反応 (CH-21); an ウカツ! doubles the final damage (CH-08)."""
    p = out.game.pending
    assert p is not None
    sheet = out.sheet(cid)
    if REACTION not in sheet.abilities:
        reject(
            "no_reaction",
            f"{out.table.characters[cid].name}のシートに能力値「反応」がありません",
            S_EVADE,
        )
    _roll_check(
        out,
        cid,
        sheet.abilities[REACTION] + modifier,
        purpose="evasion",
        label="回避",
        declaration=p.id,
    )


def _maybe_damage(out: _Out) -> None:
    """Once every target evaded or took the hit: damage to those hit, then close."""
    p = out.game.pending
    if p is None or p.stage != "evasion" or p.awaiting:
        return
    if p.power is not None:
        for t in p.hit:
            _damage(out, t, doubled=t in p.doubled)
    _close(out, "hit" if p.hit else "evaded")


# --------------------------------------------------------------------------- commands


def _attack(out: _Out, cmd: Attack) -> None:
    _require_turn(out, cmd.character_id)
    eq = out.sheet(cmd.character_id).equipment_named(cmd.equipment)
    if eq is None:
        reject("unknown_equipment", f"装備「{cmd.equipment}」がシートにありません", S_HIT)
    if not eq.equipped:
        reject("not_equipped", f"「{eq.name}」を装備していません", S_HIT)
    if eq.check is None:
        reject(
            "equipment_no_check", f"「{eq.name}」に命中判定の【判定値】が書かれていません", S_HIT
        )
    _targets(out, cmd.character_id, cmd.targets, max(eq.targets, 1), eq.range, S_HIT)
    _declare_attack(
        out,
        cmd.character_id,
        cmd.targets,
        check=_check_value(out, cmd.character_id, eq.check),
        power=eq.power,
        equipment=eq.name,
        tokugi=None,
        modifier=cmd.modifier,
        is_action=True,
        hold=cmd.hold,
    )


def _category_equipment(out: _Out, cid: str, category: str, named: str | None) -> Equipment | None:
    """The worn equipment of the 分類 a 特技 names (CH-23): its 威力 is added."""
    worn = [e for e in out.sheet(cid).equipment if e.equipped and e.category == category]
    if named is not None:
        eq = next((e for e in worn if e.name == named), None)
        if eq is None:
            reject(
                "equipment_category",
                f"装備している「{category}」分類の「{named}」がありません",
                S_TOKUGI_EQ,
            )
        return eq
    if len(worn) > 1:
        reject(
            "equipment_ambiguous",
            f"「{category}」分類の装備が複数あります。どれを使うか指定してください",
            S_TOKUGI_EQ,
        )
    return worn[0] if worn else None


def _use_tokugi(out: _Out, cmd: UseTokugi) -> None:
    cid = cmd.character_id
    tk = out.sheet(cid).tokugi_named(cmd.tokugi)
    if tk is None:
        reject("unknown_tokugi", f"特技「{cmd.tokugi}」がシートにありません", S_TOKUGI)
    # ▼タイミング (CH-27)
    if tk.timing == "joji":
        reject(
            "joji_always_on",
            f"「{tk.name}」は常時特技です（常に効果を発揮し、使用はしません）",
            S_TOKUGI,
        )
    if tk.in_rounds_only and out.game.combat is None:
        reject("rounds_only", f"「{tk.name}」はラウンド進行中にのみ使用できます", S_TOKUGI)
    answers: str | None = None
    if tk.timing == "setsuna":
        _require_active(out, cid)
        p = out.game.pending
        if p is None:
            reject(
                "no_declaration",
                "刹那は誰かの行動宣言か判定の宣言の直後にだけ使用できます",
                S_TOKUGI,
            )
        if (cid, tk.name) in [tuple(x) for x in p.setsuna]:
            reject(
                "setsuna_repeated",
                f"一人が同じ刹那特技「{tk.name}」を重ねて使用することはできません",
                S_TOKUGI,
            )
        if tk.is_attack:
            reject(
                "setsuna_attack",
                "刹那タイミングの攻撃特技は自動化されていません（GMが処理してください）",
                S_TOKUGI,
            )
        answers = p.id
    else:
        _require_turn(out, cid)
    # ▼射程 ▼対象 (CH-29)
    _targets(out, cid, cmd.targets, tk.targets, tk.range, S_TOKUGI)
    # ▼コスト (CH-30): paid first
    cs = out.char(cid)
    cost = tk.cost
    if cost.hp > cs.hp:
        reject("not_enough_hp", f"HPが足りません（コスト{cost.hp}、現在{cs.hp}）", S_TOKUGI)
    # CH-07: a タツジンカウンター "「ワザマエカウンター」と同様に使用できる": it may pay
    # the ワザマエ part of the cost, and never raises インガオホー値
    spare_tatsujin = cs.tatsujin - cost.tatsujin
    if spare_tatsujin < 0 or cost.wazamae > cs.wazamae + spare_tatsujin:
        reject("not_enough_counters", "コストのカウンターが足りません", S_TOKUGI)
    if cmd.prefer_tatsujin:
        by_tatsujin = min(cost.wazamae, spare_tatsujin)
    else:
        by_tatsujin = max(cost.wazamae - cs.wazamae, 0)
    by_wazamae = cost.wazamae - by_tatsujin
    hp_after = cs.hp - cost.hp
    ingaoho_after = cs.ingaoho + cost.ingaoho + by_wazamae * out.options.wazamae_ingaoho
    after = msgspec.structs.replace(cs, hp=hp_after, ingaoho=ingaoho_after)
    dies = should_die(out.sheet(cid).dl, after, hp=hp_after < cs.hp) is not None
    resolved = not dies or out.options.effect_after_cost_death
    katsugeki = tk.timing == "katsugeki"
    held = katsugeki and resolved and not tk.is_attack and _held(out, cmd.hold)
    decl = out.ctx.new_id("d") if held else None
    out.add(
        TokugiUsed(
            character_id=cid,
            tokugi=tk.name,
            timing=tk.timing,
            targets=tuple(cmd.targets),
            cost=cost,
            hp_before=cs.hp,
            hp_after=hp_after,
            ingaoho_before=cs.ingaoho,
            ingaoho_after=ingaoho_after,
            died=dies,
            resolved=resolved,
            answers=answers,
            declaration=decl,
            effect=tk.effect,
            until_end_phase=tk.until_end_phase,
            is_action=katsugeki and (not resolved or not tk.is_attack),
            attack=tk.is_attack and resolved,
            tatsujin_for_wazamae=by_tatsujin,
        )
    )
    if not resolved or not tk.is_attack:
        return
    # an attacking 特技: its own 【判定値】 (CH-20), plus a named 分類's 威力 (CH-23)
    assert tk.check is not None, "the sheet checks that an attacking 特技 names its 【判定値】"
    power = tk.power or 0
    eq = _category_equipment(out, cid, tk.category, cmd.equipment) if tk.category else None
    if eq is None and cmd.equipment is not None:
        reject(
            "equipment_not_named", f"「{tk.name}」の効果は装備の分類を指定していません", S_TOKUGI_EQ
        )
    if eq is not None:
        power += eq.power
    _declare_attack(
        out,
        cid,
        cmd.targets,
        check=_check_value(out, cid, tk.check),
        power=power if (tk.power is not None or eq is not None) else None,
        equipment=eq.name if eq is not None else None,
        tokugi=tk.name,
        modifier=cmd.modifier,
        is_action=katsugeki,
        hold=cmd.hold,
        after_cost_death=dies,
    )


def _check(out: _Out, cmd: Check) -> None:
    cid = cmd.character_id
    if out.char(cid).dead:
        reject("dead", "死亡したキャラクターは判定できません", S_STATES)
    if cmd.value is not None:
        target = cmd.value
    elif cmd.ability is not None:
        target = _check_value(out, cid, CheckSpec(ability=cmd.ability, skill=cmd.skill))
    else:
        raise _invalid("能力値（と技能）か【判定値】を指定してください")
    label = cmd.label or "+".join(x for x in (cmd.ability, cmd.skill) if x)
    if _held(out, cmd.hold):
        if out.game.pending is not None:
            reject("declaration_pending", "解決中の宣言があります", S_FLOW)
        out.add(
            CheckDeclared(
                declaration=out.ctx.new_id("d"),
                character_id=cid,
                label=label,
                check=target,
                modifier=cmd.modifier,
            )
        )
        return
    _roll_check(out, cid, target + cmd.modifier, label=label)


def _proceed(out: _Out, cmd: Proceed) -> None:
    p = out.game.pending
    if p is None or p.stage != "declared":
        reject("nothing_to_proceed", "解決を待つ宣言がありません", S_TOKUGI)
    _require_control(out, p.actor, "chabu.proceed")  # the declarer or a GM
    match p.kind:
        case "attack":
            _resolve_hit(out, cmd.modifier)
        case "check":
            r = _roll_check(
                out, p.actor, p.check + p.modifier + cmd.modifier, label=p.label, declaration=p.id
            )
            _close(out, "success" if r.success else "failure")
        case "action":
            tk = out.sheet(p.actor).tokugi_named(p.tokugi or "")
            _close(out, "resolved", lasting=tk is not None and tk.until_end_phase)
        case _:
            assert_never(p.kind)


def _pending_target(out: _Out, cid: str) -> None:
    p = out.game.pending
    if p is None or p.stage != "evasion" or cid not in p.awaiting:
        reject("not_targeted", "回避判定を待つ命中がありません", S_EVADE)


def opposed(
    out: _Out, a: str | None, a_target: int, b: str | None, b_target: int, label: str = ""
) -> OpposedRolled:
    """Roll a 対抗判定 until it is decided (CH-09; G-CH-05, G-CH-06)."""
    rounds: list[OpposedRound] = []
    winner = "draw"
    for _ in range(max(out.options.max_opposed_rounds, 1)):
        ra, va = roll_d100(out.ctx.dice)
        rb, vb = roll_d100(out.ctx.dice)
        ja, jb = judge(va, a_target), judge(vb, b_target)
        rounds.append(
            OpposedRound(
                a_roll=ra,
                a_value=va,
                a_success=ja.success,
                b_roll=rb,
                b_value=vb,
                b_success=jb.success,
            )
        )
        w = opposed_winner(ja, jb)
        if w == "fail" and out.options.opposed_both_fail == "draw":
            break
        if w in ("a", "b"):
            winner = w
            break
    return OpposedRolled(
        label=label,
        a=a,
        b=b,
        a_target=a_target,
        b_target=b_target,
        rounds=tuple(rounds),
        winner=winner,  # type: ignore[arg-type]
    )


def _side(out: _Out, side: OpposedSide) -> int:
    if side.value is not None:
        return side.value
    if side.character_id is None or side.ability is None:
        raise _invalid("対抗判定の両側は、キャラクターと能力値、または【判定値】を指定します")
    out.char(side.character_id)
    return _check_value(out, side.character_id, CheckSpec(ability=side.ability, skill=side.skill))


def _opposed(out: _Out, cmd: OpposedCheck) -> None:
    # side a is the sender's character (its permit), or for a GM a bare value
    if cmd.a.character_id is None and not out.ctx.is_gm:
        raise _invalid("自分の側（a）には自分のキャラクターを指定してください")
    for side in (cmd.a, cmd.b):
        if side.character_id is not None:
            out.char(side.character_id)
            if out.char(side.character_id).dead:
                reject("dead", "死亡したキャラクターは判定できません", S_STATES)
    out.add(
        opposed(
            out,
            cmd.a.character_id,
            _side(out, cmd.a),
            cmd.b.character_id,
            _side(out, cmd.b),
            cmd.label,
        )
    )


def _start(out: _Out, cmd: StartCombat) -> None:
    if out.game.combat is not None:
        reject("combat_running", "ラウンド進行中です", S_FLOW)
    ids = cmd.participants or [c for c in out.table.characters if not out.char(c).dead]
    if not ids or len(set(ids)) != len(ids):
        raise _invalid("参加キャラクターを重複なく一人以上指定してください")
    for cid in [*ids, *cmd.agreed_order, *cmd.victory.characters, *cmd.defeat.characters]:
        out.char(cid)
    out.add(
        CombatStarted(
            victory=cmd.victory,
            defeat=cmd.defeat,
            participants=tuple(ids),
            agreed_order=tuple(cmd.agreed_order),
        )
    )
    _new_round(out, 1)


def _new_round(out: _Out, number: int) -> None:
    """イニシアティヴ決定フェイズ: everyone not 戦闘不能 becomes 未行動, in order (CH-11, CH-12)."""
    combat = out.game.combat
    assert combat is not None
    able = [c for c in combat.participants if not is_down(out.game.chars.get(c))]
    out.add(
        RoundStarted(
            number=number, order=tuple(initiative_order(out.table, out.game, combat, able))
        )
    )


def _holds(out: _Out, cond: Condition) -> bool:
    if cond.kind == "manual" or not cond.characters:
        return False
    chars = [out.game.chars.get(c) for c in cond.characters]
    down = [is_down(cs) for cs in chars]
    dead = [cs is None or cs.dead for cs in chars]
    match cond.kind:
        case "all_down":
            return all(down)
        case "any_down":
            return any(down)
        case "all_dead":
            return all(dead)
        case "any_dead":
            return any(dead)
        case _:
            assert_never(cond.kind)


def _finish(out: _Out) -> None:
    """After every command: the combat ends the moment a condition holds (CH-10);
    when everyone is 行動完了, the エンドフェイズ ends the round and the next begins (CH-17)."""
    _maybe_damage(out)  # the last target awaiting a 回避判定 may have died (CH-25)
    combat = out.game.combat
    if combat is None:
        return
    checks = [("victory", combat.victory), ("defeat", combat.defeat)]
    if not out.options.victory_first:
        checks.reverse()
    for outcome, cond in checks:
        if _holds(out, cond):
            out.add(CombatEnded(outcome=outcome, reason=cond.text))  # type: ignore[arg-type]
            return
    rnd = combat.round
    if (
        rnd is None
        or out.game.pending is not None
        or current_actor(out.game, out.table) is not None
    ):
        return
    if not rnd.order:
        return  # nobody could act: the GM ends the combat or changes values
    out.add(RoundEnded(number=rnd.number, cleared=tuple(combat.effects)))
    _new_round(out, rnd.number + 1)


def decide(table: TableState, command: Command, ctx: Context[ChabuOptions]) -> list[Emitted]:
    """The events of a ``chabu`` command (its declared permit already enforced by the core).

    Raises:
        Rejected: ``rule/chabu/<reason>`` (:data:`ERRORS`) with the rulebook section.
        InvalidCommand: ``command/unknown_character``, ``command/invalid``, ``command/unknown_command``.
        Forbidden: ``command/forbidden`` for ``chabu.proceed`` by neither the declarer nor a GM,
            or an opposed check whose side ``a`` is not the sender's character.
    """
    out = _Out(table, ctx)
    match command:
        case Check():
            _check(out, command)
        case OpposedCheck():
            _opposed(out, command)
        case Attack():
            _attack(out, command)
        case UseTokugi():
            _use_tokugi(out, command)
        case Proceed():
            _proceed(out, command)
        case Evade():
            _pending_target(out, command.character_id)
            _evade(out, command.character_id, command.modifier)
            _maybe_damage(out)
        case Decline():
            _pending_target(out, command.character_id)
            p = out.game.pending
            assert p is not None
            out.add(EvasionDeclined(declaration=p.id, character_id=command.character_id))
            _maybe_damage(out)
        case Move():
            _require_turn(out, command.character_id)
            out.add(Moved(character_id=command.character_id, note=command.note))
        case Wait():
            _require_round(out, command.character_id)
            rnd = out.game.combat.round if out.game.combat is not None else None
            if rnd is not None and command.character_id in rnd.waiting:
                reject("already_waited", "待機宣言は一ラウンドに一度だけです（G-CH-12）", S_FLOW)
            out.add(Waited(character_id=command.character_id))
        case PassAction():
            _require_round(out, command.character_id)
            out.add(ActionPassed(character_id=command.character_id))
        case StartCombat():
            _start(out, command)
        case SetOrder():
            if out.game.combat is None:
                reject("no_combat", "ラウンド進行中ではありません", S_FLOW)
            for cid in command.agreed_order:
                out.char(cid)
            out.add(OrderAgreed(agreed_order=tuple(command.agreed_order)))
        case EndCombat():
            if out.game.combat is None:
                reject("no_combat", "ラウンド進行中ではありません", S_FLOW)
            out.add(CombatEnded(outcome=command.outcome, reason=command.reason))
        case SetRange():
            out.char(command.a)
            out.char(command.b)
            if command.a == command.b:
                raise _invalid("射程は二人のキャラクターの間で決めます")
            out.add(RangeSet(a=command.a, b=command.b, range=command.range, both=command.both))
        case Adjust():
            cs = out.char(command.character_id)
            if (command.delta is None) == (command.value is None):
                raise _invalid("増減か新しい値のどちらか一方を指定してください")
            before = getattr(cs, command.key)
            after = before + command.delta if command.delta is not None else command.value
            assert after is not None
            out.add(
                ValueAdjusted(
                    character_id=command.character_id,
                    key=command.key,
                    before=before,
                    after=max(after, 0),
                    reason=command.reason,
                )
            )
        case SpendCounter():
            cs = out.char(command.character_id)
            # ■キャラクターの状態: "ＤＬ０のキャラクターはワザマエカウンターを使用することで
            # 「ディセンション」を行い、「死亡」を解除することも出来る" (CH-25)
            # (a タツジンカウンター "「ワザマエカウンター」と同様に使用できる", CH-07)
            descension = cs.dead and out.sheet(command.character_id).dl == 0
            if cs.dead and not descension:
                reject(
                    "dead",
                    "死亡したキャラクターは行動できません（DL0ならカウンターでディセンションできます）",
                    S_STATES,
                )
            if getattr(cs, command.counter) < 1:
                reject("no_counter", "カウンターがありません", S_CHECK)
            rise = out.options.wazamae_ingaoho if command.counter == "wazamae" else 0
            if descension and cs.ingaoho + rise >= 100:
                reject(
                    "descension_ingaoho",
                    "インガオホー値が100以上のままではディセンションしても死亡のままです",
                    S_STATES,
                )
            out.add(
                CounterSpent(
                    character_id=command.character_id,
                    counter=command.counter,
                    ingaoho_before=cs.ingaoho,
                    ingaoho_after=cs.ingaoho + rise,
                    note=command.note,
                    descension=descension,
                )
            )
        case _:
            raise InvalidCommand(
                f"{type(command).__name__} is not a chabu command", code="command/unknown_command"
            )
    _finish(out)
    return out.out
