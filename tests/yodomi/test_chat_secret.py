"""Every chat command of docs/rulesets/yodomi.md ("Chat dice"), plain and with the core's
secret prefix ``S``: rolled by 澱み流れ's own dice (``yodomi.check_rolled``, never the
generic ``dice_rolled``); plain, everyone sees it; secret, the roller and the GM see
it in full, the other player and the spectator only the redacted stand-in."""

from __future__ import annotations

from typing import Any

import pytest

# (line, faces scripted (d10s), what the check must show)
COMMANDS = [
    ("2D9", (3, 4), {"kind": "2d9", "base": 0, "value": 7}),
    ("2D9+5", (3, 4), {"kind": "2d9", "base": 5, "value": 12}),
    ("2D9+5-2", (3, 4), {"kind": "2d9", "base": 3, "value": 10}),
    ("2D9+5>=12", (3, 4), {"kind": "2d9", "difficulty": 12, "value": 12, "success": True}),
    ("2D9+3>=10", (2, 4), {"kind": "2d9", "difficulty": 10, "value": 9, "success": False}),
    ("D99<50", (4, 2), {"kind": "d99", "target": 50, "value": 42, "success": True}),
    ("D99<50+10", (5, 5), {"kind": "d99", "target": 60, "value": 55, "critical": True}),
    (
        "2D9+5>=12@7",
        (7, 2, 7, 7),
        {"kind": "2d9", "rerolled": True, "key_critical": True, "value": 35},
    ),
    ("D99<50@3", (3, 1, 2, 5), {"kind": "d99", "rerolled": True, "value": 25, "success": True}),
    ("2D9+5>=12 斬る", (3, 4), {"kind": "2d9", "value": 12, "label": "2D9+5>=12 斬る"}),
    ("２Ｄ９＋３", (3, 4), {"kind": "2d9", "base": 3, "value": 10}),
]


def _check_of(frame: dict[str, Any]) -> dict[str, Any]:
    assert frame["event"]["type"] == "yodomi.check_rolled", frame
    return frame["event"]["check"]


@pytest.mark.parametrize(("line", "faces", "expect"), COMMANDS, ids=[c[0] for c in COMMANDS])
async def test_plain_chat_command_is_public(
    yd: Any, line: str, faces: tuple[int, ...], expect: dict[str, Any]
) -> None:
    yd.h.roll(*faces)
    (ev,) = await yd.h.chat(yd.pa, line)
    seq = yd.h.state.seq
    for member in (yd.pa, yd.pb, yd.h.gm, yd.spec, None):
        (frame,) = [f for f in await yd.h.frames(member) if f["seq"] == seq]
        assert not frame.get("redacted")
        k = _check_of(frame)
        assert {key: k.get(key) for key in expect} == expect
        assert k["purpose"] == "chat" and k["character_id"] is None


@pytest.mark.parametrize(("line", "faces", "expect"), COMMANDS, ids=[c[0] for c in COMMANDS])
async def test_secret_chat_command_reaches_the_roller_and_the_gm_only(
    yd: Any, line: str, faces: tuple[int, ...], expect: dict[str, Any]
) -> None:
    yd.h.roll(*faces)
    await yd.h.chat(yd.pa, "S" + line)
    seq = yd.h.state.seq
    assert yd.h.dice.remaining == []  # rolled once, by 澱み流れ's dice
    for member in (yd.pa, yd.h.gm):
        (frame,) = [f for f in await yd.h.frames(member) if f["seq"] == seq]
        k = _check_of(frame)
        assert {key: k.get(key) for key in expect} == expect
    for member in (yd.pb, yd.spec, None):
        (frame,) = [f for f in await yd.h.frames(member) if f["seq"] == seq]
        assert frame.get("redacted") and frame["event"]["type"] != "yodomi.check_rolled"
        assert "check" not in frame["event"]


async def test_full_width_secret_prefix(yd: Any) -> None:
    """The full-width prefix works too (``Ｓ２Ｄ９``)."""
    yd.h.roll(1, 2)
    await yd.h.chat(yd.pa, "Ｓ２Ｄ９")
    (frame,) = [f for f in await yd.h.frames(yd.pb) if f["seq"] == yd.h.state.seq]
    assert frame.get("redacted")


async def test_a_bad_key_number_is_refused_with_the_rule_code(yd: Any) -> None:
    """``@0`` is no key number (1-9), plain or secret."""
    from taku.errors import TakuError

    for line in ("2D9@0", "S2D9@0"):
        with pytest.raises(TakuError) as info:
            await yd.h.chat(yd.pa, line)
        assert info.value.code == "rule/yodomi/bad_key_number"
