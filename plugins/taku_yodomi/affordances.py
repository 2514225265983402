"""What each viewer may do now at a 澱み流れ table, and whose turn it is (:mod:`taku.core.play`).

``affordances(table, viewer, options)`` lists the 澱み流れ actions the viewer may
take now, for the characters the viewer plays: a player's own characters; for a
GM, the NPCs (characters without an owner) plus the GM's own commands. Cards
are offered only from hands the viewer sees (:func:`taku_yodomi.view.sees_hand`):
a player's own hand, a GM's NPC hands (every hand with ``gm_sees_hands``), so no
label or choice names a card the viewer may not see. Check ids, attack ids and
continuous ids are decided in ``args``; the expected next step is ``primary``.

``turn(table, options)``: in a fight, the round, the process and the actor with
the initiative order (【行動値】, PCs first on ties, G-YD-09); outside a fight, the
scene, its phase and its scene player (澱み流れ シーンルール).
"""

from __future__ import annotations

from typing import Any

from taku.core import kit
from taku.core.play import Affordance, Choice, Turn, TurnSlot
from taku.core.ruleset import Viewer
from taku.core.table import TableState
from taku_yodomi._cards import SUIT_NAMES, SUITS, card_label, flow_bonus, suit_of
from taku_yodomi._common import MINOR_REMOVABLE, SETTLED_PURPOSES
from taku_yodomi.options import YodomiOptions
from taku_yodomi.state import (
    Acted,
    CharState,
    Check,
    Combat,
    Condition,
    Game,
    Phase,
    Process,
    SceneKind,
)
from taku_yodomi.view import sees_hand

__all__ = ["affordances", "turn"]

T = "yodomi."
_IN_PLAY = (Condition.ACTIVE, Condition.YODOMI_LIFE)
_GONE = (Condition.VANISHED, Condition.FLOW_DEATH)
_SCENE_KIND = {
    "opening": "オープニング",
    "middle": "ミドル",
    "climax": "クライマックス",
    "ending": "エンディング",
}
_PROCESS = {
    Process.SETUP: "セットアッププロセス",
    Process.INITIATIVE: "イニシアチブプロセス",
    Process.MAIN: "メインプロセス",
    Process.CLEANUP: "クリンナッププロセス",
}
_PHASE = {
    Phase.PREPLAY: "プリプレイ",
    Phase.SCENE: "シーン",
    Phase.SCENE_END: "シーン終了時（舞台裏→パス→「流れ」の調整）",
    Phase.BETWEEN: "シーンの間",
    Phase.FINISHED: "セッション終了",
}
_CHECK_KINDS = [Choice(value="2d9", label="2D9判定"), Choice(value="d99", label="D99判定")]
_DEFENCE_MODES = [
    Choice(value="evasion", label="【回避値】で回避"),
    Choice(value="ability", label="能力値で防御"),
    Choice(value="counter", label="突き返し"),
    Choice(value="none", label="振らない"),
]


def _name(table: TableState, cid: str | None) -> str:
    return kit.character_name(table, cid)


def _chars(table: TableState, ids: Any) -> list[Choice]:
    return [Choice(value=cid, label=_name(table, cid)) for cid in ids]


def _actors(table: TableState, viewer: Viewer, game: Game) -> list[str]:
    """The characters ``viewer`` plays: a player's own, a GM's NPCs."""
    out = []
    for cid, ch in table.characters.items():
        if cid not in game.chars:
            continue
        if (viewer.is_gm and ch.owner is None) or (
            ch.owner is not None and ch.owner == viewer.member_id
        ):
            out.append(cid)
    return out


