"""A connection's session without a socket: membership, rate limit, frame sizes, the answer
order, answer frames and the backlog policy (:class:`taku.session.Session`)."""

from __future__ import annotations

import json
from typing import Any

import pytest
import structlog
from prometheus_client.parser import text_string_to_metric_families
from structlog.testing import capture_logs

from taku import codes, metrics
from taku.errors import StaleSeq, TakuError
from taku.net import ServerConfig
from taku.protocol import ChatMsg, GetState, Hello, Subscribe, decode_client
from taku.session import Session

HEAD = "0123456789abcdef" * 4
"""A table's hash-chain head (64 hex digits)."""


class Clock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def session(clock: Clock | None = None, **limits: Any) -> Session:
    return Session(ServerConfig(**limits), conn_id="c7", clock=clock or Clock())


def frame(msg: dict[str, Any]) -> bytes:
    return json.dumps(msg, ensure_ascii=False).encode()


def chat(n: int, tid: str = "t1") -> bytes:
    return frame({"type": "chat", "id": n, "table_id": tid, "text": f"line {n}"})


def code_of(e: pytest.ExceptionInfo[TakuError]) -> str:
    return e.value.code


def test_a_table_message_before_join_is_not_joined_and_its_error_names_the_request() -> None:
    s = session()
    msg = s.receive(frame({"type": "get_state", "id": "r1", "table_id": "t1"}))
    with pytest.raises(TakuError) as e:
        s.member("t1")
    assert code_of(e) == "protocol/not_joined"
    err = json.loads(s.error(e.value, msg.id))
    assert err["type"] == "error" and err["re"] == "r1"
    assert err["code"] == "protocol/not_joined"
    assert err["message"] == codes.message("protocol/not_joined", {})
    s.joined("t1", "m3")
    assert s.member("t1") == "m3"
    with pytest.raises(TakuError) as other:
        s.member("t2")  # a join is per table
    assert code_of(other) == "protocol/not_joined"


def test_the_rate_limit_allows_a_burst_refuses_the_next_and_refills_with_time() -> None:
    clock = Clock()
    s = session(clock, rate_per_s=2.0, rate_burst=3)
    for n in range(3):
        assert isinstance(s.receive(chat(n)), ChatMsg)
    with pytest.raises(TakuError) as e:
        s.receive(chat(3))
    assert code_of(e) == "protocol/rate_limited"
    err = json.loads(s.error(e.value, None, chat(3)))
    assert err["code"] == "protocol/rate_limited" and err["re"] == 3
    # the refused message, decoded, so that its answer can name it and wait its turn
    refused = e.value.refused  # type: ignore[attr-defined]
    assert isinstance(refused, ChatMsg) and refused.id == 3
    named = json.loads(s.error(e.value, refused.id, command_id="c-3"))
    assert named["re"] == 3 and named["command_id"] == "c-3"
    # past the rate, a frame that does not decode is refused for the rate, its ids peeked
    broken = frame({"type": "command", "id": 9, "command_id": "c-9", "table_id": "t1"})
    with pytest.raises(TakuError) as past:
        s.receive(broken)
    assert code_of(past) == "protocol/rate_limited" and past.value.refused is None  # type: ignore[attr-defined]
    err9 = json.loads(s.error(past.value, None, broken))
    assert err9["re"] == 9 and err9["command_id"] == "c-9"
    clock.now += 0.4  # 0.8 of a token: still refused
    with pytest.raises(TakuError):
        s.receive(chat(4))
    clock.now += 0.1  # one token
    assert isinstance(s.receive(chat(5)), ChatMsg)
    with pytest.raises(TakuError):
        s.receive(chat(6))
    clock.now += 60  # saved up to the burst, no more
    for n in range(3):
        s.receive(chat(10 + n))
    with pytest.raises(TakuError) as again:
        s.receive(chat(13))
    assert code_of(again) == "protocol/rate_limited"


