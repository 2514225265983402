"""``affordances`` and ``turn`` of the ``chabu`` ruleset: what a viewer may do now, whose turn it is.

Pure readings of the state (:mod:`taku.core.play`). Everything a player or
the GM does in チャブＲＰＧ is offered here, only when the rules and the
viewer's role allow it (the decider stays the judge):

- any time: 判定 and 対抗判定 of one's own characters, spending a
  タツジン／ワザマエカウンター (ディセンション for a 死亡 DL 0 character);
- a declaration waiting for 刹那 (CH-27): 進行 for its declarer, 刹那 特技 for
  everyone's characters; a hit waiting for 回避判定 (CH-21): 回避判定 or not,
  for the targets' owners;
- no declaration open: the 活劇 (攻撃, 活劇特技, 移動; CH-16) of a character
  whose turn it is in ラウンド進行 (with 待機宣言 and 行動放棄, CH-13…CH-15),
  or of any character outside the combat;
- the GM: ラウンド進行 (start, end, the agreed order), 射程, and values.

There is no hidden information in the game, so nothing is redacted.
"""

from __future__ import annotations

from typing import Any

from taku.core import kit
from taku.core.play import Affordance, Choice, Turn, TurnSlot
from taku.core.ruleset import Role, Viewer
from taku_chabu._rules import current_actor, initiative_order, is_down, is_pc, sheet_of
from taku_chabu.options import RANGE_JA, ChabuOptions, Range
from taku_chabu.state import ChabuSheet, ChabuState, CharState, Pending, Tokugi, can_target

__all__ = ["affordances", "turn"]

REACTION = "反応"


def _game(table: Any) -> ChabuState:
    return table.game if isinstance(table.game, ChabuState) else ChabuState()


def _name(table: Any, cid: str) -> str:
    return kit.character_name(table, cid)


def _controls(table: Any, viewer: Viewer, cid: str) -> bool:
    ch = table.characters.get(cid)
    return ch is not None and (
        viewer.is_gm or (ch.owner is not None and ch.owner == viewer.member_id)
    )


def _primary_for(table: Any, viewer: Viewer, cid: str) -> bool:
    """Whether ``cid``'s next step is ``viewer``'s to take first: its player's, or the GM's for an NPC."""
    ch = table.characters.get(cid)
    if ch is None:
        return False
    owner = table.members.get(ch.owner) if ch.owner is not None else None
    if owner is not None and owner.role != Role.SPECTATOR and owner.present:
        return owner.id == viewer.member_id
    return viewer.is_gm


def _distance(game: ChabuState, options: ChabuOptions, a: str, b: str) -> Range | None:
    return game.ranges.get(a, {}).get(b) or options.default_range


def _target_choices(
    table: Any,
    game: ChabuState,
    options: ChabuOptions,
    user: str,
    reach: Range | None,
    *,
    self_too: bool,
) -> list[Choice]:
    """The characters ``user`` may target with 射程 ``reach`` (CH-18): alive, within range."""
    out = []
    for cid, cs in game.chars.items():
        if cs.dead or cid not in table.characters:
            continue
        if cid == user:
            if self_too:
                out.append(Choice(value=cid, label=f"{_name(table, cid)}（自分）"))
            continue
        if reach is not None:
            distance = _distance(game, options, user, cid)
            if distance is None or not can_target(reach, distance):
                continue
        label = _name(table, cid)
        if reach is not None:
            label += f"（{RANGE_JA[_distance(game, options, user, cid) or 'short']}）"
        out.append(Choice(value=cid, label=label))
    return out


def _check_choices(sheet: ChabuSheet) -> dict[str, list[Choice]]:
    return {
        "ability": [Choice(value=a, label=f"{a}（{v}）") for a, v in sheet.abilities.items()],
        "skill": [
            Choice(value=None, label="技能なし"),
            *(Choice(value=k, label=f"{k}（+{v}）") for k, v in sheet.skills.items()),
        ],
    }


def _sides(table: Any, cid: str) -> list[Choice]:
    """One 対抗判定 side per 能力値 (+ 技能) of ``cid``."""
    sheet = sheet_of(table, cid)
    name = _name(table, cid)
    out = []
    for ab, v in sheet.abilities.items():
        out.append(Choice(value={"character_id": cid, "ability": ab}, label=f"{name}: {ab}（{v}）"))
        for sk, w in sheet.skills.items():
            out.append(
                Choice(
                    value={"character_id": cid, "ability": ab, "skill": sk},
                    label=f"{name}: {ab}+{sk}（{v + w}）",
                )
            )
    return out


