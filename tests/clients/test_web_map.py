"""The nstrpg map in the browser (issue 15 item 7): a token moved by clicks (and by the
keyboard), an illegal square refused, the turn order with whose 手番 and which phase, and
the GM's editor painting a wall. Each person is a browser context of their own on a real
server; the other side's moves go through TakuClient."""

from __future__ import annotations

from typing import Any

from taku.core.dice import ScriptedDice
from taku_client import TakuClient

from .test_web import create_table, wait_seq

# x: 0 … 7; the PC starts at (1, 1), the enemy at (5, 2); a wall at (3, 1) and (3, 2)
ROOM = "\n".join(("########", "#..#...#", "#..#...#", "#......#", "########"))
PC = {"karate": 4, "neuron": 5, "wazamae": 3, "kyakuryoku": 3, "tairyoku": 8, "seishin": 4}
ENEMY = {
    "kind": "boss",
    "karate": 3,
    "neuron": 2,
    "wazamae": 2,
    "kyakuryoku": 2,
    "tairyoku": 6,
    "seishin": 2,
}


def sq(x: int, y: int) -> str:
    return f"[data-testid='map-live'] .sq[data-x='{x}'][data-y='{y}']"


async def setup(server: Any, open_page: Any, *, width: int = 1200) -> dict[str, Any]:
    """A GM page and a player page on a table with ROOM set, the player's ninja at (1, 1)
    and the GM's enemy at (5, 2), the combat begun and the ninja's move phase open."""
    gm = await create_table(open_page, server.http_url, "nstrpg", "ネオサイタマ", width=width)
    pl = await open_page(await gm.input_value("#invite-player"), width=width, height=844)
    await pl.fill("#join-name", "フジキド")
    await pl.click("#join-submit")
    await pl.wait_for_selector("body[data-seq]")
    table_id = await gm.evaluate("window.taku.tableId")
    token = await gm.evaluate(f"JSON.parse(localStorage.getItem('taku:{table_id}')).token")
    ptoken = await pl.evaluate(f"JSON.parse(localStorage.getItem('taku:{table_id}')).token")
    async with (
        await TakuClient.connect(server.ws_url) as g,
        await TakuClient.connect(server.ws_url) as p,
    ):
        await g.join(table_id, token)
        await p.join(table_id, ptoken)
        await p.command(
            table_id, {"type": "create_character", "name": "ニンジャスレイヤー", "sheet": PC}
        )
        await g.command(table_id, {"type": "create_character", "name": "ラオモト", "sheet": ENEMY})
        chars = (await g.get_state(table_id)).state["characters"]
        ids = {c["name"]: c["id"] for c in chars.values()}
        await g.command(table_id, {"type": "nstrpg.set_map", "text": ROOM, "name": "倉庫"})
        for name, at in (("ニンジャスレイヤー", [1, 1]), ("ラオモト", [5, 2])):
            await g.command(
                table_id,
                {"type": "nstrpg.place", "character_id": ids[name], "at": at, "reason": "初期配置"},
            )
        await g.command(table_id, {"type": "nstrpg.start_combat"})
        await g.command(table_id, {"type": "nstrpg.start_turn"})
        ack = await p.command(
            table_id, {"type": "nstrpg.begin_turn_of", "character_id": ids["ニンジャスレイヤー"]}
        )
    for page in (gm, pl):
        await page.wait_for_selector(f"body[data-seq='{ack.last_seq}']")
    return {"gm": gm, "pl": pl, "ids": ids, "seq": ack.last_seq, "table_id": table_id}


async def position(page: Any, cid: str) -> list[int] | None:
    return await page.evaluate(  # type: ignore[no-any-return]
        f"(window.taku.state.game.board.positions || {{}})['{cid}'] || null"
    )


