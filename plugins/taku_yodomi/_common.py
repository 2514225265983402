"""Helpers shared by the deciders: rejections (:func:`taku.core.kit.rejecter`), lookups, the deck, checks with 流れ."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from taku.core import kit
from taku.core.events import GM, Private
from taku.core.ruleset import Context, Emitted
from taku.core.table import TableState
from taku.errors import Forbidden
from taku_yodomi import _checks
from taku_yodomi._cards import DECK_SIZE, SUITS, Suit, deck_from_order, flow_bonus, is_card
from taku_yodomi.events import (
    CardsDealt,
    CardsDealtNotice,
    CardsDiscarded,
    CardsDiscardedNotice,
    CardsKept,
    CardsKeptNotice,
    CardsPlayed,
    CheckRolled,
    DeckShuffled,
    DeckShuffledNotice,
)
from taku_yodomi.state import Acted, CharState, Check, CheckKind, CheckPurpose, Condition, Game

ID = "yodomi"
S_FLOW = "澱み流れ “流れ”ルール"
PENALTY_STATUSES = ("転倒", "放心", "極技")
"""Each of these takes 10 from every 達成値 (YD-55, YD-58, YD-61; they add up: G-YD-17)."""
SETTLED_PURPOSES = ("hit", "defence", "block", "continuous", "entry", "conversion", "purchase")
"""Checks whose result is applied at once: 流れ go with the roll, not after it (G-YD-06)."""
MINOR_REMOVABLE = ("重圧", "転倒", "マヒ", "阻止", "使用不能", "地中")
"""Statuses without a note in the list; the others end as their note says (バッドステータス一覧)."""


reject = kit.rejecter(ID)
"""``reject(reason, message, section)``: raises ``rule/yodomi/<reason>`` (every reason is in ``ERRORS``)."""


def game_of(table: TableState) -> Game:
    g = table.game
    assert isinstance(g, Game), "the yodomi table's game state is a Game (initial_state)"
    return g


def char(table: TableState, cid: str) -> CharState:
    """The character's runtime state.

    Raises:
        InvalidCommand: ``command/unknown_character`` (no such character on the table).
    """
    kit.character(table, cid)
    return game_of(table).chars[cid]  # every core character has its yodomi state (evolve)


def require_controls(table: TableState, ctx: Context, cid: str) -> CharState:
    """The character's runtime state, when the actor owns it or is a GM: for commands whose
    acting character follows from another field (a check id, an attack id), beyond what
    the command's declared permit covers.

    Raises:
        InvalidCommand: ``command/unknown_character``.
        Forbidden: ``command/forbidden`` (params ``reason``).
    """
    c = char(table, cid)
    if not ctx.controls(table, cid):
        raise Forbidden(
            f"{cid} is not the sender's",
            role=ctx.role,
            reason=f"{name(table, cid)}はあなたのキャラクターではありません",
        )
    return c


def name(table: TableState, cid: str | None) -> str:
    """The character's name (its id when gone, ``"?"`` for none)."""
    return kit.character_name(table, cid) if cid is not None else "?"


def sheet(table: TableState, cid: str) -> dict[str, Any]:
    ch = table.characters.get(cid)
    return dict(ch.sheet) if ch else {}


def ability(table: TableState, cid: str, key: str | None) -> int:
    """A named value of the sheet: an ability (``abilities``) or a top-level number."""
    if not key:
        return 0
    sh = sheet(table, cid)
    abilities = sh.get("abilities") or {}
    if key in abilities:
        return int(abilities[key])
    aliases = {"行動値": "action", "回避値": "evasion", "回避": "evasion", "社会": "social"}
    k = aliases.get(key, key)
    v = sh.get(k)
    if isinstance(v, int) and not isinstance(v, bool):
        return v
    if v is None and k in ("action", "evasion", "social"):
        return 0  # YodomiSheet's default for a value the sheet leaves out
    reject(
        "unknown_ability",
        f"{name(table, cid)} に能力値「{key}」はありません",
        "澱み流れ 行為判定ルール",
    )


def penalty(c: CharState | None) -> int:
    if c is None:
        return 0
    return 10 * sum(1 for s in PENALTY_STATUSES if s in c.statuses)


def hand_audience(table: TableState, ctx: Context, *cids: str) -> tuple[str, ...]:
    """Who sees the faces of these characters' hands: their players (and GMs by option)."""
    out: list[str] = []
    for cid in cids:
        ch = table.characters.get(cid)
        if ch is not None and ch.owner is not None and ch.owner not in out:
            out.append(ch.owner)
    if ctx.options.gm_sees_hands or any(
        (ch := table.characters.get(cid)) is None or ch.owner is None for cid in cids
    ):
        # an NPC's hand (no owner) is the GM's
        out.append(GM)
    return tuple(out)


