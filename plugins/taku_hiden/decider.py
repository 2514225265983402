"""decide / evolve / initial_state of 秘伝の声 (chapter 5, 行動判定).

``decide`` returns every event of a command or raises one
:class:`~taku.errors.Rejected` (``rule/hiden/<reason>``) with the section of
the chapter; it never returns part. ``evolve`` applies any stored event, core
ones included, and never rolls.
"""

from __future__ import annotations

from typing import Any

import msgspec

from taku.core import kit
from taku.core.events import GM, CharacterCreated, CharacterRemoved, Event, Private, Redacted
from taku.core.ruleset import Context, Emitted, Viewer
from taku.core.table import TableState
from taku.errors import InvalidCommand
from taku_hiden import tables as T
from taku_hiden._checks import (
    make_target,
    opposed_outcome,
    replace_side,
    reroll_side,
    roll_side,
    single_success,
)
from taku_hiden._common import (
    S_CHECK,
    S_OPPOSED,
    S_TRAITS,
    S_VARIOUS,
    S_ZABUTON,
    SOCIAL_TRAITS,
    _condition_label,
    _find,
    _game,
    _reject,
    _require_control,
    _require_gm,
    _sake_tolerance,
    _sheet,
)
from taku_hiden._helpers import (
    condition_key,
    fatigue,
    jump,
    lift,
    seizure_for,
    situation_key,
    visibility,
)
from taku_hiden.commands import (
    AwardZabuton,
    Check,
    CheckSpec,
    ConvertZabuton,
    Fatigue,
    Jump,
    KanCheck,
    Lift,
    Oppose,
    OpposedCheck,
    Reroll,
    Seizure,
    SeizureCheck,
    SetConditions,
    Visibility,
)
from taku_hiden.events import (
    CheckKind,
    CheckRerolled,
    CheckRolled,
    ConditionsSet,
    DifficultyComputed,
    Modifier,
    OpposedResolved,
    OpposedRolled,
    Side,
    TraitApplied,
    ZabutonAwarded,
    ZabutonConverted,
)
from taku_hiden.options import HidenOptions
from taku_hiden.state import MAX_OPEN_CHECKS, CharState, HidenState, OpenCheck, strip_brackets
from taku_hiden.view import sees

__all__ = ["decide", "evolve", "initial_state"]


def initial_state(options: HidenOptions | None) -> HidenState:
    """An empty table: no characters, no open checks."""
    return HidenState()


# --------------------------------------------------------------------------- sides