async def test_a_token_moves_by_clicks_along_the_chosen_path(
    scripted_server: Any, open_page: Any, scripted_dice: ScriptedDice
) -> None:
    """In the move phase the squares 【脚力】 3 reaches are highlighted; clicking (1,2),
    (1,3), (2,3) builds the path step by step and the button moves the token there: the
    server's ``moved`` event has exactly that path, and the token is drawn on (2,3)."""
    t = await setup(scripted_server, open_page)
    pl, me = t["pl"], t["ids"]["ニンジャスレイヤー"]
    assert await pl.locator(f"{sq(1, 2)}.reach").count() == 1
    assert await pl.locator(f"{sq(2, 3)}.reach").count() == 1
    assert await pl.locator(f"{sq(4, 3)}.reach").count() == 0  # 5 steps away: beyond 【脚力】 3
    for x, y in ((1, 2), (1, 3), (2, 3)):
        await pl.click(sq(x, y))
    assert await pl.locator("[data-testid='map-live'] .sq.path").count() == 3
    assert "経路 3マス" in await pl.inner_text("[data-testid='map-live'] .map-move")
    await pl.click("[data-testid='map-go']")
    await wait_seq(pl, t["seq"] + 1)
    moved = await pl.evaluate(
        "window.taku.events.filter((e) => e.event.type === 'nstrpg.moved').map((e) => e.event)"
    )
    assert [m["path"] for m in moved] == [[[1, 2], [1, 3], [2, 3]]]
    await pl.wait_for_function(
        f"(window.taku.state.game.board.positions['{me}'] || []).join() === '2,3'"
    )
    circle = pl.locator(f"[data-testid='map-live'] .token[data-character='{me}'] circle")
    assert (await circle.get_attribute("cx"), await circle.get_attribute("cy")) == ("80", "112")
    # the move is made: no square is offered any more, the GM's page shows the token there too
    assert await pl.locator("[data-testid='map-live'] .sq.reach").count() == 0
    await t["gm"].wait_for_selector(f"body[data-seq='{t['seq'] + 1}']")
    assert await position(t["gm"], me) == [2, 3]
    await t["gm"].close()  # axe checks the pages still open at the end: the player's is enough
    # the replay one event back draws the map as it was: the token on its first square
    await pl.click("#replay-toggle")
    await pl.wait_for_selector("#replay[data-seq]")
    await pl.click("#replay-prev")
    await pl.wait_for_selector(f"#replay[data-seq='{t['seq']}']")
    token = pl.locator(f"[data-testid='map-replay'] .token[data-character='{me}'] circle")
    assert (await token.get_attribute("cx"), await token.get_attribute("cy")) == ("48", "48")
    assert await pl.locator("[data-testid='map-replay'] .sq.reach").count() == 0


async def test_an_illegal_square_is_refused_and_the_sight_is_drawn(
    scripted_server: Any, open_page: Any, scripted_dice: ScriptedDice
) -> None:
    """A wall, the enemy's square and a square beyond 【脚力】 are refused with a Japanese
    note; the path stays as it was and no command reaches the server. The line from the
    ninja to the enemy is drawn and listed: behind the wall (3,1)-(3,2) it does not pass;
    after the move to (2,3) it does, and the shot at the enemy (chosen by a click on it) is a
    button under the map (NS-60, the view's sight)."""
    t = await setup(scripted_server, open_page)
    pl, boss = t["pl"], t["ids"]["ラオモト"]
    await t["gm"].close()  # only the player's page is looked at (axe checks it at the end)
    await pl.click(sq(2, 1))
    for x, y in ((3, 1), (6, 3), (4, 2)):  # a wall, 5 squares away, next to the enemy
        await pl.click(sq(x, y))
        note = await pl.inner_text("[data-testid='map-live'] .map-note")
        assert note.startswith(f"{x + 1}列{y + 1}行") and note.endswith("には移動できません"), note
        assert await pl.locator("[data-testid='map-live'] .sq.path").count() == 1
    assert "ラオモト" in await pl.get_attribute(sq(5, 2), "aria-label")
    # a click on the enemy chooses it as the target: its line drawn thick, the path kept
    await pl.click(sq(5, 2))
    assert await pl.inner_text("[data-testid='map-live'] .map-note") == (
        "ラオモトを攻撃の相手に選びました（6列3行 床）"
    )
    assert await pl.locator("[data-testid='map-live'] .sq.path").count() == 1
    assert await pl.evaluate("window.taku.state.seq") == t["seq"]
    await pl.click("[data-testid='map-live'] .map-move button:has-text('選び直す')")
    line = pl.locator(f"[data-testid='map-live'] line.sight[data-target='{boss}']")
    assert "blocked" in (await line.get_attribute("class") or "")
    item = pl.locator(f"[data-testid='map-live'] .map-sight button[data-target='{boss}']")
    assert (
        await item.inner_text()
        == "ニンジャスレイヤー → ラオモト: 視線が通らない（4マス）・攻撃の対象にできない"
    )
    assert "chosen" in (await line.get_attribute("class") or "")  # the chosen one: thick
    assert await pl.locator("[data-testid='map-live'] .map-attack button").count() == 0
    for x, y in ((1, 2), (1, 3), (2, 3)):
        await pl.click(sq(x, y))
    await pl.click("[data-testid='map-go']")
    await wait_seq(pl, t["seq"] + 1)
    await pl.wait_for_function(
        "document.querySelector(\"[data-testid='map-live'] .map-sight button\")"
        ".textContent.includes('視線が通る')"
    )
    assert await item.inner_text() == "ニンジャスレイヤー → ラオモト: 視線が通る（3マス）"
    assert "clear" in (await line.get_attribute("class") or "")
    # the shot at the chosen target is a button under the map; it rolls the attack
    shoot = pl.locator("[data-testid='map-live'] .map-attack button[data-command='nstrpg.attack']")
    assert (await shoot.first.inner_text()).startswith("ラオモトに射撃する")
    scripted_dice.extend([5, 5, 2, 1, 1, 1])
    await shoot.first.click()
    await pl.wait_for_function(
        "window.taku.events.some((e) => e.event.type === 'nstrpg.attack_rolled')"
    )
    rolled = await pl.evaluate(
        "window.taku.events.find((e) => e.event.type === 'nstrpg.attack_rolled').event"
    )
    assert rolled["attacker"] == t["ids"]["ニンジャスレイヤー"] and rolled["kind"] == "shoot"
    assert [r["target"] for r in rolled["rolls"]] == [boss]


