"""Chat in the browser (issue 14, item 4): whispers, the チャットパレット, channel tabs and a
secret roll of each ruleset's own chat command, in Debian's Chromium through Playwright."""

from __future__ import annotations

from typing import Any

import pytest

from taku.core.dice import ScriptedDice

from .test_web import _without_times, create_table, faces, join_as, wait_seq


async def _say(page: Any, text: str) -> None:
    await page.fill("#chat-input", text)
    await page.press("#chat-input", "Enter")


async def _line(page: Any, seq: int) -> Any:
    await wait_seq(page, seq)
    return page.locator(f"#log li[data-seq='{seq}']")


async def test_a_whisper_is_seen_by_its_recipient_and_the_gm_only(
    scripted_server: Any, open_page: Any, scripted_dice: ScriptedDice
) -> None:
    gm = await create_table(open_page, scripted_server.http_url)
    link = await gm.input_value("#invite-player")
    spec_link = await gm.input_value("#invite-spectator")
    a = await join_as(open_page, link, "アカネ")
    b = await join_as(open_page, link, "ブンタ")
    sp = await join_as(open_page, spec_link, "観客")
    await wait_seq(a, 5)
    await a.click("#whisper > summary")
    await a.locator("#whisper-list label", has_text="ゲームマスター").locator("input").check()
    assert "ゲームマスター" in await a.inner_text("#whisper-status")
    await _say(a, "実は忍者です")
    for page in (a, gm):
        line = await _line(page, 6)
        assert "実は忍者です" in await line.inner_text()
        assert "内緒話" in await line.locator(".whisper-badge").inner_text()
    # a dice line in a whisper too: its faces for them, who sees it on a badge
    scripted_dice.extend([4, 2])
    await _say(a, "2D6 こっそり")
    for page in (a, gm):
        line = await _line(page, 7)
        assert await line.locator(".die").count() == 2
        assert "内緒話" in await line.locator(".whisper-badge").inner_text()
    # a public line after them: the other pages have caught up past the whispers
    await _say(gm, "はじめます")
    for page in (b, sp):
        await wait_seq(page, 8)
        for seq in (6, 7):
            hidden = page.locator(f"#log li[data-seq='{seq}']")
            assert "redacted" in (await hidden.get_attribute("class") or "")
            assert await hidden.locator(".die").count() == 0
        assert "実は忍者です" not in _without_times(await page.content())


async def test_a_roll_from_the_chat_palette_and_the_channel_tabs(
    scripted_server: Any, open_page: Any, scripted_dice: ScriptedDice
) -> None:
    gm = await create_table(open_page, scripted_server.http_url)
    pl = await join_as(open_page, await gm.input_value("#invite-player"), "アカネ")
    # the character itself (the sheet form is another part of the issue)
    await pl.evaluate(
        """() => window.taku.conn.command(window.taku.tableId,
             {type: "create_character", name: "アカネ丸", sheet: {karate: 3}})"""
    )
    await wait_seq(pl, 4)
    await pl.wait_for_selector("#chat-as option:nth-child(2)", state="attached")
    await pl.select_option("#chat-as", label="アカネ丸")
    await pl.click("#palette details.palette-edit > summary")
    await pl.fill("#palette-text", "2D6+{karate}>=7 斬る\n挨拶します")
    await pl.click("#palette-save")
    await pl.wait_for_selector("#palette button.palette-line")
    scripted_dice.extend([2, 3])
    await pl.click("#palette button.palette-line >> nth=0")
    for page in (pl, gm):
        line = await _line(page, 6)
        text = await line.inner_text()
        assert "アカネ丸" in text and "2D6+3>=7" in text and "8" in text, text
        assert await faces(page, 6) == ["2", "3"]
        assert "oc-success" in (await line.get_attribute("class") or "")
        assert "has-color" in (await line.get_attribute("class") or "")
    # Enter on a palette line sends it too
    await pl.focus("#palette button.palette-line >> nth=1")
    await pl.keyboard.press("Enter")
    assert "挨拶します" in await (await _line(gm, 7)).inner_text()
    # tabs: a line in 雑談 is under 雑談 and すべて, not under メイン
    await pl.click("#chat-tabs button[data-tab='雑談']")
    await _say(pl, "おなかすいた")
    line = await _line(gm, 8)
    assert await line.is_visible()
    await gm.click("#chat-tabs button[data-tab='メイン']")
    assert await line.is_hidden() and await gm.locator("#log li[data-seq='7']").is_visible()
    await gm.click("#chat-tabs button[data-tab='雑談']")
    assert await line.is_visible() and await gm.locator("#log li[data-seq='7']").is_hidden()
    # the GM adds a channel (GM tools): a new tab on every page
    await gm.click("#gm-tools > summary")
    await gm.fill("#channel-name", "作戦")
    await gm.click("#channel-add-submit")
    await pl.wait_for_selector("#chat-tabs button[data-tab='作戦']")
    assert await pl.locator("#gm-tools").is_hidden()


