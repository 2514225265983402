"""Make the screenshots of docs/screenshots/ (not a test): a live nstrpg table and its replay.

    .venv/bin/python tests/clients/screenshots.py [ruleset ...]

Starts a server on a memory store, plays a few lines through taku_client,
opens the GM's page in Debian's Chromium and saves PNGs.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from playwright.async_api import async_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from conftest import start_server, stop_server

from taku.store import MemoryEventStore
from taku_client import TakuClient

OUT = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
if len(sys.argv) > 1 and sys.argv[1].startswith("--out="):
    OUT = Path(sys.argv.pop(1).removeprefix("--out="))

SCRIPTS: dict[str, list[object]] = {
    "nstrpg": [
        {
            "type": "create_character",
            "name": "ニンジャスレイヤー",
            "sheet": {
                "karate": 6,
                "neuron": 5,
                "wazamae": 4,
                "jitsu": 2,
                "tairyoku": 12,
                "seishin": 6,
                "dkk": 3,
            },
        },
        {
            "type": "create_character",
            "name": "ヤモト・コキ",
            "sheet": {
                "karate": 3,
                "neuron": 5,
                "wazamae": 5,
                "jitsu": 3,
                "tairyoku": 8,
                "seishin": 7,
            },
        },
        "ドーモ、ニンジャスレイヤーです。",
        "N6 カラテ",
        "H5[S] サツバツ狙い",
        "2D6>=7 一般判定",
        "S2D6 GMだけが見る",
        {"gm": {"type": "nstrpg.start_combat"}},
        {
            "gm": {
                "type": "nstrpg.gain_dkk",
                "character_id": "c4",
                "amount": 2,
                "reason": "サツバツ!",
            }
        },
        "WS8",
        "イヤーッ！",
    ],
    "generic": ["ドーモ。", "2D6>=7 アンブッシュ", "1D100<=50", "4B6>=4"],
    "chabu": [
        {
            "type": "create_character",
            "name": "ガンドー",
            "sheet": {"abilities": {"カラテ": 60}, "dl": 3, "hp": 20, "ingaoho": 35, "tatsujin": 1},
        },
        "1D100<=60 カラテ",
    ],
    "yodomi": [
        {
            "type": "create_character",
            "name": "ミナセ",
            "sheet": {"pp": 30, "sp": 60, "abilities": {"体": 5}},
        },
        {"gm": {"type": "yodomi.deal_cards", "character_id": "c4", "count": 3}},
    ],
    "shadowjan": [
        {"type": "create_character", "name": "アキラ"},
        {"type": "shadowjan.sit", "character_id": "c4"},
        {"gm": {"type": "create_character", "name": "ベニ"}},
        {"gm": {"type": "shadowjan.sit", "character_id": "c6"}},
        {"type": "shadowjan.start"},
    ],
    "hiden": [
        {"type": "create_character", "name": "噺家 一之輔", "sheet": {"zabuton": 4}},
        "2D6>=8 落語",
    ],
}


async def main(rulesets: list[str]) -> None:
    running = await start_server(MemoryEventStore())
    try:
        async with async_playwright() as pw:
            b = await pw.chromium.launch(
                executable_path="/usr/bin/chromium",
                headless=True,
                args=["--no-sandbox", "--disable-gpu"],
            )
            for rs in rulesets:
                async with await TakuClient.connect(running.ws_url) as c:
                    created = await c.create_table(
                        rs,
                        name="ネオサイタマの夜" if rs == "nstrpg" else f"{rs} の卓",
                        gm_name="ゲームマスター",
                    )
                    pl = await TakuClient.connect(running.ws_url)
                    await pl.join(created.table_id, created.player_token, name="フジキド")
                    for step in SCRIPTS.get(rs, SCRIPTS["generic"]):
                        try:
                            if isinstance(step, str):
                                await (c if step.startswith("S") else pl).chat(
                                    created.table_id, step
                                )
                            elif "gm" in step:
                                await c.command(created.table_id, step["gm"])  # type: ignore[index]
                            else:
                                await pl.command(created.table_id, step)
                        except Exception as e:  # noqa: BLE001 - a demo script: show what failed and go on
                            print(rs, step, e)
                    await pl.close()
                    ctx = await b.new_context(
                        viewport={"width": 1280, "height": 820}, locale="ja-JP"
                    )
                    page = await ctx.new_page()
                    await page.goto(running.http_url)
                    await page.evaluate(
                        "([t, tok]) => localStorage.setItem('taku:' + t, JSON.stringify({token: tok}))",
                        [created.table_id, created.gm_token],
                    )
                    await page.goto(f"{running.http_url}#table={created.table_id}")
                    await page.wait_for_selector("body[data-seq]")
                    await page.wait_for_timeout(400)
                    await page.screenshot(path=str(OUT / f"{rs}-live.png"))
                    await page.click("#replay-toggle")
                    await page.wait_for_selector("#replay[data-seq]")
                    for _ in range(3):
                        await page.click("#replay-prev")
                    await page.wait_for_timeout(400)
                    await page.screenshot(path=str(OUT / f"{rs}-replay.png"))
                    phone = await b.new_context(
                        viewport={"width": 390, "height": 844}, locale="ja-JP"
                    )
                    p2 = await phone.new_page()
                    await p2.goto(running.http_url)
                    await p2.evaluate(
                        "([t, tok]) => localStorage.setItem('taku:' + t, JSON.stringify({token: tok}))",
                        [created.table_id, created.gm_token],
                    )
                    await p2.goto(f"{running.http_url}#table={created.table_id}")
                    await p2.wait_for_selector("body[data-seq]")
                    await p2.wait_for_timeout(300)
                    await p2.screenshot(path=str(OUT / f"{rs}-phone.png"))
                    await ctx.close()
                    await phone.close()
            await b.close()
    finally:
        await stop_server(running)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:] or ["nstrpg"]))