class _Offer:
    """The affordances of one viewer, built up in order."""

    def __init__(
        self, table: TableState, viewer: Viewer, options: YodomiOptions, game: Game
    ) -> None:
        self.table, self.viewer, self.options, self.game = table, viewer, options, game
        self.out: list[Affordance] = []

    def add(
        self,
        verb: str,
        label: str,
        *,
        group: str = "",
        primary: bool = False,
        args: dict[str, Any] | None = None,
        **choices: list[Choice],
    ) -> None:
        shown = {k: v for k, v in choices.items() if v}
        self.out.append(
            Affordance(
                command=T + verb,
                label=label,
                args=args or {},
                choices=shown,
                group=group,
                primary=primary,
            )
        )

    def hand(self, cid: str) -> list[Choice]:
        """The cards of ``cid``'s hand, when the viewer sees them (never anybody else's)."""
        if not sees_hand(self.table, self.viewer, cid, self.options):
            return []
        return [Choice(value=c, label=card_label(c)) for c in self.game.hands.get(cid, [])]

    def playable(self, cid: str, check: Check | None = None) -> list[Choice]:
        """The cards of ``cid``'s (visible) hand that may go on a check: no own-suit card under
        蝕み (YD-64), and none once ``check`` already counts its one own-suit card (YD-25)."""
        c = self.game.chars[cid]
        barred = "蝕み" in c.statuses
        if check is not None and check.cards and not barred:
            _, counted = flow_bonus(
                tuple(check.cards), c.suit, c.key_number, own_suit_barred=barred
            )
            barred = barred or counted is not None
        return [
            ch
            for ch in self.hand(cid)
            if not (barred and c.suit is not None and suit_of(ch.value) == c.suit)
        ]

    def abilities(self, cid: str, *, with_stats: bool = False) -> list[Choice]:
        ch = self.table.characters.get(cid)
        names = list((ch.sheet.get("abilities") or {}) if ch is not None else {})
        out = [Choice(value=n, label=f"【{n}】") for n in names]
        if with_stats:
            out += [
                Choice(value="action", label="【行動値】"),
                Choice(value="evasion", label="【回避値】"),
                Choice(value="social", label="【社会】"),
            ]
        return out


def affordances(table: TableState, viewer: Viewer, options: YodomiOptions) -> list[Affordance]:
    """The 澱み流れ actions ``viewer`` may take now (the core adds chat, dice and characters).

    Returns an empty list for spectators and for a table whose game is not a 澱み流れ
    game. Every affordance names a command whose declared permit the viewer passes.
    """
    game = table.game
    if not isinstance(game, Game) or viewer.member_id is None or viewer.role == "spectator":
        return []
    offer = _Offer(table, viewer, options, game)
    if viewer.is_gm:
        _gm(offer)
    for cid in _actors(table, viewer, game):
        _character(offer, cid, game.chars[cid])
    if game.phase == Phase.SCENE:
        offer.add("note_topic", "話題を記録する")
    return offer.out


# --------------------------------------------------------------------------- the GM's own commands


