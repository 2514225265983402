"""Every chat command of docs/rulesets/chabu.md, plain and with the core's secret prefix ``S``.

``S<command>`` is read by the ruleset with the prefix stripped; the roller and
the GM see the roll in full, the other players, spectators and the public only
the redacted stand-in. The plain command stays public.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from taku.core.events import Redacted
from taku_chabu.events import CheckRolled, DamageRolled, OpposedRolled

DOC = Path(__file__).resolve().parents[2] / "docs" / "rulesets" / "chabu.md"

# every command the doc's chat table lists, with dice faces that roll it and the event it writes
COMMANDS: list[tuple[str, tuple[int, ...], type]] = [
    ("CH<=50", (3, 2), CheckRolled),
    ("CH50", (3, 2), CheckRolled),
    ("CH<=40+10 運転", (3, 2), CheckRolled),
    ("CH<=50VS40", (3, 2, 5, 1), OpposedRolled),
    ("CHD3+5", (1, 2, 3), DamageRolled),
    ("CHD3+5*2", (1, 2, 3), DamageRolled),
]


def test_the_list_is_the_documented_one() -> None:
    """The commands tested here are exactly those of the doc's chat table."""
    section = DOC.read_text(encoding="utf-8").split("## Chat commands", 1)[1].split("##", 1)[0]
    documented = {
        c
        for row in re.findall(r"^\| (`.*?) \|", section, re.M)
        for c in re.findall(r"`([^`]+)`", row)
    }
    assert documented == {text for text, _, _ in COMMANDS}


async def _members(t: Any) -> dict[str, str | None]:
    return {
        "roller": t.pl1,
        "gm": t.gm,
        "other": t.pl2,
        "spectator": await t.h.join("観戦者", role="spectator"),
        "public": None,
    }


async def _last(t: Any, member: str | None) -> dict[str, Any]:
    return (await t.h.frames(member))[-1]


@pytest.mark.parametrize(("text", "faces", "kind"), COMMANDS, ids=[c[0] for c in COMMANDS])
async def test_secret_command_is_seen_only_by_the_roller_and_the_gm(
    t: Any, text: str, faces: tuple[int, ...], kind: type
) -> None:
    members = await _members(t)
    t.d10(*faces)
    (ev,) = await t.h.chat(t.pl1, "S" + text)
    assert isinstance(ev, kind)
    seq = t.h.state.seq
    full = {k: await _last(t, m) for k, m in members.items()}
    for k in ("roller", "gm"):
        assert full[k]["seq"] == seq and full[k]["event"]["type"] == kind.__struct_config__.tag, k
        assert not full[k].get("redacted"), k
    for k in ("other", "spectator", "public"):
        assert (
            full[k]["seq"] == seq and full[k]["event"]["type"] == Redacted.__struct_config__.tag
        ), k
        assert full[k].get("redacted"), k
        assert "roll" not in full[k]["event"] and "faces" not in str(full[k]["event"]), k


@pytest.mark.parametrize(("text", "faces", "kind"), COMMANDS, ids=[c[0] for c in COMMANDS])
async def test_plain_command_is_public(
    t: Any, text: str, faces: tuple[int, ...], kind: type
) -> None:
    members = await _members(t)
    t.d10(*faces)
    (ev,) = await t.h.chat(t.pl1, text)
    assert isinstance(ev, kind)
    for k, m in members.items():
        frame = await _last(t, m)
        assert frame["event"]["type"] == kind.__struct_config__.tag and not frame.get("redacted"), k


async def test_full_width_secret_prefix_and_a_label(t: Any) -> None:
    """``ＳＣＨ＜＝５０ 聞き耳``: full-width prefix, the label kept, secret all the same."""
    t.d10(3, 2)
    (ev,) = await t.h.chat(t.pl1, "ＳＣＨ＜＝５０ 聞き耳")
    assert isinstance(ev, CheckRolled) and (ev.target, ev.value, ev.label) == (50, 32, "聞き耳")
    assert (await _last(t, t.pl2))["event"]["type"] == Redacted.__struct_config__.tag
    assert (await _last(t, t.gm))["event"]["type"] == "chabu.check_rolled"


async def test_a_line_starting_with_s_that_is_no_command_stays_chat(t: Any) -> None:
    """``SCHOOL`` is no chabu command with the ``S`` stripped (nor as it is): plain, public chat."""
    (ev,) = await t.h.chat(t.pl1, "SCHOOL")
    assert type(ev).__name__ == "ChatPosted" and ev.text == "SCHOOL"  # type: ignore[attr-defined]
    assert (await _last(t, t.pl2))["event"]["type"] == "chat_posted"