async def test_the_turn_order_shows_whose_turn_and_which_phase(
    scripted_server: Any, open_page: Any, scripted_dice: ScriptedDice
) -> None:
    """The tracker lists the fighters by イニシアチブ (ニューロン 5 before 2), marks the one
    whose 手番 it is and names the phase; a token shows its state (崩れ after a failed
    連続側転判定); when the ninja's 手番 ends, the enemy's is marked and the ninja's is 済."""
    t = await setup(scripted_server, open_page)
    for page in (t["pl"], t["gm"]):
        items = page.locator("[data-testid='map-live'] .initiative li")
        assert await items.all_inner_texts() == [
            "ニンジャスレイヤー イニシアチブ 5手番",
            "ラオモト イニシアチブ 2",
        ]
        current = page.locator("[data-testid='map-live'] .initiative li[aria-current='step']")
        assert await current.get_attribute("data-character") == t["ids"]["ニンジャスレイヤー"]
        now = await page.inner_text("[data-testid='turn-now']")
        assert "ニンジャスレイヤーの手番" in now and "移動フェイズ" in now and "ターン1" in now
    # a failed 連続側転判定 (NS-50: no move, 崩れ): a 崩 badge on the token, the state in its label
    pl, me = t["pl"], t["ids"]["ニンジャスレイヤー"]
    scripted_dice.extend([1, 2, 1])  # ワザマエ 3: three dice, no success at NORMAL
    ptoken = await pl.evaluate(f"JSON.parse(localStorage.getItem('taku:{t['table_id']}')).token")
    async with await TakuClient.connect(scripted_server.ws_url) as p:
        await p.join(t["table_id"], ptoken)
        ack = await p.command(
            t["table_id"],
            {"type": "nstrpg.check", "character_id": me, "stat": "wazamae", "purpose": "sokuten"},
        )
    await pl.wait_for_selector(f"body[data-seq='{ack.last_seq}']")
    badge = pl.locator(f"[data-testid='map-live'] .token[data-character='{me}'] .badge text")
    assert await badge.text_content() == "崩"
    assert (
        await pl.get_attribute(sq(1, 1), "aria-label")
        == "2列2行 床 ニンジャスレイヤー（崩れ・連続側転）"
    )
    assert await pl.locator("[data-testid='map-live'] .sq.reach").count() == 0
    # the player ends the 手番: the enemy's 手番開始 is next, the ninja's slot is done
    async with await TakuClient.connect(scripted_server.ws_url) as p:
        ptoken = await t["pl"].evaluate(
            f"JSON.parse(localStorage.getItem('taku:{t['table_id']}')).token"
        )
        await p.join(t["table_id"], ptoken)
        ack = await p.command(
            t["table_id"],
            {"type": "nstrpg.end_turn_of", "character_id": t["ids"]["ニンジャスレイヤー"]},
        )
    gm = t["gm"]
    await gm.wait_for_selector(f"body[data-seq='{ack.last_seq}']")
    items = gm.locator("[data-testid='map-live'] .initiative li")
    assert await items.all_inner_texts() == [
        "ニンジャスレイヤー イニシアチブ 5済",
        "ラオモト イニシアチブ 2手番",
    ]
    now = await gm.inner_text("[data-testid='turn-now']")
    assert "ラオモトの手番" in now and "手番開始" in now