def parse_cards(cards: Sequence[str]) -> tuple[str, ...]:
    out = tuple(cards)
    for c in out:
        if not is_card(c):
            reject(
                "unknown_card", f"「{c}」はトランプのカードではありません", "澱み流れ “流れ”ルール"
            )
    if len(set(out)) != len(out):
        reject("duplicate_card", "同じカードが二度あります", "澱み流れ “流れ”ルール")
    return out


def require_in_hand(game: Game, cid: str, cards: Sequence[str]) -> None:
    hand = game.hands.get(cid, [])
    missing = [c for c in cards if c not in hand]
    if missing:
        reject(
            "card_not_in_hand",
            f"手札にない「流れ」は使えません（{len(missing)}枚）",
            "澱み流れ “流れ”ルール",
        )


# --------------------------------------------------------------------------- deck


def draw(table: TableState, ctx: Context, cid: str, count: int, reason: str = "") -> list[Emitted]:
    """Events dealing the top ``count`` cards to ``cid``: shuffles when needed (YD-23).

    The first draw of a table shuffles the 54 cards (``ctx.dice.shuffle(54)``);
    when the deck runs out, the discards are shuffled into a new deck. The first
    draw after ``reveal_seed`` cuts the pile again with the new epoch's seed (its
    order was drawn from the seed now public); a table without epochs deals no
    more once its seed is revealed (``rule/yodomi/seed_revealed``). Shuffles
    are Private with an empty audience (nobody sees the order); the deal is
    Private to the hand's player, the others get a count.
    """
    game = game_of(table)
    if count < 1:
        reject("bad_count", "1枚以上を配ります", S_FLOW)
    deck = list(game.deck)
    discards = list(game.discards)
    out: list[Emitted] = []
    if not table.seed_open:
        # a table from before seed epochs: its only seed is public, and so is the deck's order
        reject(
            "seed_revealed",
            "シードが公開されたので山札の並びは誰にでも計算できます。新しい卓で続けてください",
            S_FLOW,
        )
    if game.shuffled and game.deck_epoch < table.epoch and deck:
        # the pile's order was drawn from a seed now revealed: cut it again with the new epoch's
        sh = ctx.dice.shuffle(len(deck))
        deck = list(deck_from_order(sh.order, deck))
        out.append(
            Private(
                event=DeckShuffled(shuffle=sh, deck=tuple(deck), new_seed=True),
                audience=(),
                redacted=DeckShuffledNotice(count=len(deck), new_seed=True),
            )
        )
    if not game.shuffled:
        sh = ctx.dice.shuffle(DECK_SIZE)
        deck = list(deck_from_order(sh.order))
        out.append(
            Private(
                event=DeckShuffled(shuffle=sh, deck=tuple(deck)),
                audience=(),
                redacted=DeckShuffledNotice(count=DECK_SIZE),
            )
        )
    audience = hand_audience(table, ctx, cid)
    got: list[str] = []

    def flush() -> None:
        if got:
            out.append(
                Private(
                    event=CardsDealt(character_id=cid, cards=tuple(got), reason=reason),
                    audience=audience,
                    redacted=CardsDealtNotice(character_id=cid, count=len(got), reason=reason),
                )
            )
            got.clear()

    remaining = count
    while remaining:
        if not deck:
            flush()
            if not discards:
                reject("deck_empty", "山札も捨て札も残っていません", "澱み流れ “流れ”ルール")
            sh = ctx.dice.shuffle(len(discards))
            deck = list(deck_from_order(sh.order, discards))
            discards = []
            out.append(
                Private(
                    event=DeckShuffled(shuffle=sh, deck=tuple(deck), reshuffle=True),
                    audience=(),
                    redacted=DeckShuffledNotice(count=len(deck), reshuffle=True),
                )
            )
        got.append(deck.pop(0))
        remaining -= 1
    flush()
    return out


def discard(
    table: TableState, ctx: Context, cid: str, cards: Sequence[str], reason: str
) -> Emitted:
    return Private(
        event=CardsDiscarded(character_id=cid, cards=tuple(cards), reason=reason),
        audience=hand_audience(table, ctx, cid),
        redacted=CardsDiscardedNotice(character_id=cid, count=len(cards), reason=reason),
    )


# --------------------------------------------------------------------------- checks