def test_a_frame_past_the_limit_is_refused_naming_the_limit_and_its_id() -> None:
    s = session(max_frame_bytes=200, hard_max_frame_bytes=400)
    fits = frame({"type": "chat", "id": "a", "table_id": "t1", "text": ""})
    fits = frame({"type": "chat", "id": "a", "table_id": "t1", "text": "x" * (200 - len(fits))})
    assert len(fits) == 200 and isinstance(s.receive(fits), ChatMsg)  # the limit itself fits
    big = frame({"type": "chat", "id": "b", "table_id": "t1", "text": "x" * 250})
    assert 200 < len(big) <= 400
    with pytest.raises(TakuError) as e:
        s.receive(big)
    assert code_of(e) == "protocol/frame_too_large"
    err = json.loads(s.error(e.value, None, big))
    assert err["re"] == "b" and err["params"] == {"limit": 200}
    assert err["message"] == codes.message("protocol/frame_too_large", {})
    at_hard = frame({"type": "chat", "id": "h", "table_id": "t1", "text": ""})
    at_hard = frame(
        {"type": "chat", "id": "h", "table_id": "t1", "text": "x" * (400 - len(at_hard))}
    )
    assert len(at_hard) == 400 and json.loads(s.error(e.value, None, at_hard))["re"] == "h"
    huge = frame({"type": "chat", "id": "c", "table_id": "t1", "text": "x" * 500})
    with pytest.raises(TakuError):
        s.receive(huge)
    # past the hard limit the frame is not parsed even for its id
    assert "re" not in json.loads(s.error(e.value, None, huge))


def test_a_frame_that_does_not_decode_gets_its_code_and_its_id_when_it_has_one() -> None:
    s = session()
    bad = frame({"type": "teleport", "id": 9})
    with pytest.raises(TakuError) as e:
        s.receive(bad)
    assert code_of(e) == "protocol/unknown_type"
    assert json.loads(s.error(e.value, None, bad))["re"] == 9
    with pytest.raises(TakuError) as garbled:
        s.receive(b"{not json")
    err = json.loads(s.error(garbled.value, None, b"{not json"))
    assert err["code"] == "protocol/malformed_json" and "re" not in err
    # an id that is no usable request id (a bool, an object) or a frame that is no object
    for raw in (b'{"type": "teleport", "id": true}', b'{"id": {"a": 1}}', b'[{"id": 1}]'):
        with pytest.raises(TakuError) as unusable:
            s.receive(raw)
        assert "re" not in json.loads(s.error(unusable.value, None, raw)), raw
    # a known id is answered as it is, the frame not parsed again
    assert json.loads(s.error(garbled.value, "mine", b'{"id": "other"'))["re"] == "mine"


def submit(s: Session, n: int, tid: str = "t1") -> Any:
    msg = s.receive(chat(n, tid))
    assert isinstance(msg, ChatMsg)
    return s.submitted(msg.id, tid, "generic", "m1", s.chat_command_id(msg), msg.command())


def test_a_non_command_waits_until_every_earlier_command_is_answered() -> None:
    s = session()
    s.joined("t1", "m1")
    get_state = s.receive(frame({"type": "get_state", "id": "g", "table_id": "t1"}))
    assert isinstance(get_state, GetState)
    assert not s.waits(get_state)  # nothing in flight: handled at once
    first, second = submit(s, 1), submit(s, 2)
    assert s.unanswered == 2
    later = [
        get_state,
        Hello(id="h"),
        Subscribe(id="s", table_id="t1"),
        decode_client(frame({"type": "get_log", "table_id": "t1"})),
    ]
    assert all(s.waits(m) for m in later)
    assert not s.waits(ChatMsg(table_id="t1", text="more"))  # commands go on being submitted
    s.answer(first, (1, 1, False), HEAD, 1)
    assert s.waits(get_state), "one command still unanswered"
    s.answer(second, StaleSeq("stale", expected_seq=1, seq=2), HEAD, 1)  # a rejection answers too
    assert s.unanswered == 0
    assert not any(s.waits(m) for m in later)


def test_commands_wait_once_max_unanswered_are_in_flight() -> None:
    s = session(max_unanswered=3)
    s.joined("t1", "m1")
    cmd = ChatMsg(table_id="t1", text="x")
    pending = []
    for n in range(3):
        assert not s.waits(cmd)
        pending.append(submit(s, n))
    assert s.waits(cmd), "the fourth command waits: the client outruns the table"
    s.answer(pending.pop(0), (1, 1, False), HEAD, 1)
    assert not s.waits(cmd)