async def test_keyboard_moves_a_token_with_arrows_and_enter(
    scripted_server: Any, open_page: Any, scripted_dice: ScriptedDice
) -> None:
    """Tab reaches the grid (one stop); arrow keys move the focus, Enter chooses the square,
    and the square's label says what it is (Japanese, 列/行, 移動できる)."""
    t = await setup(scripted_server, open_page, width=390)
    pl, me = t["pl"], t["ids"]["ニンジャスレイヤー"]
    await t["gm"].close()  # only the player's page is looked at (axe checks it at the end)
    await pl.focus(sq(0, 0))
    for key in ("ArrowRight", "ArrowDown", "ArrowDown"):
        await pl.keyboard.press(key)
    label = await pl.evaluate("document.activeElement.getAttribute('aria-label')")
    assert label == "2列3行 床（移動できる）"
    await pl.keyboard.press("Enter")
    assert await pl.locator(f"{sq(1, 2)}.path").count() == 1
    await pl.keyboard.press("ArrowDown")
    await pl.keyboard.press("Enter")
    await pl.click("[data-testid='map-go']")
    await wait_seq(pl, t["seq"] + 1)
    await pl.wait_for_function(
        f"(window.taku.state.game.board.positions['{me}'] || []).join() === '1,3'"
    )
    # readable on a phone: squares stay at least 28 px, the map scrolls inside its panel
    box = await pl.locator(sq(1, 1)).bounding_box()
    assert box is not None and box["width"] >= 28
    doc = await pl.evaluate("document.documentElement.scrollWidth")
    assert doc <= 390


async def test_the_gm_paints_a_wall_and_saves_it(
    scripted_server: Any, open_page: Any, scripted_dice: ScriptedDice
) -> None:
    """The GM's editor: choose 壁, click two floor squares, save with a reason: one
    ``map_edited`` event with those squares and the reason; both pages draw the walls,
    and the player has no editor."""
    t = await setup(scripted_server, open_page)
    gm, pl = t["gm"], t["pl"]
    assert await pl.locator("[data-testid='map-editor']").is_hidden()
    # the editor is folded (play first, issue 14); the GM opens it, and it stays open
    assert await gm.get_attribute("[data-testid='map-editor']", "open") is None
    await gm.click("[data-testid='map-editor'] > summary")
    await gm.fill("[data-testid='map-editor'] .map-reason", "シャッターが下りた")
    # by keyboard: the brush's radio keeps the focus when the editor redraws
    await gm.focus("[data-testid='map-editor'] input[name='map-brush-live'][value='.']")
    await gm.keyboard.press("Space")
    await gm.keyboard.press("ArrowLeft")  # the previous radio: 壁 (#)
    assert await gm.evaluate("document.activeElement.value") == "#"
    await gm.click(sq(6, 3))
    await gm.click(sq(6, 1))
    assert await gm.get_attribute(sq(6, 3), "data-cell") == "#"
    note = await gm.inner_text("[data-testid='map-live'] .map-note")
    assert note == "7列2行 床を壁にしました（未保存）"
    assert await gm.input_value("[data-testid='map-editor'] .map-reason") == "シャッターが下りた"
    await gm.click("[data-testid='map-save']")
    await wait_seq(gm, t["seq"] + 1)
    edited = await gm.evaluate(
        "window.taku.events.filter((e) => e.event.type === 'nstrpg.map_edited').map((e) => e.event)"
    )
    assert [(e["cells"], e["reason"]) for e in edited] == [
        (
            [{"x": 6, "y": 1, "cell": "#"}, {"x": 6, "y": 3, "cell": "#"}],
            "シャッターが下りた",
        )
    ]
    await pl.wait_for_selector(f"{sq(6, 3)}[data-cell='#']")
    assert await pl.get_attribute(sq(6, 1), "data-cell") == "#"


