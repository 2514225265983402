"""A connection's session without a socket: membership, rate limit, frame sizes, the answer
order, answer frames and the backlog policy (:class:`taku.session.Session`)."""

from __future__ import annotations

import json
from typing import Any

import pytest
import structlog
from structlog.testing import capture_logs

from taku import codes
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
    fits = frame({"type": "chat", "id": "a", "table_id": "t1", "text": "x" * 100})
    assert len(fits) <= 200 and isinstance(s.receive(fits), ChatMsg)
    big = frame({"type": "chat", "id": "b", "table_id": "t1", "text": "x" * 250})
    assert 200 < len(big) <= 400
    with pytest.raises(TakuError) as e:
        s.receive(big)
    assert code_of(e) == "protocol/frame_too_large"
    err = json.loads(s.error(e.value, None, big))
    assert err["re"] == "b" and err["params"] == {"limit": 200}
    assert err["message"] == codes.message("protocol/frame_too_large", {})
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


def test_an_internal_failure_is_internal_error_and_logged_with_its_context() -> None:
    with capture_logs(processors=[structlog.contextvars.merge_contextvars]) as logs:
        s = session()
        p = s.submitted(
            "r", "t1", "generic", "m1", "cmd-8", ChatMsg(table_id="t1", text="x").command()
        )
        err = json.loads(s.answer(p, ZeroDivisionError("bug"), HEAD, 0))
    assert err["code"] == "internal/error" and err["command_id"] == "cmd-8"
    assert err["params"] == {} and err["message"] == codes.message("internal/error", {})
    (line,) = [e for e in logs if e["event"] == "internal_error"]
    assert line["conn_id"] == "c7" and line["command_id"] == "cmd-8"
    assert line["command"] == "Chat" and line["table_id"] == "t1"
    assert isinstance(line["exc_info"], ZeroDivisionError)
    # a read-loop failure gets the same code without a command id
    assert json.loads(s.error(None, "q"))["code"] == "internal/error"


def test_each_answer_logs_one_line_timed_from_the_frame_it_came_in() -> None:
    clock = Clock()
    with capture_logs() as logs:
        s = session(clock)
        p = submit(s, 1)
        clock.now += 0.25
        s.answer(p, (3, 3, False), HEAD, 3)
        q = submit(s, 2)
        s.answer(q, StaleSeq("stale"), HEAD, 3)
    done = [e for e in logs if e["event"] == "command_done"]
    rejected = [e for e in logs if e["event"] == "command_rejected"]
    assert len(done) == 1 and len(rejected) == 1
    assert done[0]["seqs"] == [3, 3] and done[0]["duration_ms"] == 250.0
    assert done[0]["conn_id"] == "c7" and done[0]["command"] == "Chat"
    assert rejected[0]["code"] == "command/stale_seq"


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