def _side_fields(
    table: TableState, spec: CheckSpec, ctx: Context[HidenOptions], options: HidenOptions
) -> dict[str, Any]:
    """The fixed part of one actor's 判定値 (五ノ一, 五ノ四), checked against the sheet.

    Who may act for the character is checked before (the command's permit, or
    :func:`_require_control` for the sides of an 対抗判定).

    Raises:
        Rejected: ``unknown_ability``, ``ability_required``,
            ``tokugi_fixed_ability``, ``unknown_trait``, ``trait_value_required``,
            ``gm_chooses_traits``.
    """
    if spec.traits and not ctx.is_gm:
        _reject("gm_chooses_traits", "どの特徴が判定に関係するかはGMが決めます", S_TRAITS)
    skill = strip_brackets(spec.skill) if spec.skill else None
    ability = strip_brackets(spec.ability) if spec.ability else None
    traits: list[TraitApplied] = []
    if spec.character_id is not None:
        ch = kit.character(table, spec.character_id)
        if spec.level is not None or spec.ability_value is not None:
            raise InvalidCommand(
                "level and ability_value are for a check without a character",
                detail="技能レベルと能力値の値は、キャラクターのいない判定で指定します",
            )
        sheet = _sheet(table, spec.character_id)
        name = ch.name
        kind: str | None = None
        level = 0
        missing: str | None = None
        if skill is not None:
            if found := _find(sheet.tokugi, skill):
                # 五ノ一: "特技には対応能力値が決められていますのでそれを用います"
                kind, (skill, tokugi) = "tokugi", found
                level = tokugi.level
                fixed = strip_brackets(tokugi.ability)
                if ability is not None and ability != fixed:
                    _reject(
                        "tokugi_fixed_ability",
                        f"《{skill}》の対応能力値は〈{fixed}〉です（〈{ability}〉では判定できません）",
                        S_CHECK,
                    )
                ability = fixed
            elif found := _find(sheet.skills, skill):
                kind, (skill, level) = "skill", found
            else:
                # 五ノ一: "ゲームマスターが要求した技能も特技がない場合 … 判定値 = 能力値 + 2D" (HD-05)
                missing, skill = skill, None
                if ability is None:
                    _reject(
                        "ability_required",
                        f"{name}は《{missing}》を持っていません。能力値だけで判定する〈能力値〉を指定してください",
                        S_CHECK,
                    )
        if ability is None:
            _reject("ability_required", "判定に使う〈能力値〉を指定してください", S_CHECK)
        found_ability = _find(sheet.abilities, ability)
        if found_ability is None:
            _reject("unknown_ability", f"{name}の個人設定用紙に〈{ability}〉がありません", S_CHECK)
        ability, ability_value = found_ability
        for use in spec.traits:
            found_trait = _find(sheet.traits, use.name)
            if found_trait is None and use.value is None:
                _reject(
                    "unknown_trait",
                    f"{name}は特徴「{strip_brackets(use.name)}」を持っていません",
                    S_TRAITS,
                )
            cp = found_trait[1].cp if found_trait else None
            stated = found_trait[1].modifier if found_trait else None
            if (
                use.value is not None
                and cp is not None
                and strip_brackets(use.name) in SOCIAL_TRAITS
                and (abs(use.value) > abs(cp) or use.value * cp < 0)
            ):
                # 五ノ七 特徴・性格と対人行為: the strongest effect is the CP spent (HD-20)
                _reject(
                    "trait_over_cp",
                    f"「{strip_brackets(use.name)}」の修正は消費CP（{cp}）を超えられません",
                    S_VARIOUS,
                )
            # 五ノ四: the trait's CP, unless the trait states its own modifier (HD-10)
            value = use.value if use.value is not None else stated if stated is not None else cp
            assert value is not None  # one of them is set: checked above
            traits.append(TraitApplied(name=strip_brackets(use.name), value=value, cp=cp))
    else:
        missing = None
        name = spec.name.strip()[:64] or "NPC"
        level = spec.level or 0
        kind = "skill" if (skill is not None or spec.level is not None) else None
        ability_value = spec.ability_value or 0
        for use in spec.traits:
            if use.value is None:
                _reject(
                    "trait_value_required",
                    "キャラクターのいない判定では特徴の修正値を指定してください",
                    S_TRAITS,
                )
            traits.append(TraitApplied(name=strip_brackets(use.name), value=use.value))
    # 五ノ一: with a skill an ability of 0 or less counts as 0 (HD-03); alone, only by option (G-HD-02)
    clamp = kind is not None or options.clamp_ability_only
    used = max(0, ability_value) if clamp else ability_value
    base = level + used + sum(t.value for t in traits) + spec.modifier
    return {
        "character_id": spec.character_id,
        "name": name,
        "skill": skill,
        "skill_kind": kind,
        "level": level,
        "ability": ability,
        "ability_value": ability_value,
        "ability_used": used,
        "traits": tuple(traits),
        "modifier": spec.modifier,
        "base": base,
        "missing_skill": missing,
    }


def _condition_modifiers(table: TableState, character_id: str | None) -> tuple[Modifier, ...]:
    """五ノ七: standing fatigue / hunger / drink conditions add to every difficulty (HD-18)."""
    if character_id is None:
        return ()
    cs = _game(table).characters.get(character_id)
    if cs is None or not cs.conditions:
        return ()
    tol = _sake_tolerance(_sheet(table, character_id))
    return tuple(
        Modifier(label=_condition_label(k), value=T.fatigue_modifier(k, tol)) for k in cs.conditions
    )


