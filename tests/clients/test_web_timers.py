"""The countdown of a timer in the browser (issue #20, item 3), in Debian's Chromium
through Playwright: the GM sets a timer from the form the schema builds, both pages
count it down, and the server's timer_expired ends it."""

from __future__ import annotations

from typing import Any

from ._axe import assert_accessible
from .test_web import create_table, join_as, wait_seq


async def test_a_timer_counts_down_on_every_page_and_expires_once(
    scripted_server: Any, open_page: Any
) -> None:
    gm = await create_table(open_page, scripted_server.http_url)
    pl = await join_as(open_page, await gm.input_value("#invite-player"), "アカネ")
    await wait_seq(gm, 3)
    # the player has no timer form (GM only); the GM's comes from the command schema
    assert await pl.locator("#actions details[data-command='set_timer']").count() == 0
    await gm.click("#actions details[data-command='set_timer'] > summary")
    form = gm.locator("form[data-command='set_timer']")
    # a long one first, which the GM stops: it never expires
    await form.locator("input[name=duration_s]").fill("600")
    await form.locator("input[name=label]").fill("休憩")
    await form.locator("button[type=submit]").click()
    await wait_seq(pl, 4)
    shown = await pl.inner_text(".timers-panel time.countdown")
    assert shown in ("残り 10:00", "残り 9:59", "残り 9:58"), shown
    assert await pl.locator(".timers-panel button").count() == 0  # only the GM stops timers
    await gm.wait_for_selector(".timers-panel button[data-action=cancel-timer]")
    await assert_accessible(gm, "a table with a timer (the GM's page)")
    await gm.click(".timers-panel button[data-action=cancel-timer]")
    await wait_seq(pl, 5)
    assert "タイマー「休憩」を止めました" in await pl.inner_text("#log li[data-seq='5']")
    await pl.wait_for_selector(".timers-panel", state="detached")
    # then a short one, which runs out
    await form.locator("input[name=duration_s]").fill("3")
    await form.locator("input[name=label]").fill("手番の持ち時間")
    await form.locator("button[type=submit]").click()
    for page in (gm, pl):
        await wait_seq(page, 6)
        timer = page.locator(".timers-panel li", has_text="手番の持ち時間")
        countdown = timer.locator("time.countdown[role=timer]")
        await countdown.wait_for()
        first = await countdown.inner_text()
        assert first in ("残り 0:03", "残り 0:02"), first
        assert "urgent" in (await countdown.get_attribute("class") or "")
    # it ticks down on the page (no new state needed): 0:01 comes before the expiry
    await gm.wait_for_selector(".timers-panel time.countdown:has-text('残り 0:01')")
    # the server's expiry: one line for everyone, and the panel goes away
    for page in (gm, pl):
        await wait_seq(page, 7)
        line = await page.inner_text("#log li[data-seq='7']")
        assert "時間切れ: タイマー「手番の持ち時間」" in line, line
        await page.wait_for_selector(".timers-panel", state="detached")
    assert await gm.locator("#log li").count() == 7