def _can_pay(tk: Tokugi, cs: CharState) -> bool:
    """Whether ``cs`` can pay ``tk``'s コスト (CH-30; a タツジンカウンター may pay for a ワザマエ, CH-07)."""
    spare = cs.tatsujin - tk.cost.tatsujin
    return tk.cost.hp <= cs.hp and spare >= 0 and tk.cost.wazamae <= cs.wazamae + spare


def _tokugi(
    table: Any,
    game: ChabuState,
    options: ChabuOptions,
    cid: str,
    tk: Tokugi,
    *,
    primary: bool = False,
) -> Affordance | None:
    """``chabu.use_tokugi`` for ``tk``, or ``None`` when it cannot be used now."""
    cs = game.chars[cid]
    if not _can_pay(tk, cs):
        return None
    sheet = sheet_of(table, cid)
    choices: dict[str, list[Choice]] = {}
    if tk.targets > 0:
        targets = _target_choices(table, game, options, cid, tk.range, self_too=not tk.is_attack)
        if not targets:
            return None
        choices["targets"] = targets
    if tk.category is not None:
        worn = [e for e in sheet.equipment if e.equipped and e.category == tk.category]
        if len(worn) > 1:
            choices["equipment"] = [
                Choice(value=e.name, label=f"{e.name}（威力{e.power}）") for e in worn
            ]
    timing = "刹那" if tk.timing == "setsuna" else "活劇"
    return Affordance(
        command="chabu.use_tokugi",
        label=f"{timing}特技「{tk.name}」",
        args={"character_id": cid, "tokugi": tk.name},
        choices=choices,
        group=_name(table, cid),
        primary=primary,
    )


def _katsugeki(
    table: Any, viewer: Viewer, game: ChabuState, options: ChabuOptions, cid: str, *, in_round: bool
) -> list[Affordance]:
    """The 活劇 of ``cid`` (CH-16): attacks with its equipment, 活劇 特技, 移動; in a round 待機 and 行動放棄."""
    sheet = sheet_of(table, cid)
    group = _name(table, cid)
    primary = in_round and _primary_for(table, viewer, cid)
    out: list[Affordance] = []
    for eq in sheet.equipment:
        if not eq.equipped or eq.check is None:
            continue
        targets = _target_choices(table, game, options, cid, eq.range, self_too=False)
        if targets:
            out.append(
                Affordance(
                    command="chabu.attack",
                    label=f"攻撃: {eq.name}（威力{eq.power}、{RANGE_JA[eq.range]}）",
                    args={"character_id": cid, "equipment": eq.name},
                    choices={"targets": targets},
                    group=group,
                    primary=primary and not out,
                )
            )
    for tk in sheet.tokugi:
        if tk.timing != "katsugeki" or (tk.in_rounds_only and game.combat is None):
            continue
        if (a := _tokugi(table, game, options, cid, tk, primary=primary and not out)) is not None:
            out.append(a)
    out.append(
        Affordance(command="chabu.move", label="移動", args={"character_id": cid}, group=group)
    )
    if in_round:
        rnd = game.combat.round if game.combat is not None else None
        if rnd is not None and cid not in rnd.waiting:
            out.append(
                Affordance(
                    command="chabu.wait", label="待機宣言", args={"character_id": cid}, group=group
                )
            )
        out.append(
            Affordance(
                command="chabu.pass",
                label="行動放棄",
                args={"character_id": cid},
                group=group,
                primary=primary and not out,
            )
        )
    return out


def _pending(
    table: Any, viewer: Viewer, game: ChabuState, options: ChabuOptions, p: Pending
) -> list[Affordance]:
    """進行, 刹那 特技 (CH-27), 回避判定 or not (CH-21) for the open declaration."""
    out: list[Affordance] = []
    what = p.label or "宣言"
    if p.stage == "declared" and _controls(table, viewer, p.actor):
        out.append(
            Affordance(
                command="chabu.proceed",
                label=f"{_name(table, p.actor)}の「{what}」を解決する（進行）",
                group=_name(table, p.actor),
                primary=_primary_for(table, viewer, p.actor),
            )
        )
    if p.stage == "evasion":
        for t in p.awaiting:
            if not _controls(table, viewer, t):
                continue
            group = _name(table, t)
            primary = _primary_for(table, viewer, t)
            can_evade = REACTION in sheet_of(table, t).abilities
            if can_evade:
                out.append(
                    Affordance(
                        command="chabu.evade",
                        label=f"回避判定（反応{sheet_of(table, t).abilities[REACTION]}）: {_name(table, p.actor)}の「{what}」",
                        args={"character_id": t},
                        group=group,
                        primary=primary,
                    )
                )
            out.append(
                Affordance(
                    command="chabu.decline",
                    label=f"回避せずに受ける: {_name(table, p.actor)}の「{what}」",
                    args={"character_id": t},
                    group=group,
                    primary=primary and not can_evade,
                )
            )
    used = {tuple(x) for x in p.setsuna}
    for cid, cs in game.chars.items():
        if is_down(cs) or not _controls(table, viewer, cid):
            continue
        for tk in sheet_of(table, cid).tokugi:
            if tk.timing != "setsuna" or tk.is_attack or (cid, tk.name) in used:
                continue
            if tk.in_rounds_only and game.combat is None:
                continue
            if (a := _tokugi(table, game, options, cid, tk)) is not None:
                out.append(a)
    return out