def _gm(o: _Offer) -> None:
    table, game = o.table, o.game
    alive = [
        cid for cid, c in game.chars.items() if cid in table.characters and c.condition not in _GONE
    ]
    if not game.trailer and game.phase == Phase.PREPLAY:
        o.add("read_trailer", "トレーラーを読む")
    pcs = [cid for cid in alive if game.chars[cid].side == "pc"]
    if pcs and game.phase == Phase.PREPLAY:
        o.add("give_handout", "ハンドアウトを渡す", character_id=_chars(table, pcs))
    receivers = [cid for cid in alive if game.chars[cid].receives_flow]
    if receivers:
        o.add("deal_cards", "「流れ」を配る", character_id=_chars(table, receivers))
    if game.phase in (Phase.PREPLAY, Phase.BETWEEN) and alive:
        o.add(
            "start_scene",
            "シーンを始める",
            primary=game.phase == Phase.BETWEEN,
            kind=[Choice(value=k.value, label=_SCENE_KIND[k.value]) for k in SceneKind],
            scene_player=_chars(table, alive),
        )
    if game.phase == Phase.SCENE:
        o.add("end_scene", "シーンを終える")
        present = [cid for cid in (game.scene.present if game.scene else []) if cid in game.chars]
        if game.combat is None and present:
            o.add(
                "start_combat",
                "戦闘を始める（全員一つのエンゲージ）",
                args={"engagements": [present]},
            )
    if game.phase == Phase.SCENE_END:
        over = any(
            len(game.hands.get(cid, [])) > len(game.chars[cid].paths)
            for cid in pcs
            if game.chars[cid].condition != Condition.FLOW_DEATH
        )
        o.add("close_scene_end", "シーン終了処理を終える", primary=not over)
    if game.combat is not None:
        cb = game.combat
        if cb.process == Process.MAIN:
            o.add("advance", f"{_name(table, cb.actor)}の手番を終える")
        else:
            o.add("advance", f"{_PROCESS[cb.process]}を進める", primary=True)
        o.add("end_combat", "戦闘を終える")
    if alive:
        o.add("add_status", "バッドステータスを与える", character_id=_chars(table, alive))
    names = dict.fromkeys(
        n for ch in table.characters.values() for n in (ch.sheet.get("abilities") or {})
    )
    o.add(
        "start_continuous",
        "継続判定を始める",
        ability=[Choice(value=n, label=f"【{n}】") for n in names],
    )
    for q in game.continuous.values():
        if not q.finished:
            o.add(
                "advance_continuous",
                f"継続判定（【{q.ability}】）を次のラウンドへ",
                args={"continuous_id": q.continuous_id},
            )
    o.add("roll_check", "無記名の判定", kind=_CHECK_KINDS)


# --------------------------------------------------------------------------- one character's actions


