"""The Python client library (issue 6, part 1): requests, commands, errors, resume."""

from __future__ import annotations

import asyncio

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from taku.core.dice import ScriptedDice
from taku_client import (
    CommandError,
    ConnectionLost,
    TakuClient,
    event_data,
    invite_link,
    parse_link,
)

from .conftest import drop_all


async def collect(feed, until_seq: int, timeout_s: float = 10.0) -> list:
    """Take events from ``feed`` until one with ``until_seq`` arrives."""
    out = []
    while not out or out[-1].seq < until_seq:
        out.append(await feed.next(timeout_s))
    return out


async def test_create_join_roll_and_both_see_the_same_faces(
    scripted_server, scripted_dice: ScriptedDice
) -> None:
    """A GM creates a table, a player joins with the invite; the player's roll reaches both feeds."""
    scripted_dice.extend([3, 5])
    async with (
        await TakuClient.connect(scripted_server.http_url) as gm,
        await TakuClient.connect(scripted_server.ws_url) as pl,
    ):
        assert gm.welcome is not None and gm.welcome.protocol == "taku/1"
        rulesets = {r.id: r for r in await gm.list_rulesets()}
        assert "generic" in rulesets
        created = await gm.create_table("generic", name="テスト卓", gm_name="ゲームマスター")
        joined = await pl.join(created.table_id, created.player_token, name="たろう")
        assert joined.role == "player" and joined.member_token
        gm_feed = await gm.subscribe(created.table_id)
        pl_feed = await pl.subscribe(created.table_id)

        ack = await pl.chat(created.table_id, "2D6>=7 奇襲")
        assert (
            ack.first_seq == ack.last_seq == 4
        )  # table_created, GM joined, たろう joined, the roll
        for feed in (gm_feed, pl_feed):
            events = await collect(feed, ack.last_seq)
            assert [e.seq for e in events] == [1, 2, 3, 4]
            roll = event_data(events[-1])
            assert roll["type"] == "dice_rolled"
            assert roll["rolls"][0]["faces"] == [3, 5]
            assert "8[3,5]" in events[-1].text and "成功" in events[-1].text


async def test_the_client_keeps_the_head_every_frame_and_ack_carries(scripted_server) -> None:
    """Every event and ack carries the head of the table's hash chain; the client keeps the
    latest, and the same head is what verify recomputes at that seq from the log."""
    from taku.core import chain
    from taku.verify import lines_from_export, verify_log

    async with await TakuClient.connect(scripted_server.ws_url) as gm:
        created = await gm.create_table("generic", name="指紋の卓")
        feed = await gm.subscribe(created.table_id)
        ack = await gm.chat(created.table_id, "ドーモ")
        assert len(ack.head) == chain.SHORT and ack.head_seq >= ack.last_seq == 3
        events = await collect(feed, ack.last_seq)
        assert [len(e.head) for e in events] == [chain.SHORT] * 3
        assert len({e.head for e in events}) == 3  # each seq its own
        assert events[-1].head == ack.head
        assert gm.fingerprint(created.table_id) == f"3:{ack.head}"
        log = await gm.get_log(created.table_id)
    lines = lines_from_export("\n".join(msgspec.json.encode(f).decode() for f in log))
    report = verify_log(lines, heads=(gm.fingerprint(created.table_id),))
    assert report.ok, [str(p) for p in report.problems]


async def test_errors_are_typed_with_the_stable_code(scripted_server) -> None:
    """A command the rules forbid raises CommandError with its code; nothing is written."""
    async with (
        await TakuClient.connect(scripted_server.ws_url) as gm,
        await TakuClient.connect(scripted_server.ws_url) as pl,
    ):
        created = await gm.create_table("generic")
        await pl.join(created.table_id, created.player_token, name="はなこ")
        before = (await gm.get_state(created.table_id)).seq
        with pytest.raises(CommandError) as e:
            await pl.command(
                created.table_id, {"type": "override", "path": ["game", "x"], "value": 1}
            )
        assert e.value.code == "command/forbidden"
        with pytest.raises(CommandError) as e:
            await gm.command(
                created.table_id, {"type": "roll", "expression": "2D6"}, expected_seq=before - 1
            )
        assert e.value.code == "command/stale_seq"
        with pytest.raises(CommandError) as e:
            await gm.join(created.table_id, "not-a-token")
        assert e.value.code == "auth/bad_token"
        assert (await gm.get_state(created.table_id)).seq == before