def _anytime(
    table: Any, viewer: Viewer, game: ChabuState, options: ChabuOptions, *, checks: bool
) -> list[Affordance]:
    """判定 (``checks``: not while a declaration is open and every check is held), 対抗判定
    and counters of the viewer's characters (no turn needed)."""
    out: list[Affordance] = []
    mine = [cid for cid in game.chars if _controls(table, viewer, cid)]
    for cid in mine:
        cs = game.chars[cid]
        sheet = sheet_of(table, cid)
        group = _name(table, cid)
        if checks and not cs.dead and sheet.abilities:
            out.append(
                Affordance(
                    command="chabu.check",
                    label="判定",
                    args={"character_id": cid},
                    choices=_check_choices(sheet),
                    group=group,
                )
            )
        descension = cs.dead and sheet.dl == 0
        for counter, held, ja in (
            ("tatsujin", cs.tatsujin, "タツジン"),
            ("wazamae", cs.wazamae, "ワザマエ"),
        ):
            if held < 1 or (cs.dead and not descension):
                continue
            rise = options.wazamae_ingaoho if counter == "wazamae" else 0
            if descension and cs.ingaoho + rise >= 100:
                continue
            label = (
                f"{ja}カウンターでディセンション"
                if descension
                else f"{ja}カウンターを使う（残り{held}）"
            )
            out.append(
                Affordance(
                    command="chabu.spend_counter",
                    label=label,
                    args={"character_id": cid, "counter": counter},
                    group=group,
                )
            )
    mine_sides = [s for cid in mine if not game.chars[cid].dead for s in _sides(table, cid)]
    others = [
        s
        for cid, cs in game.chars.items()
        if not cs.dead and cid in table.characters
        for s in _sides(table, cid)
    ]
    if mine_sides:
        out.append(
            Affordance(
                command="chabu.opposed_check",
                label="対抗判定",
                choices={"a": mine_sides, "b": others},
            )
        )
    return out


def _conditions(table: Any, game: ChabuState) -> tuple[list[Choice], list[Choice]]:
    """Ready-made 勝利条件 and 敗北条件 (CH-10): the NPCs' or the PCs' 全滅, or the GM's word."""
    alive = [cid for cid, cs in game.chars.items() if not cs.dead and cid in table.characters]
    pcs = [c for c in alive if is_pc(table, c)]
    npcs = [c for c in alive if not is_pc(table, c)]
    manual_v = Choice(value={"text": "GMが宣言する", "kind": "manual"}, label="GMが宣言する")
    manual_d = Choice(value={"text": "GMが宣言する", "kind": "manual"}, label="GMが宣言する")
    victory = [manual_v]
    defeat = [manual_d]
    if npcs:
        victory.insert(
            0,
            Choice(
                value={"text": "敵の全滅", "kind": "all_down", "characters": npcs},
                label="敵（NPC）の全滅",
            ),
        )
    if pcs:
        defeat.insert(
            0,
            Choice(
                value={"text": "PCの全滅", "kind": "all_down", "characters": pcs}, label="PCの全滅"
            ),
        )
    return victory, defeat