async def test_the_gm_pastes_the_text_form(
    scripted_server: Any, open_page: Any, scripted_dice: ScriptedDice
) -> None:
    """A GM with no map yet pastes the text form: the grid appears with its doors and window."""
    gm = await create_table(open_page, scripted_server.http_url, "nstrpg", "ネオサイタマ")
    await gm.click("[data-testid='map-editor'] > summary")  # folded at first (issue 14)
    await gm.wait_for_selector("[data-testid='map-editor'][open]")
    await gm.fill("[data-testid='map-editor'] .map-text", "#####\n#..D.\n#W..#\n#####")
    await gm.fill("[data-testid='map-editor'] .map-name", "路地")
    await gm.click("[data-testid='map-from-text']")
    await gm.wait_for_selector(sq(3, 1))
    assert await gm.get_attribute(sq(3, 1), "aria-label") == "4列2行 閉じたドア"
    assert await gm.get_attribute(sq(1, 2), "aria-label") == "2列3行 窓"
    label = await gm.get_attribute("[data-testid='map-live'] svg", "aria-label")
    assert label == "マップ 路地（5×4マス）"


async def test_placement_of_a_sudden_combat_by_clicks(
    scripted_server: Any, open_page: Any, scripted_dice: ScriptedDice
) -> None:
    """Turn 0 of a combat on a map with nobody placed (NS-33): the enemy (イニシアチブ 2)
    places first, then the player's ninja: its free squares are offered, a wall is refused,
    a click and 「このマスに決める」 send ``place`` with that square."""
    gm = await create_table(open_page, scripted_server.http_url, "nstrpg", "ネオサイタマ")
    pl = await open_page(await gm.input_value("#invite-player"))
    await pl.fill("#join-name", "フジキド")
    await pl.click("#join-submit")
    await pl.wait_for_selector("body[data-seq]")
    table_id = await gm.evaluate("window.taku.tableId")
    token = await gm.evaluate(f"JSON.parse(localStorage.getItem('taku:{table_id}')).token")
    ptoken = await pl.evaluate(f"JSON.parse(localStorage.getItem('taku:{table_id}')).token")
    async with (
        await TakuClient.connect(scripted_server.ws_url) as g,
        await TakuClient.connect(scripted_server.ws_url) as p,
    ):
        await g.join(table_id, token)
        await p.join(table_id, ptoken)
        await p.command(
            table_id, {"type": "create_character", "name": "ニンジャスレイヤー", "sheet": PC}
        )
        await g.command(table_id, {"type": "create_character", "name": "ラオモト", "sheet": ENEMY})
        ids = {
            c["name"]: c["id"] for c in (await g.get_state(table_id)).state["characters"].values()
        }
        await g.command(table_id, {"type": "nstrpg.set_map", "text": ROOM})
        await g.command(table_id, {"type": "nstrpg.start_combat"})
        ack = await g.command(
            table_id, {"type": "nstrpg.place", "character_id": ids["ラオモト"], "at": [5, 2]}
        )
    await pl.wait_for_selector(f"body[data-seq='{ack.last_seq}']")
    await gm.close()  # only the player's page is looked at (axe checks it at the end)
    now = await pl.inner_text("[data-testid='turn-now']")
    assert "ニンジャスレイヤーの手番" in now and "配置" in now
    assert await pl.locator(f"{sq(1, 1)}.reach").count() == 1
    assert await pl.locator(f"{sq(5, 2)}.reach").count() == 0  # the enemy's square
    # offered on the map, not as one button a square in 今できる手
    offered = await pl.evaluate("window.taku.affordances.map((a) => a.command)")
    assert "nstrpg.place" in offered
    assert await pl.locator(".legal-moves button[data-command='nstrpg.place']").count() == 0
    await pl.click(sq(3, 1))
    assert (await pl.inner_text("[data-testid='map-live'] .map-note")).endswith("は選べません")
    await pl.click(sq(2, 3))
    await pl.click("[data-testid='map-go']")
    await wait_seq(pl, ack.last_seq + 1)
    await pl.wait_for_function(
        f"(window.taku.state.game.board.positions['{ids['ニンジャスレイヤー']}'] || []).join() === '2,3'"
    )