@pytest.mark.parametrize(
    ("ruleset", "line", "roll_faces", "box", "box_faces"),
    [
        ("nstrpg", "SN4", [6, 5, 4, 1], "N3", [6, 6, 6]),
        ("chabu", "SCH<=50", [4, 2], "CH<=30", [7, 7]),
        ("yodomi", "S2D9", [3, 4], "2D9", [5, 6]),
        ("hiden", "SHD5", [3, 4], "HD3", [2, 2]),
        ("shadowjan", "SN3", [6, 1, 2], "N2", [5, 5]),
    ],
)
async def test_a_secret_roll_of_the_ruleset_s_own_command_reaches_the_roller_and_the_gm(
    scripted_server: Any,
    open_page: Any,
    scripted_dice: ScriptedDice,
    ruleset: str,
    line: str,
    roll_faces: list[int],
    box: str,
    box_faces: list[int],
) -> None:
    gm = await create_table(open_page, scripted_server.http_url, ruleset=ruleset)
    pl = await join_as(open_page, await gm.input_value("#invite-player"), "アカネ")
    sp = await join_as(open_page, await gm.input_value("#invite-spectator"), "観客")
    await wait_seq(pl, 4)
    scripted_dice.extend(roll_faces)
    await _say(pl, line)
    for page in (pl, gm):
        shown = await _line(page, 5)
        assert "redacted" not in (await shown.get_attribute("class") or ""), ruleset
        assert await shown.locator(".die").count() > 0, ruleset
        # the roller and the GM are told the line is secret (no one reads it out by mistake)
        assert await shown.locator(".secret-badge").inner_text() == "シークレット", ruleset
    # the GM's secret dice box takes the ruleset's own command too
    scripted_dice.extend(box_faces)
    await gm.click("#gm-tools > summary")
    await gm.fill("#secret-expr", box)
    await gm.click("#secret-roll")
    assert await (await _line(gm, 6)).locator(".die").count() > 0
    await _say(gm, "公開の一言")
    for page in (pl, sp):
        await wait_seq(page, 7)
    for page, hidden in ((sp, (5, 6)), (pl, (6,))):
        for seq in hidden:
            li = page.locator(f"#log li[data-seq='{seq}']")
            assert "redacted" in (await li.get_attribute("class") or ""), (ruleset, seq)
            assert await li.locator(".die").count() == 0


async def test_a_ruleset_s_roll_typed_in_the_info_tab_lands_in_info(
    scripted_server: Any, open_page: Any, scripted_dice: ScriptedDice
) -> None:
    gm = await create_table(open_page, scripted_server.http_url, ruleset="yodomi")
    pl = await join_as(open_page, await gm.input_value("#invite-player"), "アカネ")
    await wait_seq(pl, 3)
    await pl.click("#chat-tabs button[data-tab='情報']")
    scripted_dice.extend([5, 6])
    await _say(pl, "2D9>=10 聞き込み")
    line = await _line(pl, 4)
    assert await line.is_visible() and await line.locator(".die").count() == 2
    assert await line.locator(".channel-badge").inner_text() == "情報"
    await gm.click("#chat-tabs button[data-tab='メイン']")
    gm_line = await _line(gm, 4)
    assert await gm_line.is_hidden()
    await gm.click("#chat-tabs button[data-tab='情報']")
    assert await gm_line.is_visible()


async def test_a_ruleset_s_roll_whispered_to_the_gm_names_the_gm_once(
    scripted_server: Any, open_page: Any, scripted_dice: ScriptedDice
) -> None:
    """yodomi: a 2D9 check whispered to the GM shows who sees it as "アカネ、GM" (the audience
    holds the GM's member id and "@gm": it read "アカネ、ゲームマスター、GM")."""
    gm = await create_table(open_page, scripted_server.http_url, ruleset="yodomi")
    a = await join_as(open_page, await gm.input_value("#invite-player"), "アカネ")
    await wait_seq(a, 3)
    await a.click("#whisper > summary")
    await a.locator("#whisper-list label", has_text="ゲームマスター").locator("input").check()
    scripted_dice.extend([5, 6])
    await _say(a, "2D9>=10 こっそり")
    for page in (a, gm):
        line = await _line(page, 4)
        assert await line.locator(".die").count() == 2
        assert await line.locator(".whisper-badge").inner_text() == "非公開: アカネ、GM"