def _single(
    table: TableState,
    ctx: Context[HidenOptions],
    spec: CheckSpec,
    *,
    difficulty: int | None,
    target: int | None,
    simple: bool | None,
    kind: CheckKind = "check",
    label: str = "",
    **extra: Any,
) -> CheckRolled:
    options = ctx.options
    if difficulty is not None and target is not None:
        raise InvalidCommand(
            "give a difficulty or a fixed target, not both",
            detail="難易度か固定の目標値のどちらか一方を指定してください",
        )
    fields = _side_fields(table, spec, ctx, options)
    mods = _condition_modifiers(table, spec.character_id)
    use_simple = options.simple_target if simple is None else simple
    goal = make_target(
        difficulty, target, use_simple, mods, ctx.dice
    )  # the GM's 2D is rolled first
    side = roll_side(fields, ctx.dice)
    success = single_success(side, goal, options, kind=kind)
    if kind == "seizure":
        extra["incapacitated"] = success is False
    return CheckRolled(
        check_id=ctx.new_id("k"),
        kind=kind,
        side=side,
        target=goal,
        success=success,
        label=label.strip()[:200],
        secret_to=_secret_to(ctx),
        **extra,
    )


def _secret_to(ctx: Context[HidenOptions], check: OpenCheck | None = None) -> str | None:
    """Who a secret check belongs to: the roller of a secret check, or the sender of an
    ``S`` chat command (the core makes its events secret); ``None`` for an open check."""
    if check is not None and check.secret_to is not None:
        return check.secret_to
    return ctx.actor if ctx.secret else None


def _sees(ctx: Context[HidenOptions], check: OpenCheck) -> bool:
    """Whether the sender may see ``check`` (a secret check: its roller and the GM)."""
    return sees(Viewer(ctx.actor, ctx.role), check)


def _hidden(event: Event, secret_to: str | None, ctx: Context[HidenOptions]) -> Emitted:
    """``event`` about a secret check, seen by its roller and the GM (an ``S`` chat command's
    events the core makes secret itself)."""
    if secret_to is None or ctx.secret:
        return event
    tag = str(type(event).__struct_config__.tag)
    return Private(
        event=event, audience=(secret_to, GM), redacted=Redacted(of=tag, note="シークレットダイス")
    )


# --------------------------------------------------------------------------- decide


def decide(table: TableState, command: Any, ctx: Context[HidenOptions]) -> list[Emitted]:
    """The events of a 秘伝の声 command.

    Returns:
        ``hiden.check_rolled`` (Check, KanCheck, SeizureCheck), ``hiden.opposed_rolled``,
        ``hiden.check_rerolled``, ``hiden.zabuton_awarded``, ``hiden.zabuton_converted``
        (one per character), ``hiden.conditions_set`` or ``hiden.difficulty_computed``.

    Raises:
        Rejected: ``rule/hiden/<reason>`` with the chapter's section (the reasons: ``ERRORS``).
        Forbidden: ``command/forbidden``: a side of an 対抗判定 that is another's
            character, or a check without a character that only the GM may roll
            (the commands' declared permits are enforced by the core before).
        InvalidCommand: ``command/unknown_character``, or contradictory fields (``command/invalid``).
    """
    match command:
        case Check():
            return [
                _single(
                    table,
                    ctx,
                    command.spec(),
                    difficulty=command.difficulty,
                    target=command.target,
                    simple=command.simple,
                    label=command.label,
                )
            ]
        case OpposedCheck():
            return [_opposed(table, command, ctx)]
        case Oppose():
            return [_oppose(table, command, ctx)]
        case Reroll():
            return [_reroll(table, command, ctx)]
        case AwardZabuton():
            kit.character(table, command.character_id)
            have = _char_state(table, command.character_id).zabuton
            return [
                ZabutonAwarded(
                    character_id=command.character_id,
                    count=command.count,
                    reason=command.reason.strip()[:200],
                    zabuton=have + command.count,
                )
            ]
        case ConvertZabuton():
            return list(_convert(table, command, ctx))
        case KanCheck():
            spec = CheckSpec(
                character_id=command.character_id, ability="勘働き", modifier=command.modifier
            )
            return [
                _single(
                    table,
                    ctx,
                    spec,
                    difficulty=command.difficulty,
                    target=command.target,
                    simple=command.simple,
                    kind="kan",
                    label=command.label or "勘働き",
                )
            ]
        case SeizureCheck():
            situation = situation_key(command.situation)
            trait, difficulty = seizure_for(table, command.character_id, command.trait, situation)
            spec = CheckSpec(character_id=command.character_id, ability="気合い")
            return [
                _single(
                    table,
                    ctx,
                    spec,
                    difficulty=command.difficulty if command.difficulty is not None else difficulty,
                    target=None,
                    simple=command.simple,
                    kind="seizure",
                    label=f"{trait}・{T.SEIZURE[situation][0]}",
                    situation=situation,
                    trait=trait,
                    turn=command.turn,
                )
            ]
        case SetConditions():
            keys = tuple(dict.fromkeys(condition_key(c) for c in command.conditions))
            tol = _sake_tolerance(_sheet(table, command.character_id))
            return [
                ConditionsSet(
                    character_id=command.character_id,
                    conditions=keys,
                    modifier=sum(T.fatigue_modifier(k, tol) for k in keys),
                )
            ]
        case Jump():
            return [jump(table, command, ctx)]
        case Lift():
            return [lift(table, command, ctx)]
        case Visibility():
            return [visibility(table, command)]
        case Fatigue():
            return [fatigue(table, command)]
        case Seizure():
            situation = situation_key(command.situation)
            trait, difficulty = seizure_for(table, command.character_id, command.trait, situation)
            return [
                DifficultyComputed(
                    helper="seizure",
                    character_id=command.character_id,
                    parts=(
                        Modifier(label=f"「{trait}」{T.SEIZURE[situation][0]}", value=difficulty),
                    ),
                    difficulty=difficulty,
                    simple_target=T.simple_target(difficulty),
                    detail={
                        "trait": trait,
                        "situation": situation,
                        "combat": situation in T.COMBAT_SITUATIONS,
                    },
                    note="戦闘中は毎ターン判定します" if situation in T.COMBAT_SITUATIONS else "",
                )
            ]
        case _:
            raise InvalidCommand(
                f"{type(command).__name__} is not a command of hiden",
                code="command/unknown_command",
            )


