"""``evolve``: apply one stored event to the 澱み流れ state. Never rejects, never rolls."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast

import msgspec

from taku.core import kit
from taku.core.events import CharacterCreated, CharacterRemoved, CharacterUpdated, Event, Private
from taku.core.table import TableState
from taku_yodomi import events as E
from taku_yodomi.options import YodomiOptions
from taku_yodomi.state import Acted, CharState, Condition, Game, Phase, Process, Side

__all__ = ["evolve", "project"]

replace = msgspec.structs.replace


def _ch(game: Game, cid: str, **changes: Any) -> Game:
    c = game.chars.get(cid)
    if c is None:
        return game
    return replace(game, chars={**game.chars, cid: replace(c, **changes)})


def _without(cards: Iterable[str], gone: Iterable[str]) -> list[str]:
    gone_set = set(gone)
    return [c for c in cards if c not in gone_set]


def _set_combat(game: Game, **changes: Any) -> Game:
    assert game.combat is not None
    return replace(game, combat=replace(game.combat, **changes))


def _new_char(event: CharacterCreated) -> CharState:
    sh = event.sheet
    pp = int(sh.get("pp", 30))
    # the sheet passed the ruleset's sheet type (YodomiSheet.side is "pc" or "enemy")
    side = cast(Side, sh.get("side") or ("pc" if event.owner is not None else "enemy"))
    return CharState(
        pp=pp,
        sp=int(sh.get("sp", 60)),
        max_pp=pp,
        side=side,
        wealth=int(sh.get("wealth", 0)),
        item_pp=dict(sh.get("items") or {}),
    )


def evolve(
    game: Game, event: Event, table: TableState, options: YodomiOptions | None = None
) -> Game:
    """The state after ``event``; every value comes from the event (nothing is rolled here).

    ``options`` are not read: every value an option decided is in the event.
    """
    if not isinstance(game, Game):
        return game
    c: CharState | None  # each case's character (absent when the event names none known)
    match event:
        case CharacterCreated():
            return replace(
                game,
                chars={**game.chars, event.character_id: _new_char(event)},
                hands={**game.hands, event.character_id: []},
            )
        case CharacterUpdated():
            side = event.sheet.get("side")
            return _ch(game, event.character_id, side=side) if side in ("pc", "enemy") else game
        case CharacterRemoved():
            cid = event.character_id
            hand = game.hands.get(cid, [])
            chars = {k: v for k, v in game.chars.items() if k != cid}
            hands = {k: v for k, v in game.hands.items() if k != cid}
            return replace(game, chars=chars, hands=hands, discards=[*game.discards, *hand])
        # ---------------------------------------------------------------- pre-play
        case E.TrailerRead():
            return replace(game, trailer=event.text)
        case E.HandoutGiven():
            return replace(game, handouts={**game.handouts, event.character_id: event.text})
        case E.CharacterIntroduced():
            return replace(
                game, introductions={**game.introductions, event.character_id: event.text}
            )
        case E.KeyNumberRolled():
            return _ch(game, event.character_id, key_number=event.key_number)
        case E.SuitChosen():
            return _ch(game, event.character_id, suit=event.suit)
        # ---------------------------------------------------------------- deck
        case E.DeckShuffled():
            if event.reshuffle:
                return replace(
                    game,
                    deck=[*game.deck, *event.deck],
                    discards=_without(game.discards, event.deck),
                    deck_epoch=table.epoch,
                )
            return replace(game, deck=list(event.deck), shuffled=True, deck_epoch=table.epoch)
        case E.CardsDealt():
            hand = game.hands.get(event.character_id, [])
            return replace(
                game,
                deck=_without(game.deck, event.cards),
                hands={**game.hands, event.character_id: [*hand, *event.cards]},
            )
        case E.CardsGiven():
            src = _without(game.hands.get(event.from_character, []), event.cards)
            dst = [*game.hands.get(event.to_character, []), *event.cards]
            return replace(
                game, hands={**game.hands, event.from_character: src, event.to_character: dst}
            )
        case E.CardsDiscarded() | E.CardsPlayed():
            hand = _without(game.hands.get(event.character_id, []), event.cards)
            game = replace(
                game,
                hands={**game.hands, event.character_id: hand},
                discards=[*game.discards, *event.cards],
            )
            if isinstance(event, E.CardsDiscarded) and event.reason == "手札調整":
                game = _ch(game, event.character_id, cut_done=True)
            return game
        # ---------------------------------------------------------------- checks
        case E.CardsPassed(character_id=cid, check_id=kid):
            last = game.last_check.get(cid)
            if last is not None and last.check_id == kid:
                game = replace(
                    game, last_check={**game.last_check, cid: replace(last, cards_allowed=False)}
                )
            return replace(
                game,
                attacks={
                    aid: (
                        replace(a, hit=replace(a.hit, cards_allowed=False))
                        if a.hit.check_id == kid
                        else a
                    )
                    for aid, a in game.attacks.items()
                },
            )
        case E.CheckRolled() | E.CheckBoosted():
            k = event.check
            if k.purpose == "intuition" and k.character_id is not None:
                game = _ch(game, k.character_id, intuition_due=False)
            attacks = game.attacks
            if isinstance(event, E.CheckBoosted):
                attacks = {
                    aid: (replace(a, hit=k) if a.hit.check_id == k.check_id else a)
                    for aid, a in attacks.items()
                }
            if k.character_id is None:
                return replace(game, attacks=attacks)
            return replace(game, last_check={**game.last_check, k.character_id: k}, attacks=attacks)
        case E.ContinuousStarted():
            return replace(
                game,
                continuous={**game.continuous, event.continuous.continuous_id: event.continuous},
            )
        case E.ContinuousRolled():
            q = game.continuous.get(event.continuous_id)
            if q is None:
                return game
            chains = dict(q.chain_target)
            done = list(q.done_this_round)
            if event.next_target is None:
                chains.pop(event.character_id, None)
                if event.character_id not in done:
                    done.append(event.character_id)
            else:
                chains[event.character_id] = event.next_target
            q = replace(
                q,
                points=event.points,
                chain_target=chains,
                done_this_round=done,
                finished=event.finished,
                success=event.success,
            )
            return replace(game, continuous={**game.continuous, q.continuous_id: q})
        case E.ContinuousRoundAdvanced():
            q = game.continuous.get(event.continuous_id)
            if q is None:
                return game
            q = replace(
                q,
                round=event.round,
                chain_target={},
                done_this_round=[],
                finished=event.finished,
                success=event.success if event.finished else q.success,
            )
            return replace(game, continuous={**game.continuous, q.continuous_id: q})
        # ---------------------------------------------------------------- scenes
        case E.SceneStarted():
            sc = event.scene
            chars = {}
            for cid, c in game.chars.items():
                changes: dict[str, Any] = dict(
                    in_scene=cid in sc.present,
                    appeared=cid in sc.present,
                    backstage_done=False,
                    backstage_recovered=False,
                    backstage_purchase_done=False,
                    backstage_skill_done=False,
                    path_done=False,
                    emotion_done=False,
                    cut_done=False,
                )
                if cid in event.recovered:
                    changes.update(
                        pp=1,
                        condition=Condition.ACTIVE,
                        recover_next_scene=False,
                        may_convert=False,
                    )
                chars[cid] = replace(c, **changes)
            return replace(game, chars=chars, scene=sc, scene_count=sc.number, phase=Phase.SCENE)
        case E.SceneEntered():
            game = _ch(game, event.character_id, in_scene=True, appeared=True)
            cb = game.combat
            if cb is not None and event.character_id not in cb.participants:
                # YD-30: entering during a fight joins it, in an engagement of one's own
                eid = f"e{cb.next_engagement}"
                ready = cb.process == Process.SETUP or (
                    cb.process == Process.INITIATIVE and cb.actor is None
                )
                game = _ch(
                    game,
                    event.character_id,
                    acted=Acted.UNACTED if ready and cb.process != Process.SETUP else Acted.ACTED,
                )
                game = _set_combat(
                    game,
                    participants=[*cb.participants, event.character_id],
                    engagements={**cb.engagements, eid: [event.character_id]},
                    next_engagement=cb.next_engagement + 1,
                )
            if game.scene is not None and event.character_id not in game.scene.present:
                game = replace(
                    game,
                    scene=replace(game.scene, present=[*game.scene.present, event.character_id]),
                )
            return game
        case E.SceneLeft():
            game = _ch(game, event.character_id, in_scene=False)
            if game.scene is not None:
                game = replace(
                    game,
                    scene=replace(
                        game.scene,
                        present=[c for c in game.scene.present if c != event.character_id],
                    ),
                )
            return game
        case E.TopicNoted():
            if game.scene is None:
                return game
            return replace(game, scene=replace(game.scene, topics=[*game.scene.topics, event.text]))
        case E.SceneEnded():
            chars = {}
            for cid, c in game.chars.items():
                st = dict(c.statuses)
                if cid in event.poison_cleared:
                    st.pop("毒", None)
                changes = {"statuses": st}
                if cid in event.vanished:
                    changes["condition"] = Condition.VANISHED
                if c.condition == Condition.INCAPACITATED:
                    changes["recover_next_scene"] = True
                chars[cid] = replace(c, **changes)
            return replace(game, chars=chars, phase=Phase.SCENE_END, combat=None, attacks={})
        case E.BackstageRecovered():
            return _ch(
                game, event.character_id, pp=event.pp, backstage_done=True, backstage_recovered=True
            )
        case E.BackstageSkillUsed():
            return _ch(game, event.character_id, backstage_skill_done=True, backstage_done=True)
        case E.PathGained():
            c = game.chars.get(event.character_id)
            if c is None:
                return game
            return _ch(
                game,
                event.character_id,
                paths=[*c.paths, event.path],
                path_done=True,
                backstage_done=True,
            )
        case E.EmotionChanged():
            c = game.chars.get(event.character_id)
            if c is None:
                return game
            paths = [
                replace(p, emotion=event.emotion) if p.target == event.target else p
                for p in c.paths
            ]
            return _ch(
                game, event.character_id, paths=paths, emotion_done=True, backstage_done=True
            )
        case E.SceneEndClosed():
            return replace(game, phase=Phase.FINISHED if event.final else Phase.BETWEEN, scene=None)
        case E.PurchaseRolled():
            c = game.chars.get(event.character_id)
            if c is None:
                return game
            if event.backstage:
                return _ch(
                    game,
                    event.character_id,
                    wealth=event.wealth,
                    backstage_purchase_done=True,
                    backstage_done=True,
                )
            return _ch(
                game, event.character_id, wealth=event.wealth, last_purchase_scene=game.scene_count
            )
        # ---------------------------------------------------------------- damage and states
        case E.Damaged():
            if event.to == "item" and event.item is not None:
                c = game.chars.get(event.character_id)
                if c is None:
                    return game
                return _ch(
                    game, event.character_id, item_pp={**c.item_pp, event.item: event.item_pp or 0}
                )
            return _ch(game, event.character_id, pp=event.pp, sp=event.sp)
        case E.ConditionChanged():
            cond = Condition(event.condition)
            changes = {"condition": cond}
            if cond == Condition.INCAPACITATED:
                changes["may_convert"] = True
            if cond in (Condition.DEAD, Condition.VANISHED):
                changes["may_convert"] = False
            return _ch(game, event.character_id, **changes)
        case E.StatusAdded():
            c = game.chars.get(event.character_id)
            if c is None:
                return game
            if event.status == "使用不能":
                items = (
                    c.disabled_items
                    if event.item in c.disabled_items
                    else [*c.disabled_items, event.item or ""]
                )
                return _ch(game, event.character_id, disabled_items=items)
            changes = {"statuses": {**c.statuses, event.status: event.x}}
            if event.status == "極技":
                changes["kiwaza_by"] = event.by
            if event.status == "飛行":
                changes["flying"] = True
            return _ch(game, event.character_id, **changes)
        case E.StatusRemoved():
            c = game.chars.get(event.character_id)
            if c is None:
                return game
            if event.status == "使用不能":
                return _ch(
                    game,
                    event.character_id,
                    disabled_items=[i for i in c.disabled_items if i != event.item],
                )
            st = {k: v for k, v in c.statuses.items() if k != event.status}
            return _ch(
                game,
                event.character_id,
                statuses=st,
                kiwaza_by=None if event.status == "極技" else c.kiwaza_by,
            )
        case E.CostPaid():
            c = game.chars.get(event.character_id)
            if c is None:
                return game
            return _ch(
                game,
                event.character_id,
                pp=event.pp,
                sp=event.sp,
                intuition_due=c.intuition_due or event.intuition_due,
            )
        case E.ConversionResolved():
            c = game.chars.get(event.character_id)
            if c is None:
                return game
            cond = {
                "success": Condition.ACTIVE,
                "full": Condition.ACTIVE,
                "failure": Condition.INCAPACITATED,
                "complete_failure": Condition.DEAD,
            }[event.outcome]
            changes = {"pp": event.pp, "sp": event.sp, "condition": cond, "may_convert": False}
            if event.outcome in ("success", "full"):
                changes["statuses"] = {}
                changes["full_conversion_pending"] = event.outcome == "full"
                cb = game.combat
                if (
                    cb is not None
                    and event.character_id in cb.participants
                    and cb.process == Process.INITIATIVE
                ):
                    changes["acted"] = Acted.UNACTED
            return _ch(game, event.character_id, **changes)
        case E.FullConversionDone():
            return _ch(
                game, event.character_id, pp=event.pp, sp=event.sp, full_conversion_pending=False
            )
        case E.DeathChosen():
            cond = Condition.FLOW_DEATH if event.choice == "flow" else Condition.YODOMI_LIFE
            return _ch(
                game,
                event.character_id,
                condition=cond,
                sp=event.sp,
                receives_flow=False,
                pp=0 if event.choice == "yodomi" else game.chars[event.character_id].pp,
            )
        case E.FlagChanged():
            if event.flag in ("flying", "stealth"):
                return _ch(game, event.character_id, **{event.flag: bool(event.value)})
            if event.flag == "passenger_of":
                return _ch(
                    game,
                    event.character_id,
                    passenger_of=event.value if isinstance(event.value, str) else None,
                )
            return game
        # ---------------------------------------------------------------- combat
        case E.CombatStarted():
            chars = {
                cid: (replace(c, acted=Acted.ACTED) if cid in event.combat.participants else c)
                for cid, c in game.chars.items()
            }
            return replace(game, combat=event.combat, chars=chars)
        case E.SetupDone():
            if game.combat is None:
                return game
            chars = dict(game.chars)
            for cid in event.unacted:
                if cid in chars:
                    chars[cid] = replace(chars[cid], acted=Acted.UNACTED)
            for cid in event.acted:
                if cid in chars:
                    c = chars[cid]
                    chars[cid] = replace(
                        c, acted=Acted.ACTED, may_convert=c.condition == Condition.INCAPACITATED
                    )
            return replace(
                game,
                chars=chars,
                combat=replace(game.combat, process=Process.INITIATIVE, actor=None, waiting=[]),
            )
        case E.ActorChosen():
            if game.combat is None:
                return game
            if event.character_id is None:
                return _set_combat(
                    game, process=Process.CLEANUP, actor=None, minor_done=False, major_done=False
                )
            return _set_combat(
                game,
                process=Process.MAIN,
                actor=event.character_id,
                minor_done=False,
                major_done=False,
            )
        case E.Waited():
            if game.combat is None:
                return game
            return _set_combat(game, waiting=[*game.combat.waiting, event.character_id])
        case E.ActionUsed():
            cb = game.combat
            c = game.chars.get(event.character_id)
            if event.action == "major" and c is not None and c.stealth and event.what != "隠密":
                game = _ch(game, event.character_id, stealth=False)
            if cb is None or cb.actor != event.character_id:
                return game
            if event.action == "minor":
                return _set_combat(game, minor_done=True)
            game = _ch(game, event.character_id, acted=Acted.ACTED)
            return _set_combat(
                game, major_done=True, waiting=[w for w in cb.waiting if w != event.character_id]
            )
        case E.CleanupDone():
            if game.combat is None:
                return game
            return _set_combat(game, process=Process.SETUP, round=event.round + 1, actor=None)
        case E.CombatEnded():
            chars = {cid: replace(c, acted=Acted.NONE) for cid, c in game.chars.items()}
            return replace(game, combat=None, chars=chars, attacks={})
        case E.Moved():
            cb = game.combat
            if cb is None:
                return game
            movers = (event.character_id, *event.passengers)
            engs = {eid: [m for m in ms if m not in movers] for eid, ms in cb.engagements.items()}
            engs[event.engagement] = [*engs.get(event.engagement, []), *movers]
            engs = {eid: ms for eid, ms in engs.items() if ms}
            blockers = {
                eid: [b for b in bs if b in engs.get(eid, [])]
                for eid, bs in cb.blockers.items()
                if eid in engs
            }
            nxt = cb.next_engagement + 1 if event.disengage else cb.next_engagement
            return _set_combat(game, engagements=engs, blockers=blockers, next_engagement=nxt)
        case E.Blocked():
            cb = game.combat
            if cb is None:
                return game
            bs = cb.blockers.get(event.engagement, [])
            return _set_combat(
                game,
                blockers={
                    **cb.blockers,
                    event.engagement: bs if event.character_id in bs else [*bs, event.character_id],
                },
            )
        case E.AttackDeclared():
            return replace(game, attacks={**game.attacks, event.attack.attack_id: event.attack})
        case E.Covered():
            a = game.attacks.get(event.attack_id)
            if a is None:
                return game
            game = _ch(game, event.character_id, acted=Acted.ACTED)
            return replace(
                game,
                attacks={**game.attacks, a.attack_id: replace(a, covered_by=event.character_id)},
            )
        case E.AttackResolved():
            return replace(
                game, attacks={k: v for k, v in game.attacks.items() if k != event.attack_id}
            )
        case _:
            return game


def project(table: TableState, emitted: Iterable[Event | Private]) -> TableState:
    """``table`` with ``emitted`` applied (inside a decider, to decide what follows them)."""
    acc: kit.Emit[Game, YodomiOptions] = kit.Emit(table, evolve, table.rules)
    acc.extend(list(emitted))
    return replace(table, game=acc.game)
