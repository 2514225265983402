"""取り消し / やり直し and 「ここから分岐」 in the browser client (issue #20), in real Chromium."""

from __future__ import annotations

from typing import Any

from tests.clients.test_web import create_table, join_as, make_character, wait_seq


async def test_the_gm_undoes_and_redoes_and_the_player_sees_it_struck_through(
    scripted_server: Any, open_page: Any
) -> None:
    gm = await create_table(open_page, scripted_server.http_url)
    pl = await join_as(open_page, await gm.input_value("#invite-player"), "たろう")
    await wait_seq(gm, 3)
    assert await pl.locator("#undo-bar").is_hidden()  # the table does not let players undo
    await make_character(gm, "ヤモト・コキ", free={"karate": 5})
    await wait_seq(gm, 4)
    await gm.wait_for_selector("#state-panels .card:has-text('ヤモト・コキ')")
    assert await gm.locator("#redo-button").is_disabled()
    await gm.click("#undo-button")
    for page in (gm, pl):
        await wait_seq(page, 5)
        await page.wait_for_selector("#log li[data-seq='4'].undone")
        assert "取り消し" in await page.inner_text("#log li[data-seq='4']")
        await page.wait_for_selector(
            "#state-panels .card:has-text('ヤモト・コキ')", state="detached"
        )
    assert "#4 の操作を取り消しました" in await gm.inner_text("#log li[data-seq='5']")
    await gm.click("#redo-button")
    for page in (gm, pl):
        await wait_seq(page, 6)
        await page.wait_for_selector("#log li[data-seq='4']:not(.undone)")
        await page.wait_for_selector("#state-panels .card:has-text('ヤモト・コキ')")
    # the replay shows the undone line struck through too
    await gm.click("#undo-button")
    await wait_seq(gm, 7)
    await gm.click("#replay-toggle")
    await gm.wait_for_selector("#replay-log li[data-seq='4'].undone")


async def test_the_gm_forks_from_a_past_seq_in_the_replay(
    scripted_server: Any, open_page: Any
) -> None:
    gm = await create_table(open_page, scripted_server.http_url, name="本編")
    pl = await join_as(open_page, await gm.input_value("#invite-player"), "たろう")
    await wait_seq(gm, 3)
    await make_character(gm, "ヤモト・コキ", free={"karate": 5})
    await wait_seq(gm, 4)
    await gm.fill("#chat-input", "この後の発言")
    await gm.press("#chat-input", "Enter")
    await wait_seq(gm, 5)
    source = await gm.evaluate("window.taku.tableId")
    await gm.click("#replay-toggle")
    await gm.wait_for_selector("#replay[data-seq='5']")
    await gm.click("#replay-prev")
    await gm.wait_for_selector("#replay[data-seq='4']")
    await gm.click("#replay-fork")
    # the fork opens as its GM, with its links (the player's own among them)
    await gm.wait_for_function(f"window.taku.tableId && window.taku.tableId !== '{source}'")
    await gm.wait_for_selector("#invite-dialog[open]")
    member_link = await gm.input_value("#invite-dialog [id^='dlg-invite-member-']")
    await gm.click("#invite-close")
    await gm.wait_for_selector("#state-panels .card:has-text('ヤモト・コキ')")
    assert "この後の発言" not in await gm.inner_text("#log")
    assert "#4 から分岐しました" in await gm.inner_text("#log")
    # the player comes back as themselves in the fork, with the same character
    page = await join_as(open_page, member_link, "たろう")
    assert "たろう" in await page.inner_text("#t-me")
    # the two tables diverge: a line in the fork does not reach the source
    await gm.fill("#chat-input", "分岐の世界")
    await gm.press("#chat-input", "Enter")
    await page.wait_for_selector("#log li:has-text('分岐の世界')")
    assert "分岐の世界" not in await pl.inner_text("#log")


async def test_a_table_made_with_player_undo_lets_a_player_take_back_their_own_move(
    scripted_server: Any, open_page: Any
) -> None:
    """The create form offers the core's table settings (labelled from list_rulesets'
    table_settings_schema); with プレイヤーの取り消し on, a player undoes their own last command."""
    gm = await open_page(scripted_server.http_url)
    await gm.select_option("#ruleset", "generic")
    await gm.click("#table-settings > summary")
    box = gm.locator("#table-settings")
    assert "観戦者の発言" in await box.inner_text()
    await box.get_by_label("プレイヤーの取り消し").check()
    await gm.click("#create-submit")
    await gm.wait_for_selector("body[data-seq]")
    await gm.click("#invite-close")
    pl = await join_as(open_page, await gm.input_value("#invite-player"), "たろう")
    await wait_seq(pl, 3)
    await make_character(pl, "ヤモト・コキ", free={"karate": 5})
    await wait_seq(pl, 4)
    await pl.click("#undo-button")
    for page in (gm, pl):
        await wait_seq(page, 5)
        await page.wait_for_selector(
            "#state-panels .card:has-text('ヤモト・コキ')", state="detached"
        )


async def test_the_gm_forces_a_redo_a_later_command_depends_on_with_a_reason(
    scripted_server: Any, open_page: Any
) -> None:
    """やり直し refused for a later command depending on it (undo/depends: both changed the
    chat settings) asks the GM for a reason, and sends the redo forced with it."""
    gm = await create_table(open_page, scripted_server.http_url)
    await gm.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    await gm.fill("#channel-name", "作戦A")
    await gm.click("#channel-add-submit")
    await wait_seq(gm, 3)
    await gm.click("#undo-button")
    await wait_seq(gm, 4)
    await gm.fill("#channel-name", "作戦B")
    await gm.click("#channel-add-submit")
    await wait_seq(gm, 5)
    asked: list[str] = []

    async def answer(dialog: Any) -> None:
        asked.append(dialog.message)
        await dialog.accept("Bも残したい")

    gm.on("dialog", answer)
    await gm.click("#redo-button")
    await wait_seq(gm, 6)
    assert asked and "5番の操作" in asked[0]
    line = await gm.inner_text("#log li[data-seq='6']")
    assert "やり直しました（強制）：Bも残したい" in line
    await gm.wait_for_selector("#log li[data-seq='3']:not(.undone)")


