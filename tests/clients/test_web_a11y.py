"""Accessibility of the web client (issue 23): axe-core on every page and state the
client shows, on a desktop and a phone screen; layout shift while the phone-sized table
page fills in; the skip link and the replay by keyboard alone."""

from __future__ import annotations

import json
from typing import Any

import pytest

from taku.core.dice import ScriptedDice
from taku_client import TakuClient

from ._axe import assert_accessible
from .test_web import create_table, wait_seq

SCREENS = [(1280, 800), (390, 844)]

# Every layout shift since the page started (PerformanceObserver, buffered), summed as
# Chromium's cumulative layout shift counts it: shifts right after an input are left out.
CLS_OBSERVER = """
window.__shifts = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    if (e.hadRecentInput) continue;
    window.__shifts.push({ value: e.value, at: Math.round(e.startTime),
      nodes: (e.sources || []).map((s) => s.node && s.node.nodeType === 1
        ? `${s.node.tagName.toLowerCase()}${s.node.id ? "#" + s.node.id : ""}${s.node.className ? "." + String(s.node.className).split(" ").join(".") : ""}`
        : String(s.node && s.node.nodeName)) });
  }
}).observe({ type: "layout-shift", buffered: true });
"""


async def seed_nstrpg_table(page: Any, server: Any, dice: ScriptedDice) -> dict[str, Any]:
    """On the GM's ``page`` (an nstrpg table), a player with a character, an NPC, chat,
    dice lines (a critical サツバツ row among them) and a combat under way."""
    table_id = await page.evaluate("window.taku.tableId")
    mine = json.loads(await page.evaluate(f"localStorage.getItem('taku:{table_id}')"))
    dice.extend([4, 3, 6, 6, 2, 5, 3] + [4] * 40)
    async with (
        await TakuClient.connect(server.ws_url) as gm,
        await TakuClient.connect(server.ws_url) as pl,
    ):
        await gm.join(table_id, mine["token"])
        joined = await pl.join(table_id, mine["player_token"], "フジキド")
        await pl.command(
            table_id,
            {
                "type": "create_character",
                "name": "ニンジャスレイヤー",
                "sheet": {"karate": 6, "neuron": 5, "tairyoku": 12, "seishin": 6, "dkk": 3},
            },
        )
        await pl.chat(table_id, "ドーモ、ラオモト=サン。ニンジャスレイヤーです。")
        await pl.roll(table_id, "2D6>=7", comment="カラテ")
        await pl.roll(table_id, "2D6>=7", comment="カラテ")
        await pl.chat(table_id, "SB")
        await gm.command(
            table_id,
            {
                "type": "create_character",
                "name": "ラオモト・カン",
                "sheet": {"karate": 8, "neuron": 6, "tairyoku": 15, "seishin": 8},
            },
        )
        await gm.command(table_id, {"type": "nstrpg.start_combat"})
        ack = await gm.command(table_id, {"type": "nstrpg.start_turn"})
        player_token = pl.tokens[table_id]
    return {
        "table_id": table_id,
        "last_seq": ack.last_seq,
        "player": player_token,
        "member": joined.member_id,
    }


async def gm_table(
    open_page: Any, url: str, width: int, height: int, *, init_script: str | None = None
) -> Any:
    """The GM's page of a new nstrpg table on a ``width``×``height`` screen."""
    return await create_table(
        open_page,
        url,
        "nstrpg",
        "ネオサイタマの夜",
        width=width,
        height=height,
        init_script=init_script,
    )