def _character(o: _Offer, cid: str, c: CharState) -> None:
    table, game = o.table, o.game
    me = _name(table, cid)
    g = me
    who = {"character_id": cid}
    hand = o.hand(cid)
    play = o.playable(cid)
    if c.condition in _GONE:
        if c.condition == Condition.FLOW_DEATH and hand:
            _give(o, cid, hand, g)
        return
    # pre-play
    if c.key_number is None:
        o.add(
            "roll_key_number",
            f"{me}: キーナンバーを決める",
            group=g,
            args=who,
            primary=game.phase == Phase.PREPLAY,
        )
    if c.suit is None:
        o.add(
            "choose_suit",
            f"{me}: スートを選ぶ",
            group=g,
            args=who,
            primary=game.phase == Phase.PREPLAY,
            suit=[Choice(value=s, label=f"{s}（{SUIT_NAMES[s]}）") for s in _free_suits(o, cid)],
        )
    if cid not in game.introductions:
        o.add("introduce", f"{me}: キャラクター紹介", group=g, args=who)
    # states that ask for something now
    if c.condition == Condition.DEAD:
        o.add(
            "choose_death",
            f"{me}: 死亡時の選択",
            group=g,
            args=who,
            primary=True,
            choice=[
                Choice(value="flow", label="流れとしての死"),
                Choice(value="yodomi", label="澱みとしての生"),
            ],
        )
        return
    if c.condition == Condition.INCAPACITATED:
        if c.may_convert:
            o.add("forced_conversion", f"{me}: 強制転換", group=g, args=who, primary=True)
        _defences(o, cid, play, g)
        return
    if c.full_conversion_pending:
        o.add(
            "full_conversion",
            f"{me}: 完全転換（【SP】を【PP】へ）",
            group=g,
            args=who,
            primary=True,
        )
    if c.intuition_due:
        o.add(
            "intuition",
            f"{me}: 直感把握（【PP】0）",
            group=g,
            args=who,
            primary=True,
            ability=o.abilities(cid),
            cards=play,
        )
    # 流れ
    _play_cards(o, cid, g)
    if hand and c.condition != Condition.YODOMI_LIFE:
        _give(o, cid, hand, g)
    _contest(o, cid, g)
    # scenes
    if game.phase == Phase.SCENE and game.scene is not None:
        sc = game.scene
        if cid in sc.present:
            o.add("leave_scene", f"{me}: 退場する", group=g, args=who)
            if c.last_purchase_scene != game.scene_count:
                o.add("purchase", f"{me}: 購入判定", group=g, args=who, cards=play)
        elif c.condition != Condition.DEAD and not (
            sc.kind == SceneKind.OPENING and c.side == "pc"
        ):
            o.add(
                "enter_scene",
                f"{me}: 登場判定",
                group=g,
                args=who,
                primary=c.side == "pc",
                cards=play,
            )
    if game.phase == Phase.SCENE_END:
        _scene_end(o, cid, c, hand, play, g)
    # continuous checks
    for q in game.continuous.values():
        if q.finished or cid in q.done_this_round:
            continue
        if (
            game.combat is not None
            and cid in game.combat.participants
            and not _my_main(game.combat, cid)
        ):
            continue
        o.add(
            "roll_continuous",
            f"{me}: 継続判定（【{q.ability}】）",
            group=g,
            args={"continuous_id": q.continuous_id, "character_id": cid},
            cards=play,
        )
    # a fight
    _combat(o, cid, c, play, g)
    # any time
    o.add(
        "roll_check",
        f"{me}: 行為判定",
        group=g,
        args=who,
        kind=_CHECK_KINDS,
        ability=o.abilities(cid, with_stats=True),
        cards=play,
    )
    if not c.intuition_due:
        o.add(
            "intuition", f"{me}: 直感把握", group=g, args=who, ability=o.abilities(cid), cards=play
        )
    if c.condition != Condition.YODOMI_LIFE and c.pp > 0:
        o.add(
            "pay_cost",
            f"{me}: 代償を払う（【PP】）",
            group=g,
            args=who,
            pp=[Choice(value=n, label=f"【PP】{n}") for n in range(1, min(c.pp, 10) + 1)],
        )
    if hand:
        o.add("pay_cost", f"{me}: 代償を払う（「流れ」）", group=g, args=who, cards=hand)
    if c.statuses or c.disabled_items:
        _statuses(o, cid, c, hand, g)
    o.add(
        "set_flying",
        f"{me}: 飛行状態をやめる" if c.flying else f"{me}: 飛行状態になる",
        group=g,
        args={"character_id": cid, "flying": not c.flying},
    )


def _free_suits(o: _Offer, cid: str) -> list[str]:
    """The suits ``cid`` may still choose (unique among PCs below ``shared_suits_from`` PCs, YD-71)."""
    game = o.game
    pcs = [p for p, pc in game.chars.items() if pc.side == "pc" and p in o.table.characters]
    if len(pcs) >= o.options.shared_suits_from:
        return list(SUITS)
    taken = {game.chars[p].suit for p in pcs if p != cid}
    return [s for s in SUITS if s not in taken]


def _give(o: _Offer, cid: str, hand: list[Choice], g: str) -> None:
    targets = [
        t
        for t, tc in o.game.chars.items()
        if t != cid
        and t in o.table.characters
        and tc.receives_flow
        and tc.condition != Condition.VANISHED
    ]
    if targets:
        o.add(
            "give_cards",
            f"{_name(o.table, cid)}: 「流れ」を渡す",
            group=g,
            args={"from_character": cid},
            to_character=_chars(o.table, targets),
            cards=hand,
        )