def check(
    table: TableState,
    ctx: Context,
    cid: str | None,
    *,
    kind: CheckKind,
    base: int,
    modifier: int = 0,
    extra_penalty: int = 0,
    difficulty: int | None = None,
    key_reroll: bool = False,
    no_roll: bool = False,
    purpose: CheckPurpose = "check",
    label: str = "",
    cards: Sequence[str] = (),
    cards_allowed: bool = True,
    with_status_penalty: bool = True,
    armour_penalty: bool = True,
) -> tuple[Check, list[Emitted]]:
    """Roll a check for ``cid`` and play ``cards`` on it; returns it and its events.

    Events: ``yodomi.check_rolled`` and, with cards, ``yodomi.cards_played``.
    ``armour_penalty=False`` leaves out 水中's armour 必要能力値 (an equipment value).
    Cards on a fumble are refused (YD-08) and nothing is written.
    """
    game = game_of(table)
    c = game.chars.get(cid) if cid else None
    opts = ctx.options
    if cards:
        _precheck_cards(table, cid, cards, cards_allowed)
    pen = (penalty(c) if with_status_penalty else 0) + extra_penalty
    if (
        with_status_penalty
        and armour_penalty
        and c is not None
        and cid is not None
        and "水中" in c.statuses
    ):
        # YD-62: 水中 lowers every 判定値 by the armour's 必要能力値
        pen += int(sheet(table, cid).get("armor_requirement", 0) or 0)
    k = _checks.make_check(
        ctx.dice,
        check_id=ctx.new_id("k"),
        character_id=cid,
        kind=kind,
        base=base,
        modifier=modifier,
        penalty=pen,
        difficulty=difficulty,
        key_number=c.key_number if c else None,
        key_reroll=key_reroll,
        key_mode=opts.key_critical,
        key_bonus=opts.key_critical_bonus,
        no_roll=no_roll,
        purpose=purpose,
        label=label,
        cards_allowed=cards_allowed,
    )
    events: list[Emitted] = [CheckRolled(check=k)]
    if cards and k.cards_allowed:
        k, played = play_on(table, ctx, k, cards)
        events = [CheckRolled(check=k), played]
    elif cards and cid is not None:
        # YD-08: on a fumble no 流れ may be added; the cards simply stay in the hand, and
        # which cards they were stays the hand's secret (the command naming them with it)
        events.append(
            Private(
                event=CardsKept(character_id=cid, check_id=k.check_id, cards=tuple(cards)),
                audience=hand_audience(table, ctx, cid),
                redacted=CardsKeptNotice(character_id=cid, check_id=k.check_id, count=len(cards)),
            )
        )
    return k, events


def _precheck_cards(
    table: TableState, cid: str | None, cards: Sequence[str], cards_allowed: bool
) -> None:
    """Refuse bad cards before any die is rolled (so a refusal reveals no roll)."""
    if cid is None:
        reject("no_character", "「流れ」はキャラクターが使います", S_FLOW)
    if not cards_allowed:
        reject("flow_not_allowed", "この判定には「流れ」を使えません", "澱み流れ ▼強制転換")
    c = char(table, cid)
    parsed = parse_cards(cards)
    require_in_hand(game_of(table), cid, parsed)
    try:
        flow_bonus(parsed, c.suit, c.key_number, own_suit_barred="蝕み" in c.statuses)
    except ValueError as e:
        reject("bad_flow", str(e), "澱み流れ ▼「流れ」の使用方法")


def play_on(
    table: TableState, ctx: Context, k: Check, cards: Sequence[str]
) -> tuple[Check, CardsPlayed]:
    """``k`` with 流れ played by its character, and the ``cards_played`` event (YD-25 … YD-28)."""
    game = game_of(table)
    cid = k.character_id
    if cid is None:
        reject("no_character", "「流れ」はキャラクターが使います", S_FLOW)
    c = char(table, cid)
    parsed = parse_cards(cards)
    require_in_hand(game, cid, parsed)
    if k.fumble:
        reject(
            "fumble_no_flow", "ファンブルした判定には「流れ」を足せません", "澱み流れ ▼ファンブル"
        )
    if not k.cards_allowed:
        reject("flow_not_allowed", "この判定には「流れ」を使えません", "澱み流れ ▼強制転換")
    opts = ctx.options
    try:
        new, bonus, counted = _checks.boost(
            k,
            parsed,
            suit=c.suit,
            key_number=c.key_number,
            own_suit_barred="蝕み" in c.statuses,
            key_mode=opts.key_critical,
            key_bonus=opts.key_critical_bonus,
        )
    except ValueError as e:
        reject("bad_flow", str(e), "澱み流れ ▼「流れ」の使用方法")
    return new, CardsPlayed(
        character_id=cid, check_id=k.check_id, cards=parsed, bonus=bonus, counted=counted
    )


def active_chars(game: Game) -> list[str]:
    return [
        cid
        for cid, c in game.chars.items()
        if c.condition in (Condition.ACTIVE, Condition.YODOMI_LIFE)
    ]


def can_act(c: CharState) -> bool:
    return c.condition in (Condition.ACTIVE, Condition.YODOMI_LIFE) and c.acted != Acted.ACTED


def suit_ok(suit: str) -> Suit:
    if suit not in SUITS:
        reject("unknown_suit", f"スート「{suit}」はありません", "澱み流れ ＜プリプレイ＞")
    return cast(Suit, suit)
