"""The 流れ deck: values, playing cards on checks, dealing, giving, reshuffling (YD-22 … YD-28)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from taku.core.commands import Override
from taku_yodomi import commands as C
from taku_yodomi._cards import card_value, flow_bonus, full_deck
from taku_yodomi.events import CardsPlayed, CheckBoosted, CheckRolled


async def _hand(yd: Any, cid: str, *cards: str, order: Any) -> None:
    """Deal ``cards`` (scripted on top of the first shuffle) to ``cid``."""
    await yd.h.send(yd.h.gm, C.DealCards(character_id=cid, count=len(cards)))
    assert yd.game.hands[cid][-len(cards) :] == list(cards)


async def _suit(yd: Any, cid: str, owner: str, suit: str) -> None:
    await yd.h.send(owner, C.ChooseSuit(character_id=cid, suit=suit))


async def test_yd_ex_01_card_example_on_2d9(new_table: Any, order: Any) -> None:
    """YD-EX-01: suit ♦, playing ♦10 and ♠9 on a 2D9 check adds 11 to the 達成値."""
    yd = await new_table(shuffles=[order("♦10", "♠9")])
    await _suit(yd, yd.a, yd.pa, "♦")
    await _hand(yd, yd.a, "♦10", "♠9", order=order)
    yd.h.roll(2, 3)
    (rolled,) = await yd.h.send(yd.pa, C.RollCheck(character_id=yd.a, value=4, difficulty=20))
    assert rolled.check.value == 9 and rolled.check.success is False
    boosted, played = await yd.h.send(
        yd.pa, C.PlayCards(check_id=rolled.check.check_id, cards=["♦10", "♠9"])
    )
    assert isinstance(played, CardsPlayed) and played.bonus == 11 and played.counted == "♦10"
    assert (
        isinstance(boosted, CheckBoosted)
        and boosted.check.value == 20
        and boosted.check.success is True
    )
    assert yd.game.hands[yd.a] == [] and yd.game.discards == ["♦10", "♠9"]


async def test_yd_ex_02_card_example_on_d99(new_table: Any, order: Any) -> None:
    """YD-EX-02: the same ♦10 + ♠9 raise a D99 target by 11."""
    yd = await new_table(shuffles=[order("♦10", "♠9")])
    await _suit(yd, yd.a, yd.pa, "♦")
    await _hand(yd, yd.a, "♦10", "♠9", order=order)
    yd.h.roll(4, 5)  # 45
    rolled, played = await yd.h.send(
        yd.pa, C.RollCheck(character_id=yd.a, kind="d99", value=40, cards=["♦10", "♠9"])
    )
    assert isinstance(rolled, CheckRolled) and played.bonus == 11
    assert rolled.check.target == 51 and rolled.check.value == 45 and rolled.check.success is True


@pytest.mark.parametrize(
    ("card", "key", "value"),
    [
        ("♥2", None, 2),
        ("♥10", 3, 10),
        ("♥J", 5, 10),
        ("♥Q", None, 10),
        ("♥K", 9, 10),
        ("♥A", 4, 20),
        ("JK1", 2, 20),
        ("♥7", 7, 10),
        ("♥3", 3, 10),
        ("♥A", 1, 20),
        ("♥9", 8, 9),
    ],
)
def test_card_values(card: str, key: int | None, value: int) -> None:
    """YD-27: faces 10, A and jokers 20, the key number's rank 10 (with key 1, an A stays 20)."""
    assert card_value(card, key) == value


def test_one_own_suit_card_only() -> None:
    """YD-25: at most one card of one's own suit; the others add 1 each."""
    with pytest.raises(ValueError, match="^自分のスートの「流れ」は一枚だけ出せます$"):
        flow_bonus(["♦3", "♦4"], "♦", None)
    assert flow_bonus(["♣5", "♠K", "♥A"], "♦", None) == (3, None)


def test_joker_as_own_suit_or_one() -> None:
    """G-YD-07: a joker counts 20 as the own-suit card, else 1."""
    assert flow_bonus(["JK1"], "♦", None) == (20, "JK1")
    assert flow_bonus(["JK1", "JK2"], "♦", None) == (21, "JK1")
    assert flow_bonus(["♦2", "JK1"], "♦", None) == (3, "♦2")