async def test_command_id_makes_a_resent_command_idempotent(
    scripted_server, scripted_dice: ScriptedDice
) -> None:
    """The same command id sent twice gives the same ack, marked duplicate, and one event."""
    scripted_dice.extend([4])
    async with await TakuClient.connect(scripted_server.ws_url) as gm:
        created = await gm.create_table("generic")
        first = await gm.command(
            created.table_id, {"type": "roll", "expression": "1D6"}, command_id="same-id"
        )
        again = await gm.command(
            created.table_id, {"type": "roll", "expression": "1D6"}, command_id="same-id"
        )
        assert (again.first_seq, again.last_seq, again.duplicate) == (
            first.first_seq,
            first.last_seq,
            True,
        )
        log = await gm.full_log(created.table_id)
        assert [e.seq for e in log] == list(range(1, first.last_seq + 1))


async def test_secret_roll_is_redacted_for_the_player(
    scripted_server, scripted_dice: ScriptedDice
) -> None:
    """The GM's secret roll keeps its seq in the player's feed but not its faces."""
    scripted_dice.extend([6, 6])
    async with (
        await TakuClient.connect(scripted_server.ws_url) as gm,
        await TakuClient.connect(scripted_server.ws_url) as pl,
    ):
        created = await gm.create_table("generic")
        await pl.join(created.table_id, created.player_token, name="じろう")
        pl_feed = await pl.subscribe(created.table_id)
        ack = await gm.roll(created.table_id, "2D6", secret=True)
        events = await collect(pl_feed, ack.last_seq)
        assert events[-1].redacted and "12" not in events[-1].text
        assert event_data(events[-1])["type"] == "redacted"
        gm_view = (await gm.get_log(created.table_id, after_seq=ack.last_seq - 1))[0]
        assert event_data(gm_view)["rolls"][0]["faces"] == [6, 6]


async def test_replay_state_at_an_earlier_seq(scripted_server) -> None:
    """get_state(at_seq) folds the table as it was: a later character is not there yet."""
    async with await TakuClient.connect(scripted_server.ws_url) as gm:
        created = await gm.create_table("generic")
        ack = await gm.command(created.table_id, {"type": "create_character", "name": "ヤモト"})
        now = await gm.get_state(created.table_id)
        then = await gm.get_state(created.table_id, at_seq=ack.first_seq - 1)
        assert [c["name"] for c in now.state["characters"].values()] == ["ヤモト"]
        assert then.seq == ack.first_seq - 1 and then.state["characters"] == {}


async def test_resume_after_the_server_drops_the_connection_mid_stream(scripted_server) -> None:
    """The server closes the subscriber's connection while events stream: it reconnects,
    joins again as the same member and resumes from its last seq, losing and repeating nothing."""
    async with await TakuClient.connect(scripted_server.ws_url) as gm:
        created = await gm.create_table("generic")
        tid = created.table_id
        watcher = await TakuClient.connect(scripted_server.ws_url, retry_delays_s=(0.01, 0.05))
        statuses: list[str] = []
        watcher.status_callbacks.append(statuses.append)
        joined = await watcher.join(tid, created.spectator_token, name="観客")
        feed = await watcher.subscribe(tid)
        total = 60

        async def writer() -> int:
            last = 0
            for i in range(total):
                ack = await gm.chat(tid, f"行 {i}")
                last = ack.last_seq
                await asyncio.sleep(0)
            return last

        # the watcher's connection is dropped by the server while the writer writes
        task = asyncio.create_task(writer())
        got = []
        while len(got) < 10:
            got.append(await feed.next(5))
        assert not task.done()  # mid-stream: the writer is still writing
        assert (
            await drop_all(scripted_server) == 2
        )  # both drop; the GM resends its chat with the same id
        last = await task
        got.extend(await collect(feed, last))
        seqs = [e.seq for e in got]
        assert seqs == list(range(1, last + 1))  # no gap, no repeat
        assert watcher.reconnects >= 1 and gm.reconnects >= 1
        assert statuses[:2] == ["reconnecting", "open"]
        texts = [e.text for e in got if event_data(e)["type"] == "chat_posted"]
        assert texts == [f"GM: 行 {i}" for i in range(total)]  # each chat once, in order
        # the watcher came back as the same member, not as a new one
        state = (await watcher.get_state(tid)).state
        assert state["you"]["member_id"] == joined.member_id
        assert sum(1 for m in state["members"].values() if m["name"] == "観客") == 1
        await watcher.close()