@pytest.mark.parametrize(("width", "height"), SCREENS, ids=["desktop", "phone"])
async def test_axe_finds_nothing_serious_on_any_page(
    scripted_server: Any, open_page: Any, scripted_dice: ScriptedDice, width: int, height: int
) -> None:
    """axe-core on the home page, the invite's join form, a GM's nstrpg table (GM tools and
    a command form open), a player's page, a spectator's and the replay view: no violation
    of serious or critical impact (the message names the rule and the node)."""
    home = await open_page(scripted_server.http_url, width=width, height=height)
    await assert_accessible(home, "home")
    await home.context.close()

    gm = await gm_table(open_page, scripted_server.http_url, width, height)
    seeded = await seed_nstrpg_table(gm, scripted_server, scripted_dice)
    await wait_seq(gm, seeded["last_seq"])
    await gm.wait_for_selector(f"body[data-seq='{seeded['last_seq']}']")
    await gm.wait_for_selector("#log li.oc-crit")
    await gm.click("#gm-tools > summary")
    await gm.click("#actions details.cmd-all > summary")
    await gm.click("#actions details[data-command='nstrpg.check'] > summary")
    await gm.click("#state-panels details.state-panel > summary")
    await assert_accessible(gm, "a GM's table")

    spectate = await open_page(
        await gm.input_value("#invite-spectator"), width=width, height=height
    )
    await spectate.wait_for_selector("#join-name")
    await assert_accessible(spectate, "the join form of an invite")
    await spectate.fill("#join-name", "観客")
    await spectate.click("#join-submit")
    await wait_seq(spectate, seeded["last_seq"])
    await assert_accessible(spectate, "a spectator's page")

    pl = await open_page(scripted_server.http_url, width=width, height=height)
    await pl.evaluate(
        "([k, v]) => localStorage.setItem(k, v)",
        [f"taku:{seeded['table_id']}", json.dumps({"token": seeded["player"]})],
    )
    await pl.evaluate(f"location.hash = 'table={seeded['table_id']}'")
    await wait_seq(pl, seeded["last_seq"])
    await pl.wait_for_selector(".ruleset-panel tr:has-text('ニンジャスレイヤー')")
    await assert_accessible(pl, "a player's page")

    for who, page in (("a player's", pl), ("the GM's", gm)):
        if await page.locator("#menu-toggle").is_visible():  # a phone: the tools fold away
            await page.click("#menu-toggle")
        await page.click("#replay-toggle")
        await page.wait_for_selector(
            f"#replay[data-seq='{await page.evaluate('window.taku.state.seq')}']"
        )
        await assert_accessible(page, f"{who} replay view")
        await page.press("#replay-slider", "Home")
        await page.wait_for_selector("#replay[data-seq='1']")
        await assert_accessible(page, f"{who} replay view at seq 1")


async def test_phone_table_page_does_not_jump_while_it_fills_in(
    scripted_server: Any, open_page: Any, scripted_dice: ScriptedDice
) -> None:
    """A GM opens a busy nstrpg table on a 390×844 phone: as the header, the log and the
    panels fill in, the cumulative layout shift stays at 0.1 or less (Core Web Vitals' good).
    The header stays small, the chat input shows its whole placeholder, the table's column
    labels break between words only, and every summary is a 24 px target."""
    gm = await gm_table(open_page, scripted_server.http_url, 390, 844, init_script=CLS_OBSERVER)
    seeded = await seed_nstrpg_table(gm, scripted_server, scripted_dice)
    await wait_seq(gm, seeded["last_seq"])
    await gm.reload()
    await gm.wait_for_selector(f"body[data-seq='{seeded['last_seq']}']")
    await wait_seq(gm, seeded["last_seq"])
    await gm.wait_for_selector(".ruleset-panel tr:has-text('ラオモト・カン')")
    await gm.wait_for_timeout(300)  # shifts are reported after the frame that made them
    shifts = await gm.evaluate("window.__shifts")
    cls = sum(s["value"] for s in shifts)
    assert cls <= 0.1, f"cumulative layout shift {cls:.3f}: {shifts}"

    fit = await gm.evaluate("""() => {
      const input = document.querySelector('#chat-input');
      const cs = getComputedStyle(input);
      const ctx = document.createElement('canvas').getContext('2d');
      ctx.font = cs.font;
      // each word of a column label (the text between <wbr>s) on one line
      const split = [...document.querySelectorAll('.ruleset-panel thead th')].flatMap((th) =>
        [...th.childNodes].filter((n) => n.nodeType === 3 && n.textContent).filter((n) => {
          const r = document.createRange(); r.selectNodeContents(n);
          return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size > 1;
        }).map((n) => n.textContent));
      return {
        header: document.querySelector('#table .bar').getBoundingClientRect().height,
        placeholder: ctx.measureText(input.placeholder).width,
        room: input.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight),
        split,
        summaries: [...document.querySelectorAll('summary')].filter((x) => x.offsetParent)
          .map((x) => [x.textContent, x.getBoundingClientRect().height]).filter(([, hgt]) => hgt < 24),
      };
    }""")
    assert fit["header"] <= 130, fit
    assert fit["placeholder"] <= fit["room"], fit
    assert fit["split"] == [], fit
    assert fit["summaries"] == [], fit