async def test_on_a_phone_the_map_comes_first_and_reads_like_the_log(
    scripted_server: Any, open_page: Any, scripted_dice: ScriptedDice
) -> None:
    """The reviewer's client findings, on a 390×844 phone with a combat on: the page is
    brought to the map (below the chat) once; the grid's tab stop is the acting character's square (not the wall at
    1列1行); the log names squares 1-based as the map does; the cards show the state
    schema's Japanese titles, no raw ``board.*`` key; an ally is no quick target."""
    t = await setup(scripted_server, open_page, width=390)
    pl, me = t["pl"], t["ids"]["ニンジャスレイヤー"]
    token = await t["gm"].evaluate(
        f"JSON.parse(localStorage.getItem('taku:{t['table_id']}')).token"
    )
    await t["gm"].close()  # only the player's page is looked at (axe checks it at the end)
    async with await TakuClient.connect(scripted_server.ws_url) as g:
        await g.join(t["table_id"], token)
        await g.command(
            t["table_id"],
            {"type": "create_character", "name": "ヤモト", "sheet": {**PC, "kind": "pc"}},
        )
        chars = (await g.get_state(t["table_id"])).state["characters"]
        ally = next(c["id"] for c in chars.values() if c["name"] == "ヤモト")
        ack = await g.command(
            t["table_id"], {"type": "nstrpg.place", "character_id": ally, "at": [2, 3]}
        )
    await pl.wait_for_selector(f"body[data-seq='{ack.last_seq}']")
    # the combat on: the page was brought to the map (at the top of the screen, the log above)
    await pl.wait_for_function(
        "Math.abs(document.querySelector(\"[data-testid='map-live']\").getBoundingClientRect().top) < 2"
    )
    assert await pl.evaluate("window.scrollY") > 300
    stop = pl.locator("[data-testid='map-live'] .sq[tabindex='0']")
    assert (await stop.get_attribute("data-x"), await stop.get_attribute("data-y")) == ("1", "1")
    assert (await stop.get_attribute("aria-label")).startswith("2列2行 床 ニンジャスレイヤー")
    log = await pl.inner_text("#log")
    assert "ニンジャスレイヤーを2列2行に配置した" in log and "(1, 1)" not in log
    card = await pl.inner_text(f".card[data-character='{me}']")
    assert "マップ › 手番の数" in card and "board." not in card
    # the ally on (2,3), in the open: no sight line, no attack button, not chosen by a click
    assert await pl.locator(f".map-sight button[data-target='{ally}']").count() == 0
    assert await pl.locator(f"line.sight[data-target='{ally}']").count() == 0
    await pl.click(sq(2, 3))
    assert "攻撃の相手" not in await pl.inner_text("[data-testid='map-live'] .map-note")
    assert await pl.locator("[data-testid='map-live'] .map-attack button").count() == 0


async def test_outside_a_turn_an_ally_is_no_quick_target(
    scripted_server: Any, open_page: Any, scripted_dice: ScriptedDice
) -> None:
    """Exploration on a map (no combat): the attacks offered draw their targets' lines and
    a click on an enemy gives a one-click attack under the map; the player's ally gets no
    line and no button (it stays in 今できる手 as 「味方に射撃する」)."""
    gm = await create_table(open_page, scripted_server.http_url, "nstrpg", "ネオサイタマ")
    pl = await open_page(await gm.input_value("#invite-player"))
    await pl.fill("#join-name", "フジキド")
    await pl.click("#join-submit")
    await pl.wait_for_selector("body[data-seq]")
    table_id = await gm.evaluate("window.taku.tableId")
    token = await gm.evaluate(f"JSON.parse(localStorage.getItem('taku:{table_id}')).token")
    ptoken = await pl.evaluate(f"JSON.parse(localStorage.getItem('taku:{table_id}')).token")
    async with (
        await TakuClient.connect(scripted_server.ws_url) as g,
        await TakuClient.connect(scripted_server.ws_url) as p,
    ):
        await g.join(table_id, token)
        await p.join(table_id, ptoken)
        for name in ("ニンジャスレイヤー", "ヤモト"):
            await p.command(table_id, {"type": "create_character", "name": name, "sheet": PC})
        await g.command(table_id, {"type": "create_character", "name": "ラオモト", "sheet": ENEMY})
        ids = {
            c["name"]: c["id"] for c in (await g.get_state(table_id)).state["characters"].values()
        }
        await g.command(table_id, {"type": "nstrpg.set_map", "text": ROOM})
        for name, at in (("ニンジャスレイヤー", [1, 1]), ("ヤモト", [1, 3]), ("ラオモト", [6, 3])):
            ack = await g.command(
                table_id, {"type": "nstrpg.place", "character_id": ids[name], "at": at}
            )
    await pl.wait_for_selector(f"body[data-seq='{ack.last_seq}']")
    await gm.close()  # only the player's page is looked at (axe checks it at the end)
    me, ally, boss = ids["ニンジャスレイヤー"], ids["ヤモト"], ids["ラオモト"]
    lines = pl.locator("[data-testid='map-live'] line.sight")
    targets = {await x.get_attribute("data-target") for x in await lines.all()}
    assert boss in targets and ally not in targets and me not in targets
    await pl.click(sq(1, 3))  # the ally: not chosen as a target
    assert await pl.locator("[data-testid='map-live'] .map-attack button").count() == 0
    await pl.click(sq(6, 3))  # the enemy: chosen, its attacks are buttons
    buttons = await pl.locator("[data-testid='map-live'] .map-attack button").all_inner_texts()
    assert buttons and all(b.startswith("ラオモトに") for b in buttons)
    moves = await pl.locator(".legal-moves button[data-command='nstrpg.attack']").all_inner_texts()
    assert "ニンジャスレイヤー: 味方に射撃する（ヤモト・スリケン）" in moves