def test_erosion_bars_own_suit() -> None:
    """YD-64: under 蝕み own-suit cards cannot be used; jokers count only 1."""
    with pytest.raises(ValueError, match="^蝕み: 自分のスートの「流れ」は使えません$"):
        flow_bonus(["♦2"], "♦", None, own_suit_barred=True)
    assert flow_bonus(["JK1", "♠3"], "♦", None, own_suit_barred=True) == (2, None)


@given(
    st.lists(st.sampled_from(full_deck()), unique=True, max_size=12),
    st.sampled_from(["♠", "♥", "♦", "♣"]),
    st.one_of(st.none(), st.integers(1, 9)),
)
def test_flow_bonus_invariant(cards: list[str], suit: str, key: int | None) -> None:
    """YD-25: bonus = value of at most one counted card + 1 per other card."""
    own = [c for c in cards if c[0] == suit]
    if len(own) > 1:
        with pytest.raises(ValueError, match="^自分のスートの「流れ」は一枚だけ出せます$"):
            flow_bonus(cards, suit, key)
        return
    bonus, counted = flow_bonus(cards, suit, key)
    others = len(cards) - (1 if counted else 0)
    assert bonus == others + (card_value(counted, key) if counted else 0)
    assert 0 <= bonus <= 20 + len(cards)


async def test_second_own_suit_card_on_the_same_check_refused(new_table: Any, order: Any) -> None:
    """YD-25: one own-suit card per check, across plays on it; nothing is half-applied."""
    yd = await new_table(shuffles=[order("♦10", "♦9")])
    await _suit(yd, yd.a, yd.pa, "♦")
    await _hand(yd, yd.a, "♦10", "♦9", order=order)
    yd.h.roll(2, 3)
    (rolled,) = await yd.h.send(yd.pa, C.RollCheck(character_id=yd.a, value=0))
    await yd.h.send(yd.pa, C.PlayCards(check_id=rolled.check.check_id, cards=["♦10"]))
    err = await yd.h.rejected(yd.pa, C.PlayCards(check_id=rolled.check.check_id, cards=["♦9"]))
    assert err.code == "rule/yodomi/bad_flow" and yd.game.hands[yd.a] == ["♦9"]


async def test_cards_not_in_hand_refused(new_table: Any, order: Any) -> None:
    """Only cards in one's own hand can be played or given."""
    yd = await new_table(shuffles=[order("♦10")])
    await _hand(yd, yd.b, "♦10", order=order)
    yd.h.roll(2, 3)
    err = await yd.h.rejected(yd.pa, C.RollCheck(character_id=yd.a, value=0, cards=["♦10"]))
    assert err.code == "rule/yodomi/card_not_in_hand"
    assert yd.h.dice.remaining == [2, 3]  # refused before any die was rolled
    err = await yd.h.rejected(
        yd.pa, C.GiveCards(from_character=yd.a, to_character=yd.b, cards=["♦10"])
    )
    assert err.code == "rule/yodomi/card_not_in_hand"
    err = await yd.h.rejected(
        yd.pa, C.GiveCards(from_character=yd.a, to_character=yd.b, cards=["♦11"])
    )
    assert err.code == "rule/yodomi/unknown_card"


async def test_only_the_gm_deals(yd: Any) -> None:
    """YD-23: the GM gives cards from the deck."""
    err = await yd.h.rejected(yd.pa, C.DealCards(character_id=yd.a))
    assert err.code == "command/forbidden"


async def test_give_moves_cards_between_hands(new_table: Any, order: Any) -> None:
    """YD-23: players pass 流れ to each other; only the two of them see the faces."""
    yd = await new_table(shuffles=[order("♣4", "♥Q")])
    await _hand(yd, yd.a, "♣4", "♥Q", order=order)
    await yd.h.send(yd.pa, C.GiveCards(from_character=yd.a, to_character=yd.b, cards=["♥Q"]))
    assert yd.game.hands[yd.a] == ["♣4"] and yd.game.hands[yd.b] == ["♥Q"]
    frames = {m: (await yd.h.frames(m))[-1] for m in (yd.pa, yd.pb, yd.h.gm, yd.spec)}
    assert frames[yd.pa]["event"]["cards"] == ["♥Q"] and frames[yd.pb]["event"]["cards"] == ["♥Q"]
    for m in (yd.h.gm, yd.spec):
        assert frames[m]["redacted"] and frames[m]["event"] == {
            "type": "yodomi.cards_given_notice",
            "from_character": yd.a,
            "to_character": yd.b,
            "count": 1,
        }


