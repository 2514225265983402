"""Property tests for the invariants of the チャブ dice and checks (CH-01, CH-06…CH-09, CH-22)."""

from __future__ import annotations

import asyncio

from hypothesis import given, settings
from hypothesis import strategies as st

from taku_chabu._d100 import d100_value, judge, opposed_winner
from taku_chabu.commands import Attack, Check, Decline
from taku_chabu.events import CheckRolled, DamageRolled

d10 = st.integers(min_value=1, max_value=10)
d100 = st.integers(min_value=1, max_value=100)
target = st.integers(min_value=-20, max_value=200)


def test_two_d10_read_every_value_1_to_100_exactly_once() -> None:
    """CH-01: the 100 face pairs give 1–100, each once; 0 and 0 is 100."""
    values = sorted(d100_value(t, u) for t in range(1, 11) for u in range(1, 11))
    assert values == list(range(1, 101))
    assert d100_value(10, 10) == 100


@given(d100, target)
def test_judge(value: int, tgt: int) -> None:
    """CH-06…CH-08: 1–5 always succeed, 95–100 always fail, otherwise success iff at or under."""
    r = judge(value, tgt)
    if value <= 5:
        assert r.success and r.tatsujin and not r.ukatsu
    elif value >= 95:
        assert not r.success and r.ukatsu and not r.tatsujin
    else:
        assert r.success == (value <= tgt) and not r.tatsujin and not r.ukatsu


@given(d100, d100, target, target)
def test_opposed_is_symmetric_and_follows_the_rule(va: int, vb: int, ta: int, tb: int) -> None:
    """CH-09: swapping the sides swaps the winner; a success beats a failure; lower wins; equal rerolls."""
    a, b = judge(va, ta), judge(vb, tb)
    w = opposed_winner(a, b)
    swap = {"a": "b", "b": "a", None: None, "fail": "fail"}
    assert opposed_winner(b, a) == swap[w]
    if a.success != b.success:
        assert w == ("a" if a.success else "b")
    elif a.success:
        assert w == (None if va == vb else "a" if va < vb else "b")
    else:
        assert w == "fail"


@settings(max_examples=15, deadline=None)
@given(st.lists(st.tuples(d10, d10), min_size=1, max_size=6))
def test_counters_follow_the_log_and_the_fold_equals_the_live_state(
    pairs: list[tuple[int, int]],
) -> None:
    """Every タツジン! gives one counter; folding the stored log equals the state built step by step."""

    async def run() -> None:
        from taku.core.commands import CreateCharacter
        from taku.testing.harness import TableHarness

        h = await TableHarness.create("chabu")
        pl = await h.join("P")
        (c,) = await h.send(
            pl, CreateCharacter(name="A", sheet={"abilities": {"肉体": 50}, "hp": 10, "dl": 1})
        )
        cid = c.character_id  # type: ignore[attr-defined]
        for tens, units in pairs:
            h.roll(tens, units)
            (ev,) = await h.send(pl, Check(character_id=cid, ability="肉体"))
            assert isinstance(ev, CheckRolled) and ev.value == d100_value(tens, units)
        expected = sum(1 for p in pairs if d100_value(*p) <= 5)
        assert h.game.chars[cid].tatsujin == expected
        await h.assert_replay_matches()

    asyncio.run(run())


@settings(max_examples=15, deadline=None)
@given(
    st.integers(min_value=0, max_value=4),
    st.lists(d10, min_size=4, max_size=4),
    st.integers(min_value=1, max_value=60),
)
def test_damage_is_power_plus_dl_d10_and_hp_floors_at_zero(
    dl: int, faces: list[int], hp: int
) -> None:
    """CH-22, G-CH-08: damage = 威力 + the DL d10 faces recorded; HP = max(HP − damage, 0)."""

    async def run() -> None:
        from taku.core.commands import CreateCharacter
        from taku.testing.harness import TableHarness

        h = await TableHarness.create("chabu")
        pl = await h.join("P")
        eq = {"name": "カタナ", "check": {"ability": "肉体"}, "power": 5}
        (a,) = await h.send(
            pl,
            CreateCharacter(
                name="A", sheet={"abilities": {"肉体": 50}, "hp": 10, "dl": dl, "equipment": [eq]}
            ),
        )
        (b,) = await h.send(
            h.gm, CreateCharacter(name="B", sheet={"abilities": {"反応": 10}, "hp": hp, "dl": 1})
        )
        h.roll(1, 10, *faces[:dl])  # hit with 10
        await h.send(
            pl, Attack(character_id=a.character_id, equipment="カタナ", targets=[b.character_id])
        )  # type: ignore[attr-defined]
        events = await h.send(h.gm, Decline(character_id=b.character_id))  # type: ignore[attr-defined]
        dmg = next(e for e in events if isinstance(e, DamageRolled))
        assert dmg.roll.faces == tuple(faces[:dl]) and dmg.total == 5 + sum(faces[:dl])
        assert h.game.chars[b.character_id].hp == max(hp - dmg.total, 0)  # type: ignore[attr-defined]

    asyncio.run(run())
