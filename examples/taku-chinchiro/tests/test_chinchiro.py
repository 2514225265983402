"""The example's own tests: a ruleset is tested through taku's harness with scripted dice."""

from taku.testing.harness import TableHarness
from taku_chinchiro.game import CloseRound, RollBowl
from taku_chinchiro.rules import read_hand


def test_hands() -> None:
    assert read_hand((4, 6, 5)).name == "シゴロ"
    assert read_hand((1, 1, 1)).rank > read_hand((6, 6, 6)).rank > read_hand((4, 5, 6)).rank
    assert read_hand((2, 2, 5)).name == "5の目" and read_hand((1, 3, 5)).final is False


async def test_a_round() -> None:
    h = await TableHarness.create("chinchiro", faces=[1, 3, 5, 2, 2, 6, 4, 5, 6])
    a, b = await h.join("A"), await h.join("B")
    await h.send(a, RollBowl())  # 目なし: may roll again
    await h.send(a, RollBowl())  # 6の目
    await h.send(b, RollBowl())  # シゴロ
    (closed,) = await h.send(h.gm, CloseRound())
    assert closed.winners == (b,) and h.game.wins == {b: 1}


# ----------------------------------------------------------------- taku's conformance kit
from taku.testing.ruleset_contract import RulesetContract  # noqa: E402


class TestChinchiroContract(RulesetContract):
    """Every check taku asks of a ruleset: purity, tags, Japanese labels, declared errors
    and permits, and random play driven by ``affordances()``."""

    ruleset_id = "chinchiro"
    steps = 80


async def test_a_secret_bowl() -> None:
    """``Sチンチロ``: taku's secret prefix works for this ruleset's chat command too."""
    h = await TableHarness.create("chinchiro", faces=[4, 5, 6])
    a, b = await h.join("A"), await h.join("B")
    (rolled,) = await h.chat(a, "Sチンチロ")
    assert rolled.hand.name == "シゴロ"
    seen_by_b = [f for f in await h.frames(b) if f["seq"] == h.state.seq][0]
    assert seen_by_b["redacted"] and "hand" not in seen_by_b["event"]