async def test_keyboard_skip_link_and_replay(
    scripted_server: Any, open_page: Any, scripted_dice: ScriptedDice
) -> None:
    """By keyboard alone: the skip link focuses the chat input and the page stays at the
    table; the replay opens from its button, steps back, and closing it (its button, or
    Escape) gives the focus back to the replay button."""
    gm = await gm_table(open_page, scripted_server.http_url, 1280, 800)
    seeded = await seed_nstrpg_table(gm, scripted_server, scripted_dice)
    await gm.wait_for_selector(f"body[data-seq='{seeded['last_seq']}']")
    focused = "() => document.activeElement && (document.activeElement.id || document.activeElement.className)"

    async def tab_to(element_id: str, key: str = "Tab") -> None:
        for _ in range(30):
            if await gm.evaluate(focused) == element_id:
                return
            await gm.keyboard.press(key)
        raise AssertionError(f"{key} never reached #{element_id} (at {await gm.evaluate(focused)})")

    # from the chat input (focused on entering the table) back to the page's first stop
    await tab_to("skip", "Shift+Tab")
    assert (await gm.locator(".skip").bounding_box() or {}).get("x", -1) >= 0  # shown while focused
    await gm.keyboard.press("Enter")
    assert await gm.evaluate(focused) == "chat-input"
    assert f"table={seeded['table_id']}" in await gm.evaluate("location.hash")
    await gm.wait_for_timeout(200)  # a route to the home page would have happened by now
    assert await gm.locator("#table").is_visible() and await gm.locator("#home").is_hidden()

    await tab_to("replay-toggle", "Shift+Tab")
    await gm.keyboard.press("Enter")
    await gm.wait_for_selector(f"#replay[data-seq='{seeded['last_seq']}']")
    assert await gm.evaluate(focused) == "replay-slider"
    await gm.keyboard.press("ArrowLeft")
    await gm.wait_for_selector(f"#replay[data-seq='{seeded['last_seq'] - 1}']")
    await tab_to("replay-close")
    await gm.keyboard.press("Enter")
    await gm.locator("#live").wait_for()
    assert await gm.evaluate(focused) == "replay-toggle"
    assert await gm.get_attribute("#replay-toggle", "aria-pressed") == "false"

    await gm.keyboard.press("Enter")
    await gm.wait_for_selector("#replay:not([hidden])")
    await gm.keyboard.press("Escape")
    await gm.locator("#live").wait_for()
    assert await gm.evaluate(focused) == "replay-toggle"

    # the table view has its landmark and its heading (the table's name)
    assert await gm.locator("main:visible").count() == 1
    assert await gm.locator("h1:visible").all_inner_texts() == ["ネオサイタマの夜"]
    # the GM's values are buttons: Tab reaches one, Enter puts it in the override form
    await gm.click("#state-panels details.state-panel > summary")
    await tab_to("leaf v-number")
    path = await gm.evaluate("document.activeElement.dataset.path")
    await gm.keyboard.press("Enter")
    assert await gm.input_value("#ov-path") == path
    assert await gm.evaluate(focused) == "ov-value"
