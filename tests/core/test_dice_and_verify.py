"""Seeded dice are unbiased and reproducible; verify catches any changed face."""

from __future__ import annotations

import collections

import msgspec
from hypothesis import given
from hypothesis import strategies as st

from taku.core.commands import RevealSeed, RollDice
from taku.core.dice import SeededDice, epoch_seed, face_at, fisher_yates, seed_hash
from taku.testing.harness import TableHarness
from taku.verify import LogEntry, verify


def test_faces_are_uniform() -> None:
    """12,000 d6 faces from one seed: every face count within 5 standard deviations of 2,000."""
    dice = SeededDice(b"\x01" * 32)
    counts = collections.Counter(f for _ in range(60) for f in dice.roll(200, 6).faces)
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    sd = (12_000 * (1 / 6) * (5 / 6)) ** 0.5
    assert all(abs(counts[face] - 2000) < 5 * sd for face in range(1, 7)), counts


@given(seed=st.binary(min_size=1, max_size=64), k=st.integers(0, 10**9), sides=st.integers(1, 1000))
def test_a_face_depends_only_on_seed_index_and_sides(seed: bytes, k: int, sides: int) -> None:
    """The same (seed, index, sides) always gives the same face, within 1..sides."""
    f = face_at(seed, k, sides)
    assert 1 <= f <= sides and f == face_at(seed, k, sides)


def test_cursor_continues_the_stream() -> None:
    """Two sources resuming at a cursor reproduce the same faces as one source."""
    a = SeededDice(b"s" * 32)
    whole = a.roll(10, 6).faces
    b = SeededDice(b"s" * 32, cursor=4)
    assert b.roll(6, 6).faces == whole[4:]


@given(
    size=st.integers(0, 60), seed=st.binary(min_size=32, max_size=32), cursor=st.integers(0, 10**6)
)
def test_shuffle_is_a_permutation(size: int, seed: bytes, cursor: int) -> None:
    """A shuffle of ``size`` is a permutation drawn from ``size - 1`` faces at the cursor, which it moves past them."""
    dice = SeededDice(seed, cursor)
    s = dice.shuffle(size)
    assert sorted(s.order) == list(range(size)) and s.size == size and s.at == cursor
    assert dice.cursor == cursor + max(size - 1, 0)
    assert s.order == fisher_yates(
        size, [face_at(seed, cursor + j, size - j) for j in range(max(size - 1, 0))]
    )


def test_shuffles_put_every_card_everywhere_uniformly() -> None:
    """3,000 shuffles of a 54-card deck, one after another from a fixed seed: every card reaches
    every position, and the 54x54 position/card counts pass a chi-square test (df = 53², bound
    df + 5 sd). The identity, a rotation, Sattolo's variant (no card stays) or shuffles that
    repeat (a cursor that does not move) all fail it."""
    n, rounds = 54, 3000
    dice = SeededDice(b"shuffle statistics".ljust(32, b"."))
    counts = [[0] * n for _ in range(n)]
    for _ in range(rounds):
        for position, card in enumerate(dice.shuffle(n).order):
            counts[position][card] += 1
    assert min(min(row) for row in counts) > 0, "a card never reached some position"
    expected = rounds / n
    chi2 = sum((c - expected) ** 2 / expected for row in counts for c in row)
    df = (n - 1) ** 2
    assert chi2 < df + 5 * (2 * df) ** 0.5, chi2
    assert dice.cursor == rounds * (n - 1)


async def _seeded_table_log() -> list[LogEntry]:
    h = await TableHarness.create("generic")
    seed = b"\x07" * 32
    h.hub.dice = lambda tid, s, cursor: SeededDice(s, cursor)
    h.table.record = msgspec.structs.replace(h.table.record, seed=seed)
    # the table's first event must commit to this seed for the check to pass
    pl = await h.join("たろう")
    for expr in ("2D6", "3D6+1>=10", "4B6>=4", "D66", "1D100"):
        await h.send(pl, RollDice(expression=expr))
    await h.send(pl, RollDice(expression="2D6", secret=True))
    await h.send(h.gm, RevealSeed())
    recs = await h.hub.store.read(h.table.table_id)
    entries = [LogEntry(r.seq, r.command_id, r.draws, msgspec.json.decode(r.data)) for r in recs]
    entries[0].data["seed_hash"] = seed_hash(epoch_seed(seed, 0))
    return entries


async def test_verify_accepts_the_true_log() -> None:
    """Every roll recomputes from the revealed seed."""
    problems, counts = verify(await _seeded_table_log())
    assert problems == [] and counts["rolls"] == 6 and counts["faces"] == 2 + 3 + 4 + 2 + 1 + 2


async def test_verify_rejects_a_changed_face() -> None:
    """Changing any one face of any roll makes verification fail."""
    entries = await _seeded_table_log()
    rolled = [e for e in entries if e.data["type"] == "dice_rolled"]
    for e in rolled:
        for r in e.data["rolls"]:
            for i in range(len(r["faces"])):
                old = r["faces"][i]
                r["faces"][i] = old % r["sides"] + 1
                problems, _ = verify(entries)
                assert problems, (e.seq, i)
                r["faces"][i] = old


async def test_verify_rejects_a_hidden_reroll() -> None:
    """A roll removed from the log (drawn but not shown) leaves a hole the check finds."""
    entries = await _seeded_table_log()
    victim = next(e for e in entries if e.data["type"] == "dice_rolled")
    victim.data["rolls"] = []
    problems, _ = verify(entries)
    assert any("ログにありません" in p for p in problems)


async def test_verify_rejects_a_wrong_seed() -> None:
    entries = await _seeded_table_log()
    entries[0].data["seed_hash"] = seed_hash(b"other")
    problems, _ = verify(entries)
    assert problems and "一致しません" in problems[0]


async def test_verify_rejects_a_changed_result_with_true_faces() -> None:
    """Keeping the faces but changing a roll's total, success or text is caught too."""
    for field, value in (
        ("total", 99),
        ("success", True),
        ("result", "(2D6) ＞ 12[6,6] ＞ 12"),
        ("expression", "2D6+5"),
    ):
        entries = await _seeded_table_log()
        victim = next(
            e
            for e in entries
            if e.data["type"] == "dice_rolled" and e.data["expression"] == "3D6+1>=10"
        )
        if field == "success":
            value = not victim.data["success"]
        victim.data[field] = value
        problems, _ = verify(entries)
        assert problems, field


async def test_a_rulesets_own_dice_commands_verify_too() -> None:
    """nstrpg's chat pools (N5[S] …) are dice_rolled events of their own syntax: their faces are checked."""
    h = await TableHarness.create("nstrpg")
    seed = b"\x09" * 32
    h.hub.dice = lambda tid, s, cursor: SeededDice(s, cursor)
    h.table.record = msgspec.structs.replace(h.table.record, seed=seed)
    pl = await h.join("たろう")
    for text in ("N5[S]", "E1,N2,H3", "2D6>=7", "SB"):
        await h.chat(pl, text)
    await h.send(h.gm, RevealSeed())
    recs = await h.hub.store.read(h.table.table_id)
    entries = [LogEntry(r.seq, r.command_id, r.draws, msgspec.json.decode(r.data)) for r in recs]
    entries[0].data["seed_hash"] = seed_hash(epoch_seed(seed, 0))
    problems, counts = verify(entries)
    assert problems == [] and counts["rolls"] >= 4
    pool = next(e for e in entries if e.data.get("expression", "").startswith("N5"))
    pool.data["rolls"][0]["faces"][0] = pool.data["rolls"][0]["faces"][0] % 6 + 1
    assert verify(entries)[0]