def test_an_ack_names_the_command_its_seqs_and_the_head() -> None:
    s = session()
    s.joined("t1", "m1")
    p = s.submitted(
        "r5", "t1", "generic", "m1", "cmd-5", ChatMsg(table_id="t1", text="x").command()
    )
    ack = json.loads(s.answer(p, (4, 6, False), HEAD, 6))
    assert ack == {
        "type": "ack",
        "re": "r5",
        "table_id": "t1",
        "command_id": "cmd-5",
        "first_seq": 4,
        "last_seq": 6,
        "head": HEAD[:16],
        "head_seq": 6,
    }
    again = s.submitted(
        "r6", "t1", "generic", "m1", "cmd-5", ChatMsg(table_id="t1", text="x").command()
    )
    dup = json.loads(s.answer(again, (4, 6, True), HEAD, 9))
    assert dup["duplicate"] is True and (dup["first_seq"], dup["last_seq"]) == (4, 6)
    assert dup["re"] == "r6" and dup["head_seq"] == 9


def test_a_rejection_is_an_error_naming_its_code_params_and_command_id() -> None:
    s = session()
    p = s.submitted(11, "t1", "generic", "m1", "cmd-7", None)
    err = json.loads(s.answer(p, StaleSeq("expected 3", expected_seq=3, seq=5), HEAD, 5))
    assert err["type"] == "error" and err["re"] == 11 and err["command_id"] == "cmd-7"
    assert err["code"] == "command/stale_seq"
    assert err["params"] == {"expected_seq": 3, "seq": 5} == err["details"]
    assert err["message"] == "卓の状態が変わりました。最新の状態で送り直してください"


class Opaque:
    def __repr__(self) -> str:
        return "<opaque>"


def test_a_rule_error_keeps_its_own_message_and_params_become_json() -> None:
    s = session()
    p = s.submitted(1, "t1", "generic", "m1", "cmd-9", None)
    rule = TakuError("3回までです", code="rule/generic/too_many", by_seat={1: "a"}, what=Opaque())
    err = json.loads(s.answer(p, rule, HEAD, 5))
    assert err["code"] == "rule/generic/too_many" and err["message"] == "3回までです"
    assert err["params"] == {"by_seat": {"1": "a"}, "what": "<opaque>"}


def test_an_internal_failure_is_internal_error_and_logged_with_its_context() -> None:
    with capture_logs(processors=[structlog.contextvars.merge_contextvars]) as logs:
        s = session()
        p = s.submitted(
            "r", "t1", "generic", "m1", "cmd-8", ChatMsg(table_id="t1", text="x").command()
        )
        err = json.loads(s.answer(p, ZeroDivisionError("bug"), HEAD, 0))
    assert err["code"] == "internal/error" and err["command_id"] == "cmd-8" and err["re"] == "r"
    assert err["params"] == {} == err["details"]
    assert err["message"] == codes.message("internal/error", {})
    (line,) = [e for e in logs if e["event"] == "internal_error"]
    assert line["conn_id"] == "c7" and line["command_id"] == "cmd-8"
    assert line["command"] == "Chat" and line["table_id"] == "t1"
    assert isinstance(line["exc_info"], ZeroDivisionError)
    # a read-loop failure gets the same code without a command id
    read = json.loads(s.error(None, "q"))
    assert read["code"] == "internal/error" and read["re"] == "q" and "command_id" not in read