async def test_a_line_says_its_channel_secret_or_whisper_once(
    scripted_server: Any, open_page: Any, scripted_dice: ScriptedDice
) -> None:
    """The server's text opens with [情報] / [シークレット] / [内緒話→…] (for exports); the page's
    badge says it, so the line does not say it twice (「情報 [情報]」)."""
    gm = await create_table(open_page, scripted_server.http_url)
    pl = await join_as(open_page, await gm.input_value("#invite-player"), "アカネ")
    await wait_seq(pl, 3)
    await pl.click("#chat-tabs button[data-tab='情報']")
    await _say(pl, "手がかりです")
    await pl.click("#chat-tabs button[data-tab='メイン']")
    await pl.click("#whisper > summary")
    await pl.locator("#whisper-list label", has_text="ゲームマスター").locator("input").check()
    await _say(pl, "こっそり")
    scripted_dice.extend([3, 4])
    await gm.click("#gm-tools > summary")
    await gm.fill("#secret-expr", "2D6")
    await gm.click("#secret-roll")
    for seq, label in ((4, "情報"), (5, "内緒話→ゲームマスター"), (6, "シークレット")):
        line = await _line(gm, seq)
        await line.locator(".badge", has_text=label).wait_for()
        text = await line.inner_text()
        assert text.count(label) == 1 and f"[{label}]" not in text, (seq, text)
    # the log itself keeps the server's text (exports and the terminal show it)
    texts = await gm.evaluate("window.taku.events.filter((m) => m.seq >= 4).map((m) => m.text)")
    assert texts[0].startswith("[情報] ") and texts[2].startswith("[シークレット] "), texts


async def test_a_redacted_line_says_hidden_once(
    scripted_server: Any, open_page: Any, scripted_dice: ScriptedDice
) -> None:
    """rv2: another member's secret roll and whisper read 「非公開」 on the badge and
    「（非公開: シークレットダイス）」 in the text; the line says it once (the badge)."""
    gm = await create_table(open_page, scripted_server.http_url)
    link = await gm.input_value("#invite-player")
    a = await join_as(open_page, link, "アカネ")
    b = await join_as(open_page, link, "ブンタ")
    await wait_seq(a, 4)
    scripted_dice.extend([3, 4])
    await _say(a, "S2D6 ひみつ")
    await wait_seq(b, 5)
    await a.click("#whisper > summary")
    await a.locator("#whisper-list label", has_text="ゲームマスター").locator("input").check()
    await _say(a, "ないしょ")
    for seq, what in ((5, "シークレットダイス"), (6, "内緒話")):
        line = await _line(b, seq)
        text = await line.inner_text()
        assert text.count("非公開") == 1, text
        assert what in await line.locator(".text").inner_text()


NEWEST_SHOWN = """() => {
  const log = document.querySelector('#log');
  const last = log.lastElementChild.getBoundingClientRect();
  const box = log.getBoundingClientRect();
  return last.top >= box.top - 1 && last.bottom <= box.bottom + 1;
}"""


async def test_the_gm_s_log_follows_its_newest_line_unless_scrolled_up(
    scripted_server: Any, open_page: Any
) -> None:
    """The live log shows its newest line on entering a table and as lines arrive, on the
    GM's page too, where each member's line grows its 「取り消す」 only once the state says
    who is GM (it used to stop following then); a GM who scrolled up to read an older
    line stays there when a new one arrives."""
    from taku.core.commands import Chat

    gm = await create_table(open_page, scripted_server.http_url)
    table_id = await gm.evaluate("window.taku.tableId")
    pl = await join_as(open_page, await gm.input_value("#invite-player"), "プレイヤー")
    member = await pl.evaluate("window.taku.me.member_id")
    table = await scripted_server.hub.table(table_id)
    for i in range(30):
        await table.execute(member, Chat(text=f"行 {i}"), command_id=f"l{i}")
    await gm.reload()
    await wait_seq(gm, table.state.seq)
    await gm.wait_for_selector("#log .undo-line:visible")
    await gm.wait_for_function(NEWEST_SHOWN)
    await table.execute(member, Chat(text="新しい行"), command_id="new")
    await wait_seq(gm, table.state.seq)
    await gm.wait_for_function(NEWEST_SHOWN)
    # scrolled up: a new line leaves the reader where they are
    await gm.evaluate("document.querySelector('#log').scrollTop = 0")
    await gm.wait_for_function("document.querySelector('#log').scrollTop === 0")
    await gm.wait_for_timeout(100)  # the scroll event has been handled
    await table.execute(member, Chat(text="もう一行"), command_id="more")
    await wait_seq(gm, table.state.seq)
    await gm.wait_for_function(f"document.body.dataset.seq === '{table.state.seq}'")
    assert await gm.evaluate("document.querySelector('#log').scrollTop") == 0
    assert not await gm.evaluate(NEWEST_SHOWN)