def _play_cards(o: _Offer, cid: str, g: str) -> None:
    """流れ after the roll: on the latest plain check, or on one's attack before the defence."""
    k = o.game.last_check.get(cid)
    if (
        k is not None
        and k.cards_allowed
        and not k.fumble
        and k.purpose not in SETTLED_PURPOSES
        and (hand := o.playable(cid, k))
    ):
        o.add(
            "play_cards",
            f"{_name(o.table, cid)}: 「流れ」を出す（{k.label or _kind(k)}）",
            group=g,
            args={"check_id": k.check_id},
            cards=hand,
        )
        o.add(
            "pass_cards",
            f"{_name(o.table, cid)}: パス（{k.label or _kind(k)}に「流れ」を出さない）",
            group=g,
            args={"check_id": k.check_id},
        )
    for a in o.game.attacks.values():
        if (
            a.attacker == cid
            and a.hit.cards_allowed
            and not a.hit.fumble
            and (hand := o.playable(cid, a.hit))
        ):
            o.add(
                "play_cards",
                f"{_name(o.table, cid)}: 「流れ」を出す（{_name(o.table, a.target)}への命中判定）",
                group=g,
                args={"check_id": a.hit.check_id},
                cards=hand,
            )
            o.add(
                "pass_cards",
                f"{_name(o.table, cid)}: パス（{_name(o.table, a.target)}への命中判定に「流れ」を出さない）",
                group=g,
                args={"check_id": a.hit.check_id},
            )


def _kind(k: Check) -> str:
    return "2D9判定" if k.kind == "2d9" else "D99判定"


def _contest(o: _Offer, cid: str, g: str) -> None:
    mine = o.game.last_check.get(cid)
    if mine is None or mine.kind != "2d9":
        return
    others = [
        k
        for other, k in o.game.last_check.items()
        if other != cid and k.kind == "2d9" and other in o.table.characters
    ]
    if others:
        o.add(
            "contest",
            f"{_name(o.table, cid)}: 対決（アクション側）",
            group=g,
            args={"action_check": mine.check_id},
            reaction_check=[
                Choice(
                    value=k.check_id,
                    label=f"{_name(o.table, k.character_id)}の{k.label or '2D9判定'}（{k.value}）",
                )
                for k in others
            ],
        )


def _scene_end(
    o: _Offer, cid: str, c: CharState, hand: list[Choice], play: list[Choice], g: str
) -> None:
    """舞台裏 → パス → 流れ adjustment, in that order (YD-75, YD-76, YD-22, YD-24)."""
    table, game, opts = o.table, o.game, o.options
    me = _name(table, cid)
    who = {"character_id": cid}
    if c.side != "pc":
        return
    early = not (c.path_done or c.emotion_done or c.cut_done)
    if early and not (c.in_scene or c.appeared) and c.condition in _IN_PLAY:
        if not c.backstage_recovered:
            o.add("backstage", f"{me}: 舞台裏で回復する", group=g, args=who, primary=True)
        if not c.backstage_skill_done:
            o.add("backstage_skill", f"{me}: 舞台裏で特技を使う", group=g, args=who)
        if not c.backstage_purchase_done:
            o.add(
                "purchase",
                f"{me}: 舞台裏で購入判定",
                group=g,
                args={"character_id": cid, "backstage": True},
                cards=play,
            )
    if not c.cut_done and not c.path_done and len(c.paths) < opts.max_paths:
        have = {p.target for p in c.paths}
        targets = [
            Choice(value=ch.name, label=ch.name)
            for other, ch in table.characters.items()
            if other != cid and ch.name not in have and other not in have
        ]
        topics = game.scene.topics if game.scene is not None else []
        targets += [
            Choice(value=t, label=f"話題: {t}") for t in dict.fromkeys(topics) if t not in have
        ]
        if targets:
            o.add(
                "gain_path",
                f"{me}: パスを結ぶ",
                group=g,
                args=who,
                primary=not hand or len(hand) <= len(c.paths) + 1,
                target=targets,
            )
    if not c.cut_done and not c.emotion_done and c.paths:
        o.add(
            "change_emotion",
            f"{me}: 感情を変える",
            group=g,
            args=who,
            target=[Choice(value=p.target, label=f"{p.target}（{p.emotion}）") for p in c.paths],
        )
    count = len(game.hands.get(cid, []))
    if hand and count > len(c.paths):
        o.add(
            "cut_hand",
            f"{me}: 「流れ」を調整する（{count - len(c.paths)}枚捨てる）",
            group=g,
            args=who,
            primary=c.path_done or len(c.paths) >= opts.max_paths,
            cards=hand,
        )