def _char_state(table: TableState, character_id: str) -> CharState:
    return _game(table).characters.get(character_id) or CharState()


# --------------------------------------------------------------------------- opposed and reroll


def _opposed(table: TableState, command: OpposedCheck, ctx: Context[HidenOptions]) -> OpposedRolled:
    """五ノ六 対抗判定: the first actor rolls, then the second against that value (HD-13, HD-14).

    The GM, or a member who controls both characters (the command's permit), rolls it;
    a side without a character is the GM's.
    """
    options = ctx.options
    for spec in (command.first, command.second):
        if spec.character_id is None:
            _require_gm(ctx, "キャラクターのいない側がある対抗判定はGMが振ります")
    first_fields = _side_fields(table, command.first, ctx, options)
    second_fields = _side_fields(table, command.second, ctx, options)
    first = roll_side(first_fields, ctx.dice)
    second = roll_side(second_fields, ctx.dice)
    winner, compared, both = opposed_outcome(first, second, options.opposed_tie)
    return OpposedRolled(
        check_id=ctx.new_id("k"),
        first=first,
        second=second,
        compared=compared,
        both_fumble=both,
        tie=options.opposed_tie,
        winner=winner,
        label=command.label.strip()[:200],
        secret_to=_secret_to(ctx),
    )


def _oppose(table: TableState, command: Oppose, ctx: Context[HidenOptions]) -> Emitted:
    """五ノ六, in two steps: the second actor checks against an earlier 判定値 (HD-13, HD-14).

    The controller of the second character, or the GM, sends it. Against a
    secret check (seen only by its roller and the GM) the result is secret too.
    """
    options = ctx.options
    oc = _game(table).checks.get(command.against)
    if oc is None or not _sees(ctx, oc):
        _reject("unknown_check", f"対抗する判定 {command.against} がありません", S_OPPOSED)
    if oc.kind == "opposed" or oc.target is not None:
        _reject("not_opposable", "目標値のない判定値だけが対抗判定の目標値になります", S_OPPOSED)
    if command.second.character_id is None:
        _require_gm(ctx, "キャラクターのいない対抗はGMが振ります")
    else:
        _require_control(table, ctx, command.second.character_id)
    first = oc.sides[0]
    second = roll_side(_side_fields(table, command.second, ctx, options), ctx.dice)
    winner, compared, both = opposed_outcome(first, second, options.opposed_tie)
    secret_to = _secret_to(ctx, oc)
    event = OpposedResolved(
        check_id=ctx.new_id("k"),
        against=oc.check_id,
        first_name=first.name,
        first_value=first.value,
        first_effect=first.effect,
        second=second,
        compared=compared,
        both_fumble=both,
        tie=options.opposed_tie,
        winner=winner,
        label=command.label.strip()[:200],
        secret_to=secret_to,
    )
    return _hidden(event, secret_to, ctx)