async def test_the_gm_undoes_an_earlier_command_from_its_log_line(
    scripted_server: Any, open_page: Any
) -> None:
    """「取り消す」 on a log line undoes that command, not the last one; refused for a later
    command depending on it (undo/depends), it asks the GM for a reason and sends it
    forced. A player sees no such control."""
    gm = await create_table(open_page, scripted_server.http_url)
    pl = await join_as(open_page, await gm.input_value("#invite-player"), "たろう")
    await wait_seq(gm, 3)
    await gm.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    await gm.fill("#channel-name", "作戦A")
    await gm.click("#channel-add-submit")
    await wait_seq(gm, 4)
    await gm.fill("#chat-input", "まちがえた発言")
    await gm.press("#chat-input", "Enter")
    await wait_seq(gm, 5)
    await gm.fill("#channel-name", "作戦B")
    await gm.click("#channel-add-submit")
    await wait_seq(gm, 6)
    await wait_seq(pl, 6)
    assert await pl.locator("#log .undo-line:visible").count() == 0
    await gm.click("#log li[data-seq='5'] .undo-line")
    await wait_seq(gm, 7)
    await gm.wait_for_selector("#log li[data-seq='5'].undone")
    assert await gm.locator("#log li[data-seq='6'].undone").count() == 0
    assert await gm.locator("#log li[data-seq='5'] .undo-line").is_hidden()
    assert await gm.locator("#log li[data-seq='7'] .undo-line").count() == 0  # an undo's line
    asked: list[str] = []

    async def answer(dialog: Any) -> None:
        asked.append(dialog.message)
        await dialog.accept("Aは無かったことに")

    gm.on("dialog", answer)
    await gm.click("#log li[data-seq='4'] .undo-line")
    await wait_seq(gm, 8)
    assert asked and "6番の操作" in asked[0]
    assert "（強制）：Aは無かったことに" in await gm.inner_text("#log li[data-seq='8']")
    await gm.wait_for_selector("#log li[data-seq='4'].undone")
    await pl.wait_for_selector("#log li[data-seq='4'].undone")


async def test_a_players_redo_is_offered_only_for_their_own_undone_command(
    scripted_server: Any, open_page: Any
) -> None:
    """With プレイヤーの取り消し, a player's やり直し is enabled after their own undo, and
    disabled once the last undone command is the GM's (the server would refuse it). The
    create form's メンバーの分岐 carries its warning (the Struct's description, as its tooltip)."""
    gm = await open_page(scripted_server.http_url)
    await gm.select_option("#ruleset", "generic")
    await gm.click("#table-settings > summary")
    await gm.locator("#table-settings").get_by_label("プレイヤーの取り消し").check()
    hint = await gm.locator("#table-settings label.check:has-text('メンバーの分岐')").get_attribute(
        "title"
    )
    assert hint and "GMしか分岐できない" in hint
    await gm.click("#create-submit")
    await gm.wait_for_selector("body[data-seq]")
    await gm.click("#invite-close")
    pl = await join_as(open_page, await gm.input_value("#invite-player"), "たろう")
    await wait_seq(pl, 3)
    await pl.fill("#chat-input", "わたしの発言")
    await pl.press("#chat-input", "Enter")
    await wait_seq(pl, 4)
    assert await pl.locator("#redo-button").is_disabled()
    await pl.click("#undo-button")
    await wait_seq(pl, 5)
    # the buttons follow the state, which comes after the event: waited for, not looked at once
    await pl.wait_for_selector("#redo-button:enabled")
    await gm.fill("#chat-input", "GMの発言")
    await gm.press("#chat-input", "Enter")
    await wait_seq(gm, 6)
    await gm.click("#undo-button")
    await wait_seq(pl, 7)
    await pl.wait_for_selector("#log li[data-seq='6'].undone")
    await pl.wait_for_selector("#redo-button:disabled")
    await gm.wait_for_selector("#redo-button:enabled")


async def test_a_double_click_undoes_once_and_forks_once(
    scripted_server: Any, open_page: Any
) -> None:
    """A double click on 取り消し sends one undo (not the last two commands), and one on
    「ここから分岐」 makes one table (rv2: it made two)."""
    gm = await create_table(open_page, scripted_server.http_url, name="本編")
    for i, text in enumerate(("一つ目", "二つ目"), start=3):
        await gm.fill("#chat-input", text)
        await gm.press("#chat-input", "Enter")
        await wait_seq(gm, i)
    await gm.dblclick("#undo-button")
    await wait_seq(gm, 5)
    await gm.wait_for_timeout(800)
    assert await gm.locator("#log li[data-seq='6']").count() == 0
    assert await gm.locator("#log li[data-seq='3'].undone").count() == 0
    source = await gm.evaluate("window.taku.tableId")
    await gm.click("#replay-toggle")
    await gm.wait_for_selector("#replay[data-seq='5']")
    await gm.dblclick("#replay-fork")
    await gm.wait_for_function(f"window.taku.tableId && window.taku.tableId !== '{source}'")
    await gm.wait_for_timeout(800)
    toasts = await gm.locator(".toast:has-text('から分岐した卓を作りました')").count()
    assert toasts == 1, toasts
    assert "#5 から分岐した卓を作りました" in await gm.inner_text("body")