def _my_main(cb: Combat, cid: str) -> bool:
    return cb.process == Process.MAIN and cb.actor == cid and not cb.major_done


def _engagement(cb: Combat, cid: str) -> str | None:
    return next((eid for eid, ms in cb.engagements.items() if cid in ms), None)


def _defences(o: _Offer, cid: str, hand: list[Choice], g: str) -> None:
    """防御判定 for attacks waiting on ``cid``'s defence (``hand``: the cards that may go on a check)."""
    for a in o.game.attacks.values():
        if (a.covered_by or a.target) == cid:
            can_react = o.game.chars[cid].condition in _IN_PLAY
            o.add(
                "defend",
                f"{_name(o.table, cid)}: 防御判定（{_name(o.table, a.attacker)}の攻撃 達成値{a.hit.value}）",
                group=g,
                args={"attack_id": a.attack_id},
                primary=True,
                mode=_DEFENCE_MODES if can_react else [],
                ability=o.abilities(cid) if can_react else [],
                cards=hand if can_react else [],
            )


def _combat(o: _Offer, cid: str, c: CharState, hand: list[Choice], g: str) -> None:
    table, game = o.table, o.game
    cb = game.combat
    if cb is None or cid not in cb.participants:
        return
    me = _name(table, cid)
    who = {"character_id": cid}
    _defences(o, cid, hand, g)
    here = _engagement(cb, cid)
    for a in game.attacks.values():
        if (
            a.covered_by is None
            and a.target != cid
            and c.acted == Acted.UNACTED
            and here is not None
            and _engagement(cb, a.target) == here
        ):
            o.add(
                "cover",
                f"{me}: {_name(table, a.target)}をかばう",
                group=g,
                args={"attack_id": a.attack_id, "character_id": cid},
            )
    if not _my_main(cb, cid):
        return
    if cid not in cb.waiting and not cb.minor_done:
        o.add("wait", f"{me}: 待機", group=g, args=who)
    targets = [
        t
        for t in cb.participants
        if t != cid
        and t in game.chars
        and t in table.characters
        and not game.chars[t].stealth
        and game.chars[t].condition not in _GONE
    ]
    foes = [t for t in targets if game.chars[t].side != c.side] or targets
    if foes and "マヒ" not in c.statuses:
        o.add(
            "attack",
            f"{me}: 攻撃",
            group=g,
            args={"attacker": cid},
            primary=True,
            target=_chars(table, foes),
            ability=o.abilities(cid),
            cards=hand,
        )
    others = [e for e in cb.engagements if e != here]
    if not cb.minor_done:
        o.add("minor", f"{me}: マイナーアクション", group=g, args=who)
        if others:
            o.add(
                "move",
                f"{me}: 移動（マイナー）",
                group=g,
                args=who,
                engagement=[Choice(value=e, label=_engagement_label(table, cb, e)) for e in others],
            )
        riders = [
            r
            for r in (cb.engagements.get(here, []) if here else [])
            if r != cid and r in table.characters
        ]
        if c.passenger_of is not None:
            o.add(
                "mount", f"{me}: 同乗をやめる", group=g, args={"character_id": cid, "rider": None}
            )
        elif riders:
            o.add("mount", f"{me}: 同乗する", group=g, args=who, rider=_chars(table, riders))
    if "マヒ" not in c.statuses:
        o.add(
            "minor",
            f"{me}: メジャーアクション（その他）",
            group=g,
            args={"character_id": cid, "major": True},
        )
        if others:
            o.add(
                "move",
                f"{me}: 移動（メジャー）",
                group=g,
                args={"character_id": cid, "major": True},
                engagement=[Choice(value=e, label=_engagement_label(table, cb, e)) for e in others],
            )
        if here is not None and len(cb.engagements.get(here, [])) > 1:
            o.add("disengage", f"{me}: 離脱", group=g, args=who, cards=hand)
        if here is not None:
            o.add("block", f"{me}: 封鎖", group=g, args=who)
        o.add("hide", f"{me}: 隠密", group=g, args=who)