async def test_gm_sees_hands_option(new_table: Any, order: Any) -> None:
    """With ``gm_sees_hands`` the GM sees faces; by default only counts."""
    yd = await new_table(shuffles=[order("♣4")], options={"gm_sees_hands": True})
    await _hand(yd, yd.a, "♣4", order=order)
    assert yd.h.view(yd.h.gm)["game"]["hands"][yd.a] == {"count": 1, "cards": ["♣4"]}
    assert (await yd.h.frames(yd.h.gm))[-1]["event"]["cards"] == ["♣4"]
    yd2 = await new_table(shuffles=[order("♣4")])
    await _hand(yd2, yd2.a, "♣4", order=order)
    assert yd2.h.view(yd2.h.gm)["game"]["hands"][yd2.a] == {"count": 1}


async def test_reshuffle_discards_when_the_deck_runs_out(new_table: Any, order: Any) -> None:
    """YD-23: when the deck is empty the discards are shuffled into a new deck."""
    yd = await new_table(shuffles=[order("♠A", "♠2")])
    await yd.h.send(yd.h.gm, C.DealCards(character_id=yd.a, count=52))
    await yd.h.send(yd.h.gm, C.DealCards(character_id=yd.b, count=2))
    assert yd.game.deck == []
    yd.h.roll(1, 2)
    await yd.h.send(yd.pa, C.RollCheck(character_id=yd.a, value=0, cards=["♣3", "♣4", "♣5"]))
    yd.h.dice.add_shuffle([2, 0, 1])
    await yd.h.send(yd.h.gm, C.DealCards(character_id=yd.b, count=2))
    assert (
        yd.game.hands[yd.b][-2:] == ["♣5", "♣3"]
        and yd.game.deck == ["♣4"]
        and yd.game.discards == []
    )
    err = await yd.h.rejected(yd.h.gm, C.DealCards(character_id=yd.b, count=2))
    assert err.code == "rule/yodomi/deck_empty"
    await yd.h.assert_replay_matches()


async def test_override_of_cards_round_trips(yd: Any) -> None:
    """The GM may override the game state (it round-trips through to_builtins/convert)."""
    await yd.h.send(
        yd.h.gm, Override(path=["game", "chars", yd.a, "pp"], value=12, reason="GM裁定")
    )
    assert yd.game.chars[yd.a].pp == 12


async def test_pass_settles_a_check_without_cards(new_table: Any, order: Any) -> None:
    """パス (G-YD-06): no 流れ on the rolled check; the result stands as rolled, the hand is
    kept, and 流れ can no longer be added to that check (its play offer is gone)."""
    from taku.core.table import affordances
    from taku_yodomi.events import CardsPassed

    def offered() -> list[str]:
        state = yd.h.table.state
        return [a.command for a in affordances(state, state.viewer(yd.pa), yd.h.table.ruleset)]

    yd = await new_table(shuffles=[order("♦10", "♠9")])
    await _suit(yd, yd.a, yd.pa, "♦")
    await _hand(yd, yd.a, "♦10", "♠9", order=order)
    yd.h.roll(2, 3)
    (rolled,) = await yd.h.send(yd.pa, C.RollCheck(character_id=yd.a, value=4, difficulty=20))
    kid = rolled.check.check_id
    assert {"yodomi.play_cards", "yodomi.pass_cards"} <= set(offered())
    # another player cannot pass for this character
    assert (await yd.h.rejected(yd.pb, C.PassCards(check_id=kid))).code.startswith(
        "command/forbidden"
    )
    (passed,) = await yd.h.send(yd.pa, C.PassCards(check_id=kid))
    assert passed == CardsPassed(character_id=yd.a, check_id=kid)
    assert yd.game.last_check[yd.a].value == 9 and yd.game.last_check[yd.a].success is False
    assert yd.game.hands[yd.a] == ["♦10", "♠9"]
    assert not {"yodomi.play_cards", "yodomi.pass_cards"} & set(offered())
    err = await yd.h.rejected(yd.pa, C.PlayCards(check_id=kid, cards=["♦10"]))
    assert err.code == "rule/yodomi/flow_not_allowed"
    assert (
        await yd.h.rejected(yd.pa, C.PassCards(check_id=kid))
    ).code == "rule/yodomi/unknown_check"
    frame = (await yd.h.frames(yd.pb))[-1]
    assert frame["text"] == "アキラ はパスしました（「流れ」を出さず、判定の結果が確定）"
    await yd.h.assert_replay_matches()