async def test_older_lines_keep_their_channel_and_whisper_and_the_button_is_on_every_tab(
    scripted_server: Any, open_page: Any
) -> None:
    """Lines loaded with 「これより前のログを読む」 are shown as live ones are: a 雑談 line
    under the 雑談 tab only, a whisper with its badge; the button is on every tab."""
    from taku.core.commands import Chat

    gm = await create_table(open_page, scripted_server.http_url)
    table_id = await gm.evaluate("window.taku.tableId")
    pl = await join_as(open_page, await gm.input_value("#invite-player"), "プレイヤー")
    member = await pl.evaluate("window.taku.me.member_id")
    table = await scripted_server.hub.table(table_id)
    gm_id = await gm.evaluate("window.taku.me.member_id")
    await table.execute(member, Chat(text="昔の雑談", channel="雑談"), command_id="old-z")
    await table.execute(member, Chat(text="昔の内緒話", to=[gm_id]), command_id="old-w")
    for i in range(310):  # past the last 300 shown on entering
        await table.execute(member, Chat(text=f"行 {i}"), command_id=f"l{i}")
    await gm.reload()
    await wait_seq(gm, table.state.seq)
    await gm.click("#chat-tabs button[data-tab='雑談']")
    assert await gm.locator("#log .older").is_visible()  # on this tab too
    await gm.click("#log .older")
    old = gm.locator("#log li", has_text="昔の雑談")
    await old.wait_for(state="attached")
    assert await old.get_attribute("data-channel") == "雑談" and await old.is_visible()
    assert await old.locator(".channel-badge").inner_text() == "雑談"
    whisper = gm.locator("#log li", has_text="昔の内緒話")
    assert await whisper.is_hidden()  # a メイン line, not on the 雑談 tab
    await gm.click("#chat-tabs button[data-tab='メイン']")
    assert await whisper.is_visible() and await old.is_hidden()
    assert "whisper" in (await whisper.get_attribute("class") or "")
    assert await whisper.locator(".whisper-badge").inner_text() == "内緒話→ゲームマスター"


async def _gm_with_lines(server: Any, open_page: Any, lines: int) -> tuple[Any, Any, str]:
    """The GM's page of a new table where the GM has said ``lines`` lines: (page, the
    table's service, the GM's member id)."""
    from taku.core.commands import Chat

    gm = await create_table(open_page, server.http_url)
    table = await server.hub.table(await gm.evaluate("window.taku.tableId"))
    gm_id = await gm.evaluate("window.taku.me.member_id")
    for i in range(lines):
        await table.execute(gm_id, Chat(text=f"行 {i}"), command_id=f"l{i}")
    return gm, table, gm_id


async def test_the_log_shows_its_newest_line_after_the_replay_and_when_made_shorter(
    scripted_server: Any, open_page: Any
) -> None:
    """A line that came while the replay was open is in view once it closes; a log made
    shorter (a smaller window) still shows its newest line."""
    from taku.core.commands import Chat

    gm, table, gm_id = await _gm_with_lines(scripted_server, open_page, 40)
    await wait_seq(gm, table.state.seq)
    await gm.wait_for_function(NEWEST_SHOWN)
    await gm.click("#replay-toggle")
    await gm.wait_for_selector("#replay[data-seq]")
    await table.execute(gm_id, Chat(text="リプレイの間に"), command_id="during")
    await wait_seq(gm, table.state.seq)
    await gm.click("#replay-toggle")
    await gm.wait_for_function(NEWEST_SHOWN)
    # the whisper picker opened and closed, then a smaller window: the browser's scroll
    # anchoring once put the log back where it was with the picker open, and it stopped
    picker = gm.locator("summary", has_text="内緒話の宛先")
    await picker.click()
    await picker.click()
    await gm.set_viewport_size({"width": 1200, "height": 560})
    await gm.wait_for_function(NEWEST_SHOWN, polling=100)
    await table.execute(gm_id, Chat(text="小さい窓に"), command_id="small")
    await wait_seq(gm, table.state.seq)
    await gm.wait_for_function(NEWEST_SHOWN)


async def test_a_table_entered_twice_at_once_shows_its_log_once(
    scripted_server: Any, open_page: Any
) -> None:
    """Two routes to one table at once (the hash changed twice in a row) leave one
    「これより前のログを読む」, and the older lines come once."""
    gm, table, _ = await _gm_with_lines(scripted_server, open_page, 320)
    table_id = table.table_id
    await gm.evaluate(
        "(t) => { location.hash = '#table=' + t + '&again=1'; setTimeout(() => {"
        " location.hash = '#table=' + t; }, 0); }",
        table_id,
    )
    await gm.wait_for_timeout(1500)  # both entries have run
    await wait_seq(gm, table.state.seq)
    assert await gm.locator("#log .older").count() == 1
    await gm.click("#log .older")
    await gm.wait_for_function("!document.querySelector('#log .older')")
    seqs = await gm.eval_on_selector_all("#log li[data-seq]", "els => els.map(e => e.dataset.seq)")
    assert len(seqs) == len(set(seqs)) == table.state.seq