def _reroll(table: TableState, command: Reroll, ctx: Context[HidenOptions]) -> Emitted:
    """五ノ五: spend one 座布団, reroll both dice; the new roll stands even when worse (HD-12).

    The sender controls the character (the permit covers a named ``character_id``;
    otherwise the sides are those the sender controls). A secret check stays
    secret; a secret reroll (``SZR``) makes the check secret from then on.
    """
    options = ctx.options
    if not options.zabuton_reroll:
        _reject("zabuton_reroll_off", "この卓では座布団による振り直しを使いません", S_ZABUTON)
    game = _game(table)
    wanted = command.character_id

    def candidates(oc: OpenCheck) -> list[int]:
        return [
            i
            for i, s in enumerate(oc.sides)
            if s.character_id is not None
            and (wanted is None or s.character_id == wanted)
            and ctx.controls(table, s.character_id)
        ]

    if command.check_id is not None:
        oc = game.checks.get(command.check_id)
        if oc is None or not _sees(ctx, oc):
            _reject("unknown_check", f"振り直せる判定 {command.check_id} がありません", S_ZABUTON)
    else:
        found = [c for c in reversed(game.checks.values()) if _sees(ctx, c) and candidates(c)]
        if not found:
            _reject("no_open_check", "座布団で振り直せる判定がありません", S_ZABUTON)
        oc = found[0]
    sides = candidates(oc)
    if not sides:
        with_char = [s.character_id for s in oc.sides if s.character_id is not None]
        if not with_char:
            _reject("no_character", "キャラクターのいない判定は座布団で振り直せません", S_ZABUTON)
        if wanted is not None and wanted not in with_char:
            _reject("not_in_check", "そのキャラクターはこの判定をしていません", S_ZABUTON)
        _require_control(table, ctx, wanted or with_char[0])  # Forbidden: another's character
        _reject("not_in_check", "そのキャラクターはこの判定をしていません", S_ZABUTON)
    if len(sides) > 1:
        _reject(
            "which_side", "どちらの側の座布団を使うか character_id で指定してください", S_ZABUTON
        )
    index = sides[0]
    old = oc.sides[index]
    assert old.character_id is not None  # candidates() keeps only sides with a character
    have = _char_state(table, old.character_id).zabuton
    if have < 1:
        _reject("no_zabuton", f"{old.name}は座布団を持っていません", S_ZABUTON)
    new = reroll_side(old, ctx.dice)
    rest: dict[str, Any] = {}
    if oc.kind == "opposed":
        first, second = replace_side(oc.sides, index, new)
        winner, compared, _ = opposed_outcome(first, second, options.opposed_tie)
        rest = {"winner": winner, "compared": compared}
    else:
        success = single_success(new, oc.target, options, kind=oc.kind)
        rest = {"success": success}
        if oc.kind == "seizure":
            rest["incapacitated"] = success is False
    secret_to = _secret_to(ctx, oc)
    event = CheckRerolled(
        check_id=oc.check_id,
        side_index=index,
        character_id=old.character_id,
        previous=old.roll.faces,
        side=new,
        zabuton_left=have - 1,
        secret_to=secret_to,
        **rest,
    )
    return _hidden(event, secret_to, ctx)


def _convert(
    table: TableState, command: ConvertZabuton, ctx: Context[HidenOptions]
) -> list[Emitted]:
    """五ノ五: 座布団 become CP after the session (a table option; rate ``cp_per_zabuton``)."""
    options = ctx.options
    if not options.zabuton_to_cp:
        _reject("conversion_off", "この卓では座布団をCPに変換しません", S_ZABUTON)
    if command.character_id is not None:
        kit.character(table, command.character_id)
        ids = [command.character_id]
    else:
        ids = list(table.characters)
    out: list[Emitted] = []
    for cid in ids:
        cs = _char_state(table, cid)
        if cs.zabuton > 0:
            cp = cs.zabuton * options.cp_per_zabuton
            out.append(
                ZabutonConverted(
                    character_id=cid, zabuton=cs.zabuton, cp=cp, cp_total=cs.cp_from_zabuton + cp
                )
            )
    if not out:
        _reject("nothing_to_convert", "変換する座布団がありません", S_ZABUTON)
    return out