def _gm(table: Any, game: ChabuState) -> list[Affordance]:
    """The GM's own commands: ラウンド進行, the agreed order, 射程, values."""
    out: list[Affordance] = []
    chars = [
        Choice(value=cid, label=_name(table, cid)) for cid in game.chars if cid in table.characters
    ]
    if game.combat is None:
        alive = [
            Choice(value=cid, label=_name(table, cid))
            for cid, cs in game.chars.items()
            if not cs.dead and cid in table.characters
        ]
        if alive:
            victory, defeat = _conditions(table, game)
            out.append(
                Affordance(
                    command="chabu.start_combat",
                    label="ラウンド進行を始める",
                    choices={"victory": victory, "defeat": defeat, "participants": alive},
                )
            )
    else:
        out.append(
            Affordance(
                command="chabu.end_combat",
                label="ラウンド進行を終える",
                choices={
                    "outcome": [
                        Choice(value="victory", label="勝利"),
                        Choice(value="defeat", label="敗北"),
                        Choice(value="aborted", label="中断"),
                    ]
                },
            )
        )
        participants = [
            Choice(value=c, label=_name(table, c))
            for c in game.combat.participants
            if c in table.characters
        ]
        out.append(
            Affordance(
                command="chabu.set_order",
                label="同順位の行動順を決める",
                choices={"agreed_order": participants},
            )
        )
    if len(chars) >= 2:
        out.append(
            Affordance(
                command="chabu.set_range",
                label="射程を決める",
                choices={
                    "a": chars,
                    "b": chars,
                    "range": [Choice(value=k, label=v) for k, v in RANGE_JA.items()],
                },
            )
        )
    if chars:
        keys = [
            Choice(value="hp", label="HP"),
            Choice(value="ingaoho", label="インガオホー値"),
            Choice(value="tatsujin", label="タツジンカウンター"),
            Choice(value="wazamae", label="ワザマエカウンター"),
        ]
        out.append(
            Affordance(
                command="chabu.adjust",
                label="値を変える",
                choices={"character_id": chars, "key": keys},
                fields=["delta", "value", "reason"],  # by how much, or to what: the GM's to say
            )
        )
    return out


def affordances(table: Any, viewer: Viewer, options: ChabuOptions | None) -> list[Affordance]:
    """What ``viewer`` may do now in チャブＲＰＧ (the core adds chat, dice and characters).

    Returns:
        A list of :class:`~taku.core.play.Affordance`; ``primary`` marks the
        expected next step (the acting character's 活劇, 進行, a target's 回避判定).
        Empty for a spectator or a stranger.
    """
    if viewer.member_id is None or viewer.role == Role.SPECTATOR:
        return []
    opts = options or ChabuOptions()
    game = _game(table)
    out: list[Affordance] = []
    p = game.pending
    if p is not None:
        out += _pending(table, viewer, game, opts, p)
    else:
        combat = game.combat
        rnd = combat.round if combat is not None else None
        actor = current_actor(game, table)
        for cid, cs in game.chars.items():
            if is_down(cs) or not _controls(table, viewer, cid):
                continue
            in_round = rnd is not None and combat is not None and cid in combat.participants
            if in_round and cid != actor:
                continue
            out += _katsugeki(table, viewer, game, opts, cid, in_round=in_round)
    out += _anytime(table, viewer, game, opts, checks=p is None or not opts.always_hold)
    if viewer.is_gm:
        out += _gm(table, game)
    return out


def _order_value(table: Any, game: ChabuState, cid: str) -> str:
    """What the イニシアティヴ order was built from (CH-12): DL, インガオホー値, PC or NPC."""
    cs = game.chars.get(cid, CharState())
    return f"DL{sheet_of(table, cid).dl}／インガオホー値{cs.ingaoho}／{'PC' if is_pc(table, cid) else 'NPC'}"


_PHASES = {
    "main": "メインフェイズ",
    "setsuna": "メインフェイズ（刹那の割り込み待ち）",
    "evasion": "メインフェイズ（回避判定）",
}


def turn(table: Any, options: ChabuOptions | None) -> Turn | None:
    """Whose turn it is in ラウンド進行 (チャブ ■戦闘の流れ, CH-10…CH-17), or ``None`` outside it.

    ``phase`` is ``main`` (メインフェイズ), ``setsuna`` (a declaration waits for
    刹那) or ``evasion`` (a hit waits for 回避判定); the イニシアティヴ決定
    フェイズ and the エンドフェイズ pass at once. ``order`` is the acting order
    (those who did not 待機 first, then the waiters by the same criteria),
    each with the DL / インガオホー値 / PC it was ordered by, ``done`` when
    行動完了 or 戦闘不能.
    """
    game = _game(table)
    combat = game.combat
    if combat is None or combat.round is None:
        return None
    rnd = combat.round
    waiting = [c for c in rnd.order if c in rnd.waiting]
    acting = [c for c in rnd.order if c not in rnd.waiting] + initiative_order(
        table, game, combat, waiting
    )
    order = [
        TurnSlot(
            id=cid,
            label=_name(table, cid),
            value=_order_value(table, game, cid),
            done=cid in rnd.done or is_down(game.chars.get(cid)),
        )
        for cid in acting
    ]
    actor = current_actor(game, table)
    p = game.pending
    phase = "main" if p is None else "setsuna" if p.stage == "declared" else "evasion"
    return Turn(
        actor=actor,
        actor_label=_name(table, actor) if actor is not None else "",
        phase=phase,
        phase_label=_PHASES[phase],
        round=rnd.number,
        round_label=f"第{rnd.number}ラウンド",
        order=order,
    )
