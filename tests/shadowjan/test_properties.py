"""Invariants (hypothesis): random legal play never breaks the table; the fold of the log is
the live state; points are only lost through a knock-out's rounding (SJ-34, G-SJ-12); the
scoring tables are zero-sum (SJ-30 … SJ-32)."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from taku.app import Hub
from taku.core.commands import CreateCharacter
from taku.core.dice import Roll
from taku.plugins import load_registry
from taku.store.memory import MemoryEventStore
from taku.testing.harness import TableHarness
from taku_shadowjan import _rules as rules
from taku_shadowjan import commands as C
from taku_shadowjan import events as ev
from taku_shadowjan.commands import COMMANDS

from .conftest import NAMES, moves, ninja

_CMD = {t.__struct_config__.tag: t for t in COMMANDS}


class RandomDice:
    """A dice source drawing from a seeded ``random.Random`` (tests only)."""

    def __init__(self, seed: int) -> None:
        self.rnd = random.Random(seed)
        self.at = 0

    @property
    def cursor(self) -> int:
        return self.at

    def roll(self, n: int, sides: int) -> Roll:
        faces = tuple(self.rnd.randint(1, sides) for _ in range(n))
        r = Roll(sides=sides, faces=faces, at=self.at)
        self.at += n
        return r

    def shuffle(self, size: int) -> Any:  # pragma: no cover - shadowjan never shuffles
        raise AssertionError("no shuffles in シャドー・ジャン")


async def _play(
    seed: int, n: int, sheets: list[dict[str, Any]], options: dict[str, Any], steps: int
) -> None:
    await _play_and_return(seed, n, sheets, options, steps)


async def _play_and_return(
    seed: int, n: int, sheets: list[dict[str, Any]], options: dict[str, Any], steps: int
) -> TableHarness:
    """Play ``steps`` random listed moves, check the invariants, return the harness."""
    dice = RandomDice(seed)
    hub = Hub(MemoryEventStore(), load_registry(), dice=lambda tid, s, cursor: dice)
    created = await hub.create_table(
        ruleset="shadowjan", name="prop", options=options, gm_name="GM"
    )
    h = TableHarness(hub, await hub.table(created.table_id), dice, created.member_id)  # type: ignore[arg-type]
    h._invite = {"player": created.player_token, "spectator": created.spectator_token}
    owner: dict[str, str] = {}
    for i in range(n):
        m = await h.join(NAMES[i])
        (cc,) = await h.send(m, CreateCharacter(name=NAMES[i], sheet=sheets[i]))
        owner[cc.character_id] = m
        await h.send(m, C.Sit(character_id=cc.character_id))
    await h.send(next(iter(owner.values())), C.Start())
    start = options.get("start_score", 25000)
    pick = random.Random(seed + 1)
    for _ in range(steps):
        view = h.view(h.gm)["game"]
        if view["phase"] == "ended":
            break
        legal = moves(h, h.gm)
        turn = h.table.ruleset.turn(h.state, h.state.rules)
        assert legal, f"nothing legal at {turn.phase}"
        # every offered move belongs to the player the table waits for
        assert {m["character_id"] for m in legal} == {turn.actor}
        m = pick.choice(legal)
        cmd = msgspec.convert(m["command"], _CMD[m["command"]["type"]])
        try:
            await h.send(owner[m["character_id"]], cmd)
        except Exception:
            for e in (await h.events())[-25:]:
                print(
                    h.table.ruleset.render(e, h.state, h.state.rules)
                    if h.table.ruleset.render
                    else e
                )
            print("MOVE", m)
            raise
    # points: the payments are zero-sum; only a knock-out's rounding loses any
    events = await h.events()
    lost = sum(
        e.points - sum(e.shares.values())
        for e in events
        if isinstance(e, ev.KnockedOut) and e.points > 0
    )
    scores = {c: p.score for c, p in h.game.players.items()}
    assert sum(scores.values()) == start * n - lost
    assert all(sum(e.deltas.values()) == 0 for e in events if isinstance(e, ev.Scored))
    await h.assert_replay_matches()
    return h


_sheet = st.fixed_dictionaries(
    {
        "karate": st.integers(2, 8),
        "neuron": st.integers(2, 8),
        "wazamae": st.integers(2, 8),
        "jitsu": st.integers(0, 2),
        "tairyoku": st.integers(1, 8),
        "seishin": st.integers(0, 3),
    }
)


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    n=st.integers(2, 4),
    sheets=st.lists(_sheet, min_size=4, max_size=4),
    sixes=st.integers(2, 4),
    negative=st.booleans(),
    fight=st.booleans(),
)
def test_random_legal_play_keeps_the_invariants(
    seed: int, n: int, sheets: list[dict[str, Any]], sixes: int, negative: bool, fight: bool
) -> None:
    """Any sequence of listed moves is accepted; replay == live; points only vanish by rounding."""
    print(f"seed={seed}")
    options = {"tsumo_sixes": sixes, "end_on_negative": negative, "ninja_slayer_fight": fight}
    asyncio.run(_play(seed, n, [ninja(**s) for s in sheets], options, steps=120))


@given(
    n=st.integers(2, 4), kind=st.sampled_from(["tenho", "riichi", "dama"]), draws=st.integers(0, 4)
)
def test_tsumo_and_chombo_are_zero_sum(n: int, kind: str, draws: int) -> None:
    """SJ-30, SJ-32: what the winner gets the others pay; the offender pays what the others get."""
    live = [f"c{i}" for i in range(n)]
    t = rules.tsumo_deltas("c0", live, kind, 2**draws)
    assert sum(t.values()) == 0 and t["c0"] == rules.TSUMO[kind][n] * 2**draws * (n - 1)
    ch = rules.chombo_deltas("c1", live)
    assert sum(ch.values()) == 0 and all(v == rules.CHOMBO[n] for c, v in ch.items() if c != "c1")


@given(points=st.integers(-50000, 200000), n=st.integers(1, 3))
def test_knockout_split_rounds_down_to_thousands(points: int, n: int) -> None:
    """SJ-34, G-SJ-12: equal shares, multiples of 1000, never more than the points."""
    shares = rules.split_points(points, [f"c{i}" for i in range(n)])
    values = set(shares.values())
    assert len(values) == 1
    (share,) = values
    assert (
        share % 1000 == 0 and share * n <= max(points, 0) and max(points, 0) - share * n < 1000 * n
    )


@given(face=st.integers(1, 6), score=st.integers(-10000, 10000))
def test_ninja_slayer_face_above_score_per_thousand(face: int, score: int) -> None:
    """SJ-28, G-SJ-14: triggers when the face is above score / 1000 (real numbers), always below 0."""
    hit = rules.ninja_slayer_triggers(None if score < 0 else face, score)
    assert hit == (score < 0 or face > score / 1000)
