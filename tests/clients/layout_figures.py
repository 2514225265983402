"""Figures of the web client's layout (not a test): per ruleset, the GM's page with two
characters from the ruleset's first template, on a desktop (1280×800) and a phone
(390×844).

    .venv/bin/python tests/clients/layout_figures.py

Prints, per ruleset: the page's height (800 when the page itself does not scroll), the
side column's content height (it scrolls inside itself), whether the chat input is on
screen with the page and the side column scrolled to their ends, the side column's first
panel; on the phone, the page's width (390: nothing scrolls sideways) and the header's
height. Starts a server on a memory store (as screenshots.py does).
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from playwright.async_api import async_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from conftest import start_server, stop_server

from taku.store import MemoryEventStore

RULESETS = ("nstrpg", "chabu", "hiden", "yodomi", "shadowjan")

TWO_CHARACTERS = """async () => {
  const info = window.taku.rulesets.find((r) => r.id === window.taku.state.ruleset);
  const t = (info.sheet_templates || [])[0];
  for (const name of ["アカネ", "ブンタ"]) {
    await window.taku.conn.command(window.taku.tableId,
      { type: "create_character", name, sheet: t ? t.sheet : {} });
  }
}"""


async def table(b: object, url: str, ruleset: str, width: int, height: int) -> object:
    page = await b.new_page(viewport={"width": width, "height": height})  # type: ignore[attr-defined]
    await page.goto(url)
    await page.wait_for_selector("body[data-ready='1']")
    await page.select_option("#ruleset", ruleset)
    await page.click("#create-submit")
    await page.wait_for_selector("body[data-seq]")
    await page.evaluate("document.querySelector('#invite-dialog')?.close()")
    await page.evaluate(TWO_CHARACTERS)
    await page.wait_for_function("Object.keys(window.taku.state.characters).length === 2")
    await page.wait_for_timeout(300)
    return page


async def main() -> None:
    running = await start_server(MemoryEventStore())
    try:
        async with async_playwright() as pw:
            b = await pw.chromium.launch(executable_path="/usr/bin/chromium", headless=True)
            for rs in RULESETS:
                page = await table(b, running.http_url, rs, 1280, 800)
                await page.evaluate(
                    "() => { const s = document.querySelector('#live-side');"
                    " s.scrollTop = s.scrollHeight; window.scrollTo(0, 1e6); }"
                )
                page_h = await page.evaluate("document.documentElement.scrollHeight")
                side_h = await page.evaluate("document.querySelector('#live-side').scrollHeight")
                box = await page.locator("#chat-input").bounding_box()
                on = box is not None and 0 <= box["y"] and box["y"] + box["height"] <= 800
                first = await page.evaluate(
                    "document.querySelector('#state-panels > *')?.getAttribute('aria-label')"
                )
                await page.close()
                phone = await table(b, running.http_url, rs, 390, 844)
                width = await phone.evaluate("document.documentElement.scrollWidth")
                head = await phone.evaluate(
                    "Math.round(document.querySelector('#table .bar').getBoundingClientRect().height)"
                )
                await phone.close()
                print(
                    f"{rs}: desktop page {page_h} px, side column {side_h} px (scrolls inside),"
                    f" chat input on screen at the end: {on}, first panel: {first};"
                    f" phone width {width} px, header {head} px"
                )
            await b.close()
    finally:
        await stop_server(running)


if __name__ == "__main__":
    asyncio.run(main())
