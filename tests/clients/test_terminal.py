"""The terminal client (issue 6, part 2), driven in a pseudo-terminal with pexpect.

The server runs in the test's event loop; pexpect's blocking reads run in a
worker thread (``asyncio.to_thread``) so the server keeps serving meanwhile.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

import pexpect

from taku.core.dice import ScriptedDice
from taku_client import TakuClient, event_data, invite_link, parse_link

TAKU = str(Path(sys.executable).with_name("taku"))
ANSI = r"(?:\x1b\[[0-9;?]*[A-Za-z])*"


CONFIG_HOME = tempfile.mkdtemp(prefix="taku-test-config-")
"""Where the spawned clients keep their member tokens (never the user's own ~/.config)."""


def spawn(*args: str) -> pexpect.spawn:
    env = {
        **os.environ,
        "PROMPT_TOOLKIT_NO_CPR": "1",
        "TERM": "xterm-256color",
        "NO_COLOR": "",
        "XDG_CONFIG_HOME": CONFIG_HOME,
    }
    env.pop("NO_COLOR")
    return pexpect.spawn(
        TAKU, list(args), env=env, encoding="utf-8", timeout=15, dimensions=(40, 200)
    )


async def expect(child: pexpect.spawn, pattern: str | list[Any]) -> int:
    return await asyncio.to_thread(child.expect, pattern)


async def finish(child: pexpect.spawn) -> int:
    child.sendline("/quit")
    await expect(child, pexpect.EOF)
    child.close()
    return child.exitstatus


async def test_new_table_roll_and_see_the_result(
    scripted_server: Any, scripted_dice: ScriptedDice
) -> None:
    """`taku new` creates a table and prints invites; a dice line shows its result in colour; /state summarises."""
    scripted_dice.extend([3, 5])
    child = spawn(
        "new", scripted_server.http_url, "--name", "端末卓", "--gm-name", "ゲームマスター"
    )
    try:
        await expect(child, r"卓 (t[0-9a-f]+) を作りました")
        table_id = child.match.group(1)
        await expect(child, r"プレイヤー招待: (http://\S+)")
        assert f"#table={table_id}&token=" in child.match.group(1)
        await expect(child, r"GM（自分用、他人に渡さない）: (http://\S+)")
        gm_link = parse_link(child.match.group(1))
        await expect(child, r"ゲームマスター がGMとして参加しました")
        await expect(child, "卓>")
        child.sendline("2D6>=7 奇襲")
        await expect(child, r"\(2D6>=7\) ＞ 8\[3,5\] ＞ 8 ＞ 成功 奇襲")
        i = child.before.rfind("#3")  # the roll is seq 3 (after table_created and the GM joining)
        assert i >= 0 and "\x1b[" in child.before[i:] + child.after  # coloured
        child.sendline("/state")
        await expect(child, r"端末卓" + ANSI + r"\s*" + ANSI + r"\[generic\] seq 3")
        child.sendline("/secret 1D6+")
        await expect(child, r"✗ dice/invalid")
        assert await finish(child) == 0
    finally:
        child.close(force=True)
    # the roll is in the log exactly once, with the faces shown (read back with the GM's own link)
    async with await TakuClient.connect(scripted_server.ws_url) as probe:
        await probe.join(table_id, gm_link.token or "")
        rolls = [
            event_data(e)
            for e in await probe.full_log(table_id)
            if event_data(e)["type"] == "dice_rolled"
        ]
        assert [r["rolls"][0]["faces"] for r in rolls] == [[3, 5]]


async def test_play_joins_with_an_invite_link(
    scripted_server: Any, scripted_dice: ScriptedDice
) -> None:
    """`taku play LINK` joins as a new player; its roll reaches the GM's feed; the GM's chat reaches it."""
    async with await TakuClient.connect(scripted_server.ws_url) as gm:
        created = await gm.create_table("generic", name="招待卓")
        feed = await gm.subscribe(created.table_id)
        link = invite_link(scripted_server.http_url, created.table_id, created.player_token)
        child = spawn("play", link, "--name", "じろう")
        try:
            await expect(child, r"あなた専用のリンク")
            await expect(child, r"じろう がPLとして参加しました")
            await expect(child, "卓>")
            scripted_dice.extend([6, 6])
            child.sendline("2D6 ゾロ目")
            await expect(child, r"12\[6,6\]")
            events = []
            while not events or event_data(events[-1])["type"] != "dice_rolled":
                events.append(await feed.next(10))
            assert events[-1].text.startswith("じろう: ") and event_data(events[-1])["rolls"][0][
                "faces"
            ] == [6, 6]
            await gm.chat(created.table_id, "ドーモ、じろう=サン")
            await expect(child, r"GM: ドーモ、じろう=サン")
            assert await finish(child) == 0
        finally:
            child.close(force=True)


async def test_play_with_a_bad_token_says_why(scripted_server: Any) -> None:
    """A wrong token ends `taku play` with the server's error code, not a traceback."""
    async with await TakuClient.connect(scripted_server.ws_url) as gm:
        created = await gm.create_table("generic")
    child = spawn("play", invite_link(scripted_server.http_url, created.table_id, "wrong"))
    try:
        await expect(child, r"auth/bad_token")
        await expect(child, pexpect.EOF)
        child.close()
        assert child.exitstatus == 1
    finally:
        child.close(force=True)


async def test_play_says_it_reconnects_and_goes_on(scripted_server: Any) -> None:
    """When the server drops the terminal's connection, it says so, resumes, and shows what came after."""
    from .conftest import drop_all

    async with await TakuClient.connect(scripted_server.ws_url, retry_delays_s=(0.05,)) as gm:
        created = await gm.create_table("generic")
        child = spawn(
            "play",
            invite_link(scripted_server.http_url, created.table_id, created.player_token),
            "--name",
            "さぶろう",
        )
        try:
            await expect(child, r"さぶろう がPLとして参加しました")
            await drop_all(scripted_server)
            await expect(child, r"再接続しています")
            await expect(child, r"再接続しました")
            await gm.chat(created.table_id, "おかえり")
            await expect(child, r"GM: おかえり")
            assert await finish(child) == 0
        finally:
            child.close(force=True)


def test_a_secret_roll_is_labelled_once() -> None:
    """The server's line already says [シークレット]; the terminal does not say it twice."""
    import datetime as dt

    import msgspec

    from taku.protocol import EventMsg
    from taku_client.terminal import event_line

    ev = EventMsg(
        table_id="t1",
        seq=5,
        event=msgspec.Raw(
            b'{"type":"dice_rolled","expression":"2D6","rolls":[{"sides":6,"faces":[1,2],"at":0}],"total":3,"secret":true}'
        ),
        time=dt.datetime(2026, 1, 1, tzinfo=dt.UTC),
        text="[シークレット] GM: (2D6) ＞ 3[1,2] ＞ 3",
    )
    assert event_line(ev).plain.count("シークレット") == 1


def test_a_count_of_sixes_is_no_critical() -> None:
    """BCDice's [S] appendix counts sixes ("サツバツ！:1[6]"): only a real サツバツ！ is a critical."""
    import datetime as dt

    import msgspec

    from taku.protocol import EventMsg
    from taku_client.terminal import event_data, outcome

    def ev(text: str) -> EventMsg:
        return EventMsg(
            table_id="t1",
            seq=5,
            event=msgspec.Raw(
                b'{"type":"dice_rolled","expression":"N3","rolls":[],"success":true}'
            ),
            time=dt.datetime(2026, 1, 1, tzinfo=dt.UTC),
            text=text,
            outcome="success",  # the server's reading of "success": true
        )

    count = ev("P: (3B6>=4) ＞ 6,1,3 ＞ 成功数:1, サツバツ！:1[6]")
    real = ev("P: (4B6>=4) ＞ 6,6,1,2 ＞ 成功数:2, サツバツ！[S66+]")
    assert outcome(count, event_data(count)) == "success"
    assert outcome(real, event_data(real)) == "crit"


async def test_play_comes_back_as_the_same_member(scripted_server: Any) -> None:
    """Running `taku play` with the same invite again rejoins as the member it was, not a new one."""
    async with await TakuClient.connect(scripted_server.ws_url) as gm:
        created = await gm.create_table("generic", name="再訪卓")
        link = invite_link(scripted_server.http_url, created.table_id, created.player_token)
        for run in range(2):
            child = spawn("play", link, "--name", "さぶろう")
            try:
                await expect(child, r"あなた専用のリンク" if run == 0 else r"前回と同じメンバー")
                await expect(child, "卓>")
                assert await finish(child) == 0
            finally:
                child.close(force=True)
        state = await gm.get_state(created.table_id)
        names = [m["name"] for m in state.state["members"].values()]
        assert names.count("さぶろう") == 1


async def test_override_takes_a_json_value_and_the_rest_as_its_reason(scripted_server: Any) -> None:
    """`/override パス 値 理由`: the value is JSON (7 is a number), the words after it are the
    reason; a value that is not JSON is refused with a Japanese line and nothing is sent."""
    from taku_client.terminal import Terminal

    async with await TakuClient.connect(scripted_server.ws_url) as gm:
        created = await gm.create_table("generic", name="上書き卓")
        tid = created.table_id
        await gm.command(tid, {"type": "create_character", "name": "ヤモト", "sheet": {"hp": 10}})
        (cid,) = (await gm.get_state(tid)).state["characters"]
        term = Terminal(gm, tid, plain=True)
        shown: list[str] = []
        term._print = shown.append
        await term.handle(f"/override characters/{cid}/sheet/hp 7 怪我")
        await term.handle(f'/override characters/{cid}/name "ヤモト・コキ" 本名が判明')
        seq = (await gm.get_state(tid)).seq
        await term.handle(f"/override characters/{cid}/sheet/hp 怪我")  # not JSON
        assert (await gm.get_state(tid)).seq == seq  # nothing sent
        assert any("値は JSON で書きます" in line for line in shown), shown
        ch = (await gm.get_state(tid)).state["characters"][cid]
        assert ch["sheet"]["hp"] == 7 and ch["name"] == "ヤモト・コキ"
        overrides = [e for e in await gm.full_log(tid) if event_data(e)["type"] == "gm_overridden"]
        assert [(event_data(e)["value"], event_data(e)["reason"]) for e in overrides] == [
            (7, "怪我"),
            ("ヤモト・コキ", "本名が判明"),
        ]
        assert "（理由: 怪我）" in overrides[0].text and "terminal" not in overrides[0].text


async def test_whisper_and_channel_from_the_terminal(scripted_server: Any) -> None:
    """`/w 名前 本文` whispers to that member (the other player's feed gets it redacted);
    `/ch 雑談` sends the next lines to 雑談."""
    from taku_client import event_data
    from taku_client.terminal import Terminal

    async with (
        await TakuClient.connect(scripted_server.ws_url) as gm,
        await TakuClient.connect(scripted_server.ws_url) as pl,
        await TakuClient.connect(scripted_server.ws_url) as other,
    ):
        created = await gm.create_table("generic", name="内緒卓")
        tid = created.table_id
        await pl.join(tid, created.player_token, name="じろう")
        await other.join(tid, created.player_token, name="さぶろう")
        term = Terminal(pl, tid, plain=True)
        shown: list[str] = []
        term._print = shown.append
        await term.handle("/w GM 裏口は開いている")
        await term.handle("/ch 雑談")
        await term.handle("おなかすいた")
        got = await gm.get_log(tid, after_seq=4)
        assert len(got) == 2, (shown, [g.text for g in got])
        (whisper, line) = got
        assert event_data(whisper)["to"] == [created.member_id]
        assert event_data(line)["channel"] == "雑談" and event_data(line)["text"] == "おなかすいた"
        (hidden, _) = await other.get_log(tid, after_seq=4)
        assert hidden.redacted and "裏口" not in hidden.text