async def test_attacking_an_ally_asks_first(
    scripted_server: Any, open_page: Any, scripted_dice: ScriptedDice
) -> None:
    """The 「味方に射撃する」 button of 今できる手 carries the affordance's ``confirm``: the page
    asks 「ニンジャスレイヤーで味方を射撃しますか？」; on いいえ nothing is sent, on はい the shot is
    rolled (the server's ``attack_rolled`` at ヤモト with the scripted faces)."""
    gm = await create_table(open_page, scripted_server.http_url, "nstrpg", "ネオサイタマ")
    pl = await open_page(await gm.input_value("#invite-player"))
    await pl.fill("#join-name", "フジキド")
    await pl.click("#join-submit")
    await pl.wait_for_selector("body[data-seq]")
    table_id = await gm.evaluate("window.taku.tableId")
    ptoken = await pl.evaluate(f"JSON.parse(localStorage.getItem('taku:{table_id}')).token")
    async with await TakuClient.connect(scripted_server.ws_url) as p:
        await p.join(table_id, ptoken)
        for name in ("ニンジャスレイヤー", "ヤモト"):
            ack = await p.command(table_id, {"type": "create_character", "name": name, "sheet": PC})
    await pl.wait_for_selector(f"body[data-seq='{ack.last_seq}']")
    await gm.close()
    ally = (await pl.evaluate("Object.values(window.taku.state.characters)"))[1]["id"]
    button = pl.locator(
        ".legal-moves button[data-command='nstrpg.attack']",
        has_text="ニンジャスレイヤー: 味方に射撃する（ヤモト・スリケン）",
    )
    asked: list[str] = []

    async def answer(d: Any, yes: bool) -> None:
        asked.append(d.message)
        await (d.accept() if yes else d.dismiss())

    pl.once("dialog", lambda d: answer(d, False))
    await button.click()
    assert asked == ["ニンジャスレイヤーで味方を射撃しますか？"]
    assert await pl.get_attribute("body", "data-seq") == str(ack.last_seq)  # nothing sent
    scripted_dice.extend([6, 1, 1])  # 【ワザマエ】3 at NORMAL: one success
    pl.once("dialog", lambda d: answer(d, True))
    await button.click()
    await pl.wait_for_function(
        "window.taku.events.some((e) => e.event.type === 'nstrpg.attack_rolled')"
    )
    rolled = await pl.evaluate(
        "window.taku.events.filter((e) => e.event.type === 'nstrpg.attack_rolled')"
        ".map((e) => e.event)"
    )
    assert len(asked) == 2 and len(rolled) == 1
    (r,) = rolled[0]["rolls"]
    assert r["target"] == ally and r["roll"]["faces"] == [6, 1, 1]