def test_each_answer_logs_one_line_timed_from_the_frame_it_came_in() -> None:
    clock = Clock()
    with capture_logs() as logs:
        s = session(clock)
        p = submit(s, 1)
        clock.now += 0.25
        s.answer(p, (3, 3, False), HEAD, 3)
        q = s.submitted("r2", "t1", "generic", "m1", "cmd-q", None)  # did not decode
        clock.now += 0.125
        s.answer(q, StaleSeq("stale"), HEAD, 3)
    done = [e for e in logs if e["event"] == "command_done"]
    rejected = [e for e in logs if e["event"] == "command_rejected"]
    assert len(done) == 1 and len(rejected) == 1
    assert done[0]["seqs"] == [3, 3] and done[0]["duration_ms"] == 250.0
    assert done[0]["duplicate"] is False
    assert done[0]["conn_id"] == "c7" and done[0]["command"] == "Chat"
    assert (done[0]["table_id"], done[0]["member_id"]) == ("t1", "m1")
    assert rejected[0]["code"] == "command/stale_seq" and rejected[0]["command"] == "?"
    assert rejected[0]["duration_ms"] == 125.0 and rejected[0]["command_id"] == "cmd-q"
    assert (rejected[0]["table_id"], rejected[0]["member_id"]) == ("t1", "m1")


def scrape() -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    out = {}
    for family in text_string_to_metric_families(metrics.exposition().decode()):
        for sample in family.samples:
            out[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return out


def test_answers_are_counted_by_outcome_and_timed_from_the_frame_in() -> None:
    ruleset = "sansio-metrics"  # a label of this test's own
    clock = Clock()
    s = session(clock)
    before = scrape()
    outcomes: list[Any] = [(1, 1, False), (1, 1, True), StaleSeq("stale"), RuntimeError("bug")]
    for n, outcome in enumerate(outcomes):
        msg = s.receive(chat(n))
        clock.now += 0.5  # waited for earlier commands: counted in the latency
        p = s.submitted(msg.id, "t1", ruleset, "m1", f"cmd-{n}", None)
        clock.now += 0.25
        s.answer(p, outcome, HEAD, 1)
    fresh = session(clock)  # no frame received yet: timed from submitting
    clock.now += 1.0
    p = fresh.submitted("x", "t1", ruleset, "m1", "cmd-x", None)
    clock.now += 2.0
    fresh.answer(p, (2, 2, False), HEAD, 2)
    after = scrape()

    def delta(name: str, **labels: str) -> float:
        key = (name, tuple(sorted(labels.items())))
        return after.get(key, 0.0) - before.get(key, 0.0)

    counts = {
        o: delta("taku_commands_total", ruleset=ruleset, outcome=o)
        for o in ("ok", "duplicate", "rejected", "error")
    }
    assert counts == {"ok": 2, "duplicate": 1, "rejected": 1, "error": 1}
    assert delta("taku_command_latency_seconds_count", ruleset=ruleset) == 5
    assert delta("taku_command_latency_seconds_sum", ruleset=ruleset) == pytest.approx(4 * 0.75 + 2)
    assert delta("taku_errors_total", code="command/stale_seq") == 1
    assert delta("taku_errors_total", code="internal/error") == 1


def test_chat_without_a_command_id_gets_one_unique_on_the_connection() -> None:
    s = session()
    a = s.chat_command_id(ChatMsg(table_id="t1", text="x"))
    b = s.chat_command_id(ChatMsg(table_id="t1", text="x"))
    assert a.startswith("chat-c7-") and a != b
    assert s.chat_command_id(ChatMsg(table_id="t1", text="x", command_id="mine")) == "mine"


def test_a_peer_past_the_backlog_or_stalled_too_long_is_dropped() -> None:
    s = session(max_backlog_bytes=1000, catch_up_stall_s=5.0)
    assert not s.over_backlog(0) and not s.over_backlog(1000)
    assert s.over_backlog(1001)
    assert s.stall_step_s == 1.0
    assert not s.stalled(4.9) and s.stalled(5.0)
    quick = session(catch_up_stall_s=0.5)
    assert quick.stall_step_s == 0.5 and quick.stalled(0.5)


def test_closing_hands_back_every_subscription_once() -> None:
    s = session()
    a, b, c = object(), object(), object()
    s.subscribed("t1", a)  # type: ignore[arg-type]
    s.subscribed("t2", b)  # type: ignore[arg-type]
    s.subscribed("t3", c)  # type: ignore[arg-type]
    assert s.unsubscribed("t2") is b and s.unsubscribed("t2") is None
    assert s.close() == [a, c]
    assert s.close() == []
