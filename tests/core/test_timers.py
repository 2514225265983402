"""The core's timers as a pure decider: given these events, when this command, then these
events or this rejection code (no store, no clock but ``ctx.now``)."""

from __future__ import annotations

import datetime as dt

import msgspec
import pytest

from taku.core import kit
from taku.core import table as core_table
from taku.core.commands import CancelTimer, SetTimer
from taku.core.dice import ScriptedDice
from taku.core.events import MemberJoined, TableCreated, TimerCancelled, TimerExpired, TimerSet
from taku.core.ruleset import Context, Role
from taku.errors import InvalidCommand
from taku.plugins import load_registry

T0 = dt.datetime(2026, 12, 1, 15, 0, tzinfo=dt.UTC)
GENERIC = load_registry().get("generic")


def _state(*events: object) -> core_table.TableState:
    state = core_table.TableState(table_id="t1")
    for i, e in enumerate(
        (TableCreated(name="卓", ruleset="generic", ruleset_version=GENERIC.version), *events)
    ):
        state = core_table.evolve(state, e, GENERIC)  # type: ignore[arg-type]
        state = msgspec.structs.replace(state, seq=i + 1)
    return state


def _ctx(
    state: core_table.TableState, *, now: dt.datetime | None, actor: str | None = "m2"
) -> Context:
    return Context(
        actor=actor,
        role=state.role_of(actor),
        dice=ScriptedDice(),
        next_seq=state.seq + 1,
        now=now,
    )


GM_JOINED = MemberJoined(member_id="m2", name="GM", role=Role.GM)


def test_set_timer_takes_its_deadline_from_the_commands_time() -> None:
    """The deadline is ``ctx.now`` plus the duration; the id derives from the seq."""
    state = _state(GM_JOINED)
    out = core_table.decide(
        state, SetTimer(duration_s=90, label=" 手番 "), _ctx(state, now=T0), GENERIC
    )
    assert out == [
        TimerSet(
            timer_id="timer3",
            deadline=T0 + dt.timedelta(seconds=90),
            duration_s=90,
            label="手番",
        )
    ]


def test_no_clock_no_timer() -> None:
    """Decided without a time (outside the server and verify), or for 0 s: refused."""
    state = _state(GM_JOINED)
    with pytest.raises(InvalidCommand) as e:
        core_table.decide(state, SetTimer(duration_s=5), _ctx(state, now=None), GENERIC)
    assert e.value.code == "timer/no_clock"
    with pytest.raises(InvalidCommand) as e:
        kit.timer(_ctx(state, now=T0), 0)
    assert e.value.code == "timer/invalid_duration"


def test_expiry_only_at_the_deadline_and_only_while_armed() -> None:
    """Before the deadline ``timer/not_due``; at it one ``timer_expired``; once expired
    or cancelled, neither a second expiry nor a cancel (``timer/unknown_timer``)."""
    armed = TimerSet(timer_id="timer3", deadline=T0, duration_s=60, label="手番")
    state = _state(GM_JOINED, armed)
    expire = core_table.ExpireTimer(timer_id="timer3")
    early = T0 - dt.timedelta(microseconds=1)
    with pytest.raises(InvalidCommand) as e:
        core_table.decide_server(state, expire, _ctx(state, now=early, actor=None), GENERIC)
    assert e.value.code == "timer/not_due"
    out = core_table.decide_server(state, expire, _ctx(state, now=T0, actor=None), GENERIC)
    assert out == [TimerExpired(timer_id="timer3", deadline=T0, label="手番")]
    for closing in (out[0], TimerCancelled(timer_id="timer3")):
        after = _state(GM_JOINED, armed, closing)
        assert after.timers == {}
        with pytest.raises(InvalidCommand) as e:
            core_table.decide_server(after, expire, _ctx(after, now=T0, actor=None), GENERIC)
        assert e.value.code == "timer/unknown_timer"
        with pytest.raises(InvalidCommand) as e:
            core_table.decide(after, CancelTimer(timer_id="timer3"), _ctx(after, now=T0), GENERIC)
        assert e.value.code == "timer/unknown_timer"