async def test_attacking_an_ally_from_a_form_asks_first_too(
    scripted_server: Any, open_page: Any, scripted_dice: ScriptedDice
) -> None:
    """With more combinations than buttons (2 allies × スリケン and 3 guns) 「味方に射撃する」 is
    a short form; its submit asks the same question, and いいえ sends nothing."""
    gm = await create_table(open_page, scripted_server.http_url, "nstrpg", "ネオサイタマ")
    pl = await open_page(await gm.input_value("#invite-player"))
    await pl.fill("#join-name", "フジキド")
    await pl.click("#join-submit")
    await pl.wait_for_selector("body[data-seq]")
    table_id = await gm.evaluate("window.taku.tableId")
    ptoken = await pl.evaluate(f"JSON.parse(localStorage.getItem('taku:{table_id}')).token")
    guns = {**PC, "weapons": ["chakagun", "machinegun", "shotgun"]}
    async with await TakuClient.connect(scripted_server.ws_url) as p:
        await p.join(table_id, ptoken)
        for name, sheet in (("ニンジャスレイヤー", guns), ("ヤモト", PC), ("ナンシー", PC)):
            ack = await p.command(
                table_id, {"type": "create_character", "name": name, "sheet": sheet}
            )
    await pl.wait_for_selector(f"body[data-seq='{ack.last_seq}']")
    await gm.close()
    form = pl.locator("form.move-form", has_text="ニンジャスレイヤー: 味方に射撃する")
    asked: list[str] = []

    async def answer(d: Any, yes: bool) -> None:
        asked.append(d.message)
        await (d.accept() if yes else d.dismiss())

    pl.once("dialog", lambda d: answer(d, False))
    await form.locator("button[type='submit']").click()
    assert asked == ["ニンジャスレイヤーで味方を射撃しますか？"]
    assert await pl.get_attribute("body", "data-seq") == str(ack.last_seq)  # nothing sent
    scripted_dice.extend([1] * 12)
    pl.once("dialog", lambda d: answer(d, True))
    await form.locator("button[type='submit']").click()
    await pl.wait_for_function(
        "window.taku.events.some((e) => e.event.type === 'nstrpg.attack_rolled')"
    )
    assert len(asked) == 2


async def test_the_map_note_of_a_turn_goes_when_the_next_turn_begins(
    scripted_server: Any, open_page: Any, scripted_dice: ScriptedDice
) -> None:
    """The note under the map says what was just done (「…へ移動しました」) for the rest of
    that 手番; when the 手番 passes to the enemy it is gone, not shown in someone else's."""
    t = await setup(scripted_server, open_page)
    pl, me = t["pl"], t["ids"]["ニンジャスレイヤー"]
    await t["gm"].close()  # only the player's page is looked at (axe checks it at the end)
    note = pl.locator("[data-testid='map-live'] .map-note")
    await pl.click(sq(1, 2))
    await pl.click("[data-testid='map-go']")
    await wait_seq(pl, t["seq"] + 1)
    await pl.wait_for_function(
        "document.querySelector(\"[data-testid='map-live'] .map-note\").textContent"
        ".endsWith('へ移動しました')"
    )
    assert await note.inner_text() == "ニンジャスレイヤーは2列3行 床へ移動しました"
    ptoken = await pl.evaluate(f"JSON.parse(localStorage.getItem('taku:{t['table_id']}')).token")
    async with await TakuClient.connect(scripted_server.ws_url) as p:
        await p.join(t["table_id"], ptoken)
        ack = await p.command(t["table_id"], {"type": "nstrpg.end_turn_of", "character_id": me})
    await pl.wait_for_selector(f"body[data-seq='{ack.last_seq}']")
    assert "ラオモトの手番" in await pl.inner_text("[data-testid='turn-now']")
    assert await note.text_content() == ""


async def test_a_spectator_gets_no_instructions_for_acting(
    scripted_server: Any, open_page: Any, scripted_dice: ScriptedDice
) -> None:
    """The grid's description tells a player how to choose squares and move; a spectator,
    who can do neither, is told only how to look around the map (and gets no move bar)."""
    from .test_web import join_as

    t = await setup(scripted_server, open_page)
    sp = await join_as(open_page, await t["gm"].input_value("#invite-spectator"), "観客")
    await t["gm"].close()
    await sp.wait_for_selector("[data-testid='map-live'] .sq")
    acting = await t["pl"].text_content("#map-help-live") or ""
    assert "Enter で選びます" in acting and "「この経路で移動する」" in acting
    watching = await sp.text_content("#map-help-live") or ""
    assert watching == "矢印キーでマスを移ると、そのマスの様子を読み上げます。"
    grid = sp.locator("[data-testid='map-live'] svg.map-svg")
    assert await grid.get_attribute("aria-describedby") == "map-help-live"
    assert await sp.locator("[data-testid='map-live'] .map-move").is_hidden()