async def test_no_reconnect_means_the_feed_ends_and_requests_fail(scripted_server) -> None:
    """With reconnect off, a dropped connection ends feeds and fails new requests clearly."""
    c = await TakuClient.connect(scripted_server.ws_url, reconnect=False)
    created = await c.create_table("generic")
    feed = await c.subscribe(created.table_id)
    await collect(feed, 2)
    await drop_all(scripted_server)
    with pytest.raises(StopAsyncIteration):
        await feed.next(5)
    with pytest.raises(ConnectionLost):
        await c.get_state(created.table_id)
    await c.close()


def test_invite_links_round_trip() -> None:
    """An invite link carries the table and token in its fragment and parses back."""
    link = invite_link("http://127.0.0.1:8765", "tabc", "tok-1_2")
    assert link == "http://127.0.0.1:8765/#table=tabc&token=tok-1_2"
    parsed = parse_link(link)
    assert (parsed.base, parsed.table_id, parsed.token) == (
        "http://127.0.0.1:8765/",
        "tabc",
        "tok-1_2",
    )
    assert parse_link("ws://h:1/ws").table_id is None
    with pytest.raises(ValueError, match=r"^not a taku URL: 'ftp://x/'$"):
        parse_link("ftp://x/")


@given(chunks=st.lists(st.tuples(st.integers(0, 5), st.integers(0, 8)), min_size=1, max_size=30))
def test_feed_hands_out_each_seq_once_whatever_is_resent(chunks: list[tuple[int, int]]) -> None:
    """Property: however the server's stream overlaps itself across reconnects (each new
    stream starts at or before the next seq the feed needs), a Feed yields 1, 2, 3 … once each."""
    import datetime as dt

    import msgspec

    from taku.protocol import EventMsg
    from taku_client import Feed

    feed = Feed(None, "t1", 0)  # type: ignore[arg-type]
    now = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    top = 0
    for back, length in chunks:
        start = max(1, feed.last_seq + 1 - back)  # a resumed stream may repeat what was seen
        for seq in range(start, start + length):
            feed._put(EventMsg(table_id="t1", seq=seq, event=msgspec.Raw(b"{}"), time=now))
            top = max(top, seq)
    got = [ev.seq for ev in feed.pending()]
    assert got == list(range(1, top + 1))


async def test_a_whisper_and_the_log_download(scripted_server) -> None:
    """``chat(to=…)`` whispers (the other player's feed gets a redacted line);
    ``export_log`` downloads the public's HTML page, without the whisper."""
    async with (
        await TakuClient.connect(scripted_server.ws_url) as gm,
        await TakuClient.connect(scripted_server.ws_url) as pl,
        await TakuClient.connect(scripted_server.ws_url) as other,
    ):
        created = await gm.create_table("generic")
        await pl.join(created.table_id, created.player_token, name="じろう")
        await other.join(created.table_id, created.player_token, name="さぶろう")
        feed = await other.subscribe(created.table_id)
        ack = await pl.chat(
            created.table_id, "裏口は開いている", to=[created.member_id], channel="情報"
        )
        (seen,) = [e for e in await collect(feed, ack.last_seq) if e.seq == ack.last_seq]
        assert seen.redacted and "裏口" not in seen.text
        (gm_view,) = await gm.get_log(created.table_id, after_seq=ack.last_seq - 1)
        assert event_data(gm_view)["channel"] == "情報" and event_data(gm_view)["to"] == [
            created.member_id
        ]
        page = await pl.export_log(created.table_id)
        assert page.filename == f"{created.table_id}.html" and page.media_type.startswith(
            "text/html"
        )
        assert "<!doctype html>" in page.content and "裏口" not in page.content