def _engagement_label(table: TableState, cb: Combat, eid: str) -> str:
    return f"{eid}（{'・'.join(_name(table, m) for m in cb.engagements.get(eid, []))}）"


def _statuses(o: _Offer, cid: str, c: CharState, hand: list[Choice], g: str) -> None:
    me = _name(o.table, cid)
    for s in c.statuses:
        if s == "蝕み":
            if hand:
                o.add(
                    "remove_status",
                    f"{me}: 蝕みを解除する（「流れ」を一枚捨てる）",
                    group=g,
                    args={"character_id": cid, "status": s},
                    card=hand,
                )
        elif s in MINOR_REMOVABLE and s != "使用不能":
            o.add(
                "remove_status",
                f"{me}: {s}を解除する",
                group=g,
                args={"character_id": cid, "status": s},
            )
    for item in c.disabled_items:
        o.add(
            "remove_status",
            f"{me}: 「{item}」の使用不能を解除する",
            group=g,
            args={"character_id": cid, "status": "使用不能", "item": item},
        )


# --------------------------------------------------------------------------- turn


def turn(table: TableState, options: YodomiOptions) -> Turn | None:
    """Whose turn it is: the fight's round, process and actor, else the scene and its scene player."""
    game = table.game
    if not isinstance(game, Game):
        return None
    cb = game.combat
    if cb is not None:
        return Turn(
            actor=cb.actor,
            actor_label=_name(table, cb.actor) if cb.actor else "",
            phase=cb.process.value,
            phase_label=_PROCESS[cb.process],
            round=cb.round,
            round_label=f"ラウンド{cb.round}",
            order=_order(table, game, cb),
        )
    sc = game.scene
    if game.phase == Phase.SCENE and sc is not None:
        return Turn(
            actor=sc.scene_player,
            actor_label=_name(table, sc.scene_player),
            phase="scene",
            phase_label=f"{_SCENE_KIND[sc.kind.value]}シーン",
            round=sc.number,
            round_label=f"シーン{sc.number}",
            order=[TurnSlot(id=cid, label=_name(table, cid)) for cid in sc.present],
        )
    return Turn(
        phase=game.phase.value,
        phase_label=_PHASE[game.phase],
        round=game.scene_count or None,
        round_label=f"シーン{game.scene_count}" if game.scene_count else "",
    )


def _order(table: TableState, game: Game, cb: Combat) -> list[TurnSlot]:
    """The initiative order (G-YD-09): 【行動値】 high to low, PCs first on ties, then the order
    of joining; those who waited (YD-32) after, lowest 【行動値】 first."""

    def action(cid: str) -> int:
        ch = table.characters.get(cid)
        v = ch.sheet.get("action", 0) if ch is not None else 0
        return v if isinstance(v, int) else 0

    ready, waiting = [], []
    for i, cid in enumerate(cb.participants):
        c = game.chars.get(cid)
        if c is None:
            continue
        if cid in cb.waiting:
            waiting.append((action(cid), i, cid))
        else:
            ready.append((-action(cid), 0 if c.side == "pc" else 1, i, cid))
    ids = [t[-1] for t in sorted(ready)] + [t[-1] for t in sorted(waiting)]
    return [
        TurnSlot(
            id=cid,
            label=_name(table, cid),
            value=action(cid),
            done=game.chars[cid].acted == Acted.ACTED,
        )
        for cid in ids
    ]