# --------------------------------------------------------------------------- evolve


def _put_char(game: HidenState, cid: str, cs: CharState) -> HidenState:
    return msgspec.structs.replace(game, characters={**game.characters, cid: cs})


def _open(game: HidenState, oc: OpenCheck) -> HidenState:
    checks = {**game.checks, oc.check_id: oc}
    while len(checks) > MAX_OPEN_CHECKS:
        checks.pop(next(iter(checks)))
    return msgspec.structs.replace(game, checks=checks)


def evolve(
    game: HidenState | None, event: Event, table: TableState, options: HidenOptions
) -> HidenState:
    """Apply one stored event to the 秘伝の声 state. Never rejects, never rolls (options unused:
    every event records its outcome)."""
    if not isinstance(game, HidenState):
        game = HidenState()
    replace = msgspec.structs.replace
    match event:
        case CharacterCreated(character_id=cid, sheet=sheet):
            return _put_char(game, cid, CharState(zabuton=int(sheet.get("zabuton", 0) or 0)))
        case CharacterRemoved(character_id=cid):
            chars = dict(game.characters)
            chars.pop(cid, None)
            return replace(game, characters=chars)
        case CheckRolled():
            oc = OpenCheck(
                check_id=event.check_id,
                kind=event.kind,
                sides=(event.side,),
                target=event.target,
                success=event.success,
                secret_to=event.secret_to,
            )
            game = _open(game, oc)
            side_cid = event.side.character_id
            if event.incapacitated is not None and side_cid is not None:
                game = _put_char(
                    game, side_cid, replace(_cs(game, side_cid), incapacitated=event.incapacitated)
                )
            return game
        case OpposedRolled():
            oc = OpenCheck(
                check_id=event.check_id,
                kind="opposed",
                sides=(event.first, event.second),
                winner=event.winner,
                secret_to=event.secret_to,
            )
            return _open(game, oc)
        case OpposedResolved():
            earlier = game.checks.get(event.against)
            if earlier is None:
                return game  # it closed long ago: nothing left to reroll
            checks = {k: v for k, v in game.checks.items() if k != event.against}
            game = replace(game, checks=checks)
            oc = OpenCheck(
                check_id=event.check_id,
                kind="opposed",
                sides=(earlier.sides[0], event.second),
                winner=event.winner,
                secret_to=event.secret_to,
            )
            return _open(game, oc)
        case CheckRerolled():
            cs = replace(_cs(game, event.character_id), zabuton=event.zabuton_left)
            if event.incapacitated is not None:
                cs = replace(cs, incapacitated=event.incapacitated)
            game = _put_char(game, event.character_id, cs)
            old = game.checks.get(event.check_id)
            if old is None:
                return game
            sides = _replace_at(old.sides, event.side_index, event.side)
            secret_to = event.secret_to if event.secret_to is not None else old.secret_to
            now = replace(
                old, sides=sides, success=event.success, winner=event.winner, secret_to=secret_to
            )
            checks = {**game.checks, old.check_id: now}
            return replace(game, checks=checks)
        case ZabutonAwarded(character_id=cid, zabuton=n):
            return _put_char(game, cid, replace(_cs(game, cid), zabuton=n))
        case ZabutonConverted(character_id=cid, cp_total=cp):
            return _put_char(game, cid, replace(_cs(game, cid), zabuton=0, cp_from_zabuton=cp))
        case ConditionsSet(character_id=cid, conditions=conds):
            return _put_char(game, cid, replace(_cs(game, cid), conditions=conds))
        case _:
            return game


def _cs(game: HidenState, cid: str) -> CharState:
    return game.characters.get(cid) or CharState()


def _replace_at(sides: tuple[Side, ...], index: int, side: Side) -> tuple[Side, ...]:
    if not 0 <= index < len(sides):
        return sides
    return replace_side(sides, index, side)
