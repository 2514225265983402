"""Make the screenshots of docs/screenshots/ (not a test): a live table per ruleset, its
replay and its phone view, and nstrpg's sheet form.

    .venv/bin/python tests/clients/screenshots.py [ruleset ...]
    .venv/bin/python tests/clients/screenshots.py nstrpg-map   # the battle map (nstrpg-map*.png)

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


async def map_shots(b: object, running: object) -> None:
    """nstrpg-map.png (desktop) and nstrpg-map-phone.png: the player's page in the move
    phase of a combat on the sample オフィスビル map, a path of 4 squares chosen by clicks."""
    async with await TakuClient.connect(running.ws_url) as gm:  # type: ignore[attr-defined]
        created = await gm.create_table("nstrpg", name="ネオサイタマの夜", gm_name="ゲームマスター")
        tid = created.table_id
        pl = await TakuClient.connect(running.ws_url)  # type: ignore[attr-defined]
        await pl.join(tid, created.player_token, name="フジキド")
        ninja = {"karate": 6, "neuron": 5, "wazamae": 4, "kyakuryoku": 4, "tairyoku": 12}
        yamoto = {"karate": 3, "neuron": 4, "wazamae": 5, "kyakuryoku": 3, "tairyoku": 8}
        boss = {"kind": "boss", "karate": 7, "neuron": 3, "kyakuryoku": 3, "tairyoku": 15}
        await pl.command(
            tid, {"type": "create_character", "name": "ニンジャスレイヤー", "sheet": ninja}
        )
        await pl.command(tid, {"type": "create_character", "name": "ヤモト・コキ", "sheet": yamoto})
        await gm.command(tid, {"type": "create_character", "name": "ラオモト・カン", "sheet": boss})
        await gm.command(
            tid,
            {
                "type": "nstrpg.create_mobs",
                "name": "クローンヤクザ",
                "count": 2,
                "sheet": {"kind": "mob", "karate": 2, "neuron": 1, "tairyoku": 1},
            },
        )
        ids = {c["name"]: c["id"] for c in (await gm.get_state(tid)).state["characters"].values()}
        await gm.command(tid, {"type": "nstrpg.set_map", "sample": "office"})
        spots = {
            "ニンジャスレイヤー": [2, 2],
            "ヤモト・コキ": [3, 1],
            "ラオモト・カン": [10, 5],
            "クローンヤクザ1": [8, 2],
            "クローンヤクザ2": [3, 6],
        }
        for name, at in spots.items():
            await gm.command(tid, {"type": "nstrpg.place", "character_id": ids[name], "at": at})
        await gm.command(tid, {"type": "nstrpg.start_combat"})
        await gm.command(tid, {"type": "nstrpg.start_turn"})
        await pl.command(
            tid, {"type": "nstrpg.begin_turn_of", "character_id": ids["ニンジャスレイヤー"]}
        )
        token = pl.tokens[tid]
        await pl.close()
    for width, height, name in ((1280, 900, "nstrpg-map"), (390, 844, "nstrpg-map-phone")):
        ctx = await b.new_context(viewport={"width": width, "height": height}, locale="ja-JP")  # type: ignore[attr-defined]
        page = await ctx.new_page()
        await page.goto(running.http_url)  # type: ignore[attr-defined]
        await page.evaluate(
            "([t, tok]) => localStorage.setItem('taku:' + t, JSON.stringify({token: tok}))",
            [tid, token],
        )
        await page.goto(f"{running.http_url}#table={tid}")  # type: ignore[attr-defined]
        await page.wait_for_selector("[data-testid='map-live'] .sq.reach")
        for x, y in ((3, 2), (4, 2), (5, 2), (6, 2)):
            await page.click(f"[data-testid='map-live'] .sq[data-x='{x}'][data-y='{y}']")
        await page.wait_for_timeout(300)
        await page.locator("[data-testid='map-live']").screenshot(path=str(OUT / f"{name}.png"))
        await ctx.close()


async def main(rulesets: list[str]) -> None:
    running = await start_server(MemoryEventStore())
    try:
        async with async_playwright() as pw:
            b = await pw.chromium.launch(
                executable_path="/usr/bin/chromium",
                headless=True,
                args=["--no-sandbox", "--disable-gpu"],
            )
            if "nstrpg-map" in rulesets:
                rulesets = [r for r in rulesets if r != "nstrpg-map"]
                await map_shots(b, running)
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
                        viewport={"width": 1280, "height": 820},
                        locale="ja-JP",
                        timezone_id="Asia/Tokyo",
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
                    if rs == "nstrpg":
                        # the sheet form, filled from the ruleset's template
                        await page.click(
                            "#actions details[data-command='create_character'] > summary"
                        )
                        await page.select_option("#cc-template", index=1)
                        form = page.locator("#create-character")
                        await form.scroll_into_view_if_needed()
                        await page.wait_for_timeout(200)
                        await form.screenshot(path=str(OUT / "nstrpg-sheet.png"))
                        await page.click(
                            "#actions details[data-command='create_character'] > summary"
                        )
                    await page.click("#replay-toggle")
                    await page.wait_for_selector("#replay[data-seq]")
                    for _ in range(3):
                        await page.click("#replay-prev")
                    await page.wait_for_timeout(400)
                    await page.screenshot(path=str(OUT / f"{rs}-replay.png"))
                    phone = await b.new_context(
                        viewport={"width": 390, "height": 844},
                        locale="ja-JP",
                        timezone_id="Asia/Tokyo",
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
    asyncio.run(main(sys.argv[1:] or ["nstrpg", "chabu", "hiden", "yodomi", "shadowjan"]))
