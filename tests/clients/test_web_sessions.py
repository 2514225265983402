"""Scripted sessions played entirely through clicks and generated forms (issue 14): a GM,
two players and a spectator per table, scripted dice, one server per test."""

from __future__ import annotations

import json
from typing import Any

from .test_web import create_table, make_character, wait_seq
from .test_web_forms import CCFOLIA_PIECE


async def moves(page: Any) -> list[str]:
    return await page.locator(".legal-moves button").all_inner_texts()


async def click_move(page: Any, text: str) -> None:
    """Click the move button (or a move form's button) whose text contains ``text``."""
    button = page.locator(f".legal-moves button:has-text('{text}')").first
    from playwright.async_api import TimeoutError as PlaywrightTimeout

    try:
        await button.wait_for(timeout=5000)
    except PlaywrightTimeout:
        raise AssertionError(f"no move {text!r} among {await moves(page)}") from None
    await button.click()


async def done_with(*pages: Any) -> None:
    """Close pages the test no longer needs (the fixture checks only open pages with axe:
    one page per session is enough for that, and each costs seconds)."""
    for page in pages:
        await page.close()


async def seq_of(page: Any) -> int:
    return int(await page.evaluate("document.body.dataset.seq"))


async def table_of_four(
    open_page: Any, url: str, ruleset: str, **size: int
) -> tuple[Any, Any, Any, Any]:
    """A GM, two players and a spectator at a new table (``size``: width, height)."""
    gm = await create_table(open_page, url, ruleset=ruleset, name=f"{ruleset}の卓", **size)
    player = await gm.input_value("#invite-player")
    spectator = await gm.input_value("#invite-spectator")
    people = []
    for link, name in ((player, "ひとり"), (player, "ふたり"), (spectator, "みるひと")):
        page = await open_page(link, **size)
        await page.fill("#join-name", name)
        await page.click("#join-submit")
        await page.wait_for_selector("body[data-seq]")
        people.append(page)
    p1, p2, sp = people
    return gm, p1, p2, sp


async def from_template(page: Any, template: str, name: str) -> None:
    await page.click("#actions details[data-command='create_character'] > summary")
    form = page.locator("#create-character")
    await form.get_by_label("ひな形").select_option(label=template)
    await form.locator("#cc-name").fill(name)
    await form.locator("button[type=submit]").click()
    await page.locator(f"#state-panels .card:has-text('{name}')").wait_for()


async def imported(page: Any, piece: dict[str, Any]) -> None:
    await page.click("#actions details[data-command='create_character'] > summary")
    form = page.locator("#create-character")
    await form.locator(".ccfolia-import > summary").click()
    await form.locator("#cc-ccfolia").fill(json.dumps(piece, ensure_ascii=False))
    await form.locator("#cc-ccfolia-load").click()
    await form.locator("button[type=submit]").click()
    await page.locator(f"#state-panels .card:has-text('{piece['data']['name']}')").wait_for()


async def test_nstrpg_attack_the_defender_evades_with_chosen_dice(
    scripted_server: Any, open_page: Any, scripted_dice: Any
) -> None:
    """nstrpg: a ninja from the template, one imported from ココフォリア, a mob from the GM's
    move; combat and turns by buttons; the mob's attack from a move form; the defender's
    player picks how many 回避ダイス; the spectator sees it all with nothing to press.
    Everyone is on a phone (390×844); the ninja's first roll is a line of the チャットパレット
    the ruleset seeded from the sheet (N{カラテ} as N and the sheet's 【カラテ】)."""
    scripted_dice.extend([4] * 80)
    gm, p1, p2, sp = await table_of_four(
        open_page, scripted_server.http_url, "nstrpg", width=390, height=844
    )
    await from_template(p1, "駆け出しのニンジャ（PC）", "ニンジャスレイヤー")
    await imported(p2, CCFOLIA_PIECE)
    # the seeded palette: a click on its first line rolls N<カラテ> as the ninja
    await p1.select_option("#chat-as", label="ニンジャスレイヤー")
    line = p1.locator("#palette button.palette-line").first
    assert (await line.inner_text()).startswith("N{カラテ} 近接攻撃判定")
    assert await p1.locator("#palette .palette-seeded").is_visible()
    karate = next(
        c["sheet"]["karate"]
        for c in (await p1.evaluate("window.taku.state"))["characters"].values()
        if c["name"] == "ニンジャスレイヤー"
    )
    at = await seq_of(p1)
    await line.click()
    await wait_seq(sp, at + 1)
    rolled = await sp.inner_text(f"#log li[data-seq='{at + 1}']")
    assert "ニンジャスレイヤー" in rolled and f"({karate}B6>=4)" in rolled, rolled
    assert await sp.locator(f"#log li[data-seq='{at + 1}'] .die").count() == karate
    await click_move(gm, "モブ敵を作る（クローンヤクザ）（1人）")
    await gm.locator("#state-panels .card:has-text('クローンヤクザ')").wait_for()
    await click_move(gm, "戦闘を始める")
    await click_move(gm, "ターン1を始める")
    # the turn order by イニシアチブ: each player begins and ends their 手番 by buttons
    for page, name in ((p2, "ナンシー・リー"), (p1, "ニンジャスレイヤー")):
        await click_move(page, f"{name}: 手番を始める（通常）")
        await click_move(page, f"{name}: 手番を終える")
    await click_move(gm, "手番を始める（通常）")
    # the mob's attack: a form whose target and weapon are selects of the affordance's choices
    attack = gm.locator(".legal-moves form[data-command='nstrpg.attack']").first
    if await attack.count():
        await attack.get_by_label("ターゲット", exact=False).first.select_option(
            label="ニンジャスレイヤー"
        )
        before = await seq_of(gm)
        await attack.locator("button[type=submit]").click()
    else:
        before = await seq_of(gm)
        await click_move(gm, "近接攻撃する（ニンジャスレイヤー")
    await wait_seq(p1, before + 1)
    # the defender's player chooses the dice (the affordance's choices: 回避ダイス n個)
    evade = p1.locator(".legal-moves button:has-text('回避ダイス2個')").first
    await evade.wait_for()
    assert await sp.locator(".legal-moves button, .evade button").count() == 0
    at = await seq_of(p1)
    state = await p1.evaluate("window.taku.state")
    ns = next(c["id"] for c in state["characters"].values() if c["name"] == "ニンジャスレイヤー")
    left = state["game"]["fighters"][ns]["evasion_dice"]
    await evade.click()
    await wait_seq(sp, at + 1)
    log = await sp.inner_text("#log")
    assert "回避" in log
    await p1.wait_for_function(f"document.body.dataset.seq > {at}")
    state = await p1.evaluate("window.taku.state")
    assert state["game"]["fighters"][ns]["evasion_dice"] == left - 2
    assert not any(h["target"] == ns for h in state["game"]["pending"].values())
    for page in (gm, p1, p2, sp):
        assert await page.evaluate("document.documentElement.scrollWidth") <= 390
    await done_with(gm, p2, sp)


HIDEN_PIECE = {
    "kind": "character",
    "data": {
        "name": "お鶴",
        "status": [{"label": "座布団", "value": 2, "max": 2}],
        "params": [
            {"label": "器用", "value": "4"},
            {"label": "知覚", "value": "3"},
            {"label": "気合い", "value": "2"},
        ],
        "commands": "",
    },
}


async def test_hiden_a_failed_check_rerolled_with_a_zabuton(
    scripted_server: Any, open_page: Any, scripted_dice: Any
) -> None:
    """hiden: a character from the template, one imported from ココフォリア (its 座布団 and
    〈能力値〉); the GM gives a 座布団 by a button; a check from its move form fails and
    the player rerolls it with a 座布団 (五ノ二), seen by everyone. Everyone is on a phone
    (390×844): nothing scrolls sideways."""
    gm, p1, p2, sp = await table_of_four(
        open_page, scripted_server.http_url, "hiden", width=390, height=844
    )
    await from_template(p1, "個人設定用紙のひな形", "旅の者")
    await imported(p2, HIDEN_PIECE)
    state = await p2.evaluate("window.taku.state")
    tsuru = next(c for c in state["characters"].values() if c["name"] == "お鶴")
    assert tsuru["sheet"]["zabuton"] == 2 and tsuru["sheet"]["abilities"]["器用"] == 4
    await click_move(gm, "座布団一枚!（座布団を与える）（旅の者）")
    await p1.wait_for_selector(".ruleset-panel [aria-label='座布団 2枚']")

    scripted_dice.extend([1, 2, 1, 2])
    check = p1.locator(".legal-moves form:has-text('《探索》1で判定する')").first
    await check.wait_for()
    before = await seq_of(p1)
    await check.locator("button[type=submit]").click()
    await wait_seq(p1, before + 1)
    scripted_dice.extend([5, 6, 5, 6])
    await click_move(p1, "座布団で振り直す: 旅の者")
    await wait_seq(sp, before + 2)
    assert "座布団" in await sp.inner_text(f"#log li[data-seq='{before + 2}']")
    await p1.wait_for_selector(".ruleset-panel [aria-label='座布団 1枚']")
    assert await sp.locator(".legal-moves").count() == 0
    for page in (gm, p1, p2, sp):
        assert await page.evaluate("document.documentElement.scrollWidth") <= 390
    await done_with(gm, p2, sp)


CHABU_PIECE = {
    "kind": "character",
    "data": {
        "name": "ガンドー",
        "status": [{"label": "ＨＰ", "value": 12, "max": 12}],
        "params": [{"label": "肉体", "value": "50"}, {"label": "反応", "value": "20"}],
        "commands": "",
    },
}


async def test_chabu_opposed_check_from_its_form(
    scripted_server: Any, open_page: Any, scripted_dice: Any
) -> None:
    """chabu, everyone on a phone (390×844): a PC from the template, one imported from
    ココフォリア (ＨＰ and 能力値); the player's 対抗判定 picks both sides in the move form's
    selects; everyone sees the result; no page scrolls sideways."""
    gm, p1, p2, sp = await table_of_four(
        open_page, scripted_server.http_url, "chabu", width=390, height=844
    )
    await from_template(p1, "PCのひな形", "ニンジャ")
    await imported(p2, CHABU_PIECE)
    state = await p2.evaluate("window.taku.state")
    gandoh = next(c for c in state["characters"].values() if c["name"] == "ガンドー")
    assert gandoh["sheet"]["hp"] == 12 and gandoh["sheet"]["abilities"] == {"肉体": 50, "反応": 20}

    scripted_dice.extend([2, 5, 7, 10] * 3)  # d100 as two d10 (10 reads 0): 25 against 70
    form = p1.locator(".legal-moves form[data-command='chabu.opposed_check']")
    await form.wait_for()
    selects = form.locator("select")
    await selects.nth(0).select_option(label="ニンジャ: 肉体（40）")
    await selects.nth(1).select_option(label="ガンドー: 肉体（50）")
    before = await seq_of(p1)
    await form.locator("button[type=submit]").click()
    await wait_seq(sp, before + 1)
    line = await sp.inner_text(f"#log li[data-seq='{before + 1}']")
    assert "ニンジャ" in line and "ガンドー" in line
    assert await sp.locator(".legal-moves").count() == 0
    for page in (gm, p1, p2, sp):
        assert await page.evaluate("document.documentElement.scrollWidth") <= 390
    await done_with(gm, p2, sp)


async def test_shadowjan_a_hand_played_to_its_end_by_buttons(
    scripted_server: Any, open_page: Any, scripted_dice: Any
) -> None:
    """shadowjan: two players made with the sheet form (one imported from ココフォリア) sit and start
    by buttons; then whoever's move it is presses its expected next step (the primary move,
    else the first) until the hand ends (和了 scored or 流局); the spectator watches.
    Everyone is on a phone (390×844): nothing scrolls sideways."""
    import random

    rng = random.Random(14)  # faces 1〜6 in a fixed order (they fit every die the game rolls)
    scripted_dice.extend([rng.randint(1, 6) for _ in range(3000)])
    gm, p1, p2, sp = await table_of_four(
        open_page, scripted_server.http_url, "shadowjan", width=390, height=844
    )
    # (the starting ninja's カタナ is beyond the basic rules' equipment: a sheet by hand)
    await make_character(p1, "アキラ", fields={"【カラテ】": 4, "【ワザマエ】": 3, "【体力】": 6})
    await p1.locator("#state-panels .card:has-text('アキラ')").wait_for()
    await imported(p2, {**CCFOLIA_PIECE, "data": {**CCFOLIA_PIECE["data"], "name": "ベニ"}})
    for page, name in ((p1, "アキラ"), (p2, "ベニ")):
        await click_move(page, f"{name}で着席")
        await page.wait_for_selector(f".ruleset-panel tr:has-text('{name}')")
    await click_move(p2, "対局開始")
    ended = "#log li[data-type='shadowjan.scored'], #log li[data-type='shadowjan.ryukyoku']"
    for _ in range(300):
        if await sp.locator(ended).count():
            break
        # every page at the latest seq (the moves shown are then the current ones)
        seq = max([await seq_of(p) for p in (sp, p1, p2)])
        for page in (sp, p1, p2):
            await page.wait_for_function(f"document.body.dataset.seq >= {seq}")
        movers = [p for p in (p1, p2) if await p.locator(".legal-moves .move").count()]
        mover = movers[0] if movers else None
        if mover is None:
            await sp.wait_for_function(f"document.body.dataset.seq > {seq}", timeout=3000)
            continue
        primary = mover.locator(".legal-moves button.move.primary")
        button = (
            primary.first if await primary.count() else mover.locator(".legal-moves .move").first
        )
        await button.click()
        await sp.wait_for_function(f"document.body.dataset.seq > {seq}")
    assert await sp.locator(ended).count() == 1, await sp.inner_text("#log")
    assert await sp.locator(".legal-moves").count() == 0
    assert await sp.locator(".ruleset-panel .score").count() == 2
    for page in (gm, p1, p2, sp):
        assert await page.evaluate("document.documentElement.scrollWidth") <= 390
    await done_with(gm, p1, p2)


YODOMI_PIECE = {
    "kind": "character",
    "data": {
        "name": "ミナセ",
        "status": [{"label": "PP", "value": 35, "max": 35}],
        "params": [{"label": "体", "value": "4"}, {"label": "知", "value": "5"}],
        "commands": "",
    },
}


async def test_yodomi_card_played_from_the_hand_by_clicks(
    scripted_server: Any, open_page: Any, scripted_dice: Any
) -> None:
    """yodomi: a PC made from the template, another imported from ココフォリア; the GM deals
    流れ with the generated form, the player rolls a check with its move; the hand shows the
    cards as suit and rank, the playable ones as buttons; one click and 出す play it on that
    check; a second check is passed (パス: no 流れ, the result stands for everyone). The other
    player and the spectator never see the hand. Everyone is on a phone (390×844): the hand,
    the forms and the chat fit without scrolling sideways."""
    gm, pl, p2, sp = await table_of_four(
        open_page, scripted_server.http_url, "yodomi", width=390, height=844
    )
    await from_template(pl, "PCのひな形", "アキラ")
    await imported(p2, YODOMI_PIECE)
    await pl.click(".legal-moves button:has-text('スートを選ぶ（♥')")
    await pl.wait_for_selector(".legal-moves button:has-text('行為判定')")

    await gm.click("#actions details.cmd-all > summary")
    await gm.click("#actions details[data-command='yodomi.deal_cards'] > summary")
    deal = gm.locator("form[data-command='yodomi.deal_cards']")
    await deal.get_by_label("キャラクター", exact=False).first.select_option(label="アキラ")
    await deal.get_by_label("枚数", exact=False).fill("3")
    await deal.locator("button[type=submit]").click()
    await pl.wait_for_selector("[data-testid=my-hand] .playing-card")
    hand = pl.locator("[data-testid=my-hand]")
    assert await hand.locator(".playing-card .suit, .playing-card .rank").count() >= 3

    scripted_dice.extend([1, 4])
    seq = int(await pl.evaluate("document.body.dataset.seq"))
    await pl.locator(".legal-moves button:has-text('行為判定')").first.click()
    await wait_seq(pl, seq + 1)
    legal = hand.locator("button.playing-card.legal")
    await legal.first.wait_for()
    card = await legal.first.get_attribute("data-card")
    before = len(
        (await pl.evaluate("window.taku.state.game.hands"))[
            next(iter(await pl.evaluate("Object.keys(window.taku.state.characters)")))
        ]["cards"]
    )
    await legal.first.click()
    assert await legal.first.get_attribute("aria-pressed") == "true"
    await hand.locator("button[data-action=play-cards]").click()
    await pl.wait_for_function(
        f"document.body.dataset.seq > {seq + 1} && !document.querySelector('[data-card=\"{card}\"]')"
    )
    log = await pl.inner_text("#log")
    assert card in log and "流れ" in log
    cid = next(iter(await pl.evaluate("Object.keys(window.taku.state.characters)")))
    assert len((await pl.evaluate("window.taku.state.game.hands"))[cid]["cards"]) == before - 1
    for other in (p2, sp):
        await wait_seq(other, await seq_of(pl))
        assert await other.locator("[data-testid=my-hand] .playing-card").count() == 0
        assert "cards" not in (await other.evaluate("window.taku.state.game.hands"))[cid]
    state = await p2.evaluate("window.taku.state")
    minase = next(c for c in state["characters"].values() if c["name"] == "ミナセ")
    assert minase["sheet"]["pp"] == 35 and minase["sheet"]["abilities"] == {"体": 4, "知": 5}
    # パス: a second check, no 流れ on it; the hand stays, the check is settled for everyone
    scripted_dice.extend([2, 3])
    seq = await seq_of(pl)
    await pl.locator(".legal-moves button:has-text('行為判定')").first.click()
    await wait_seq(pl, seq + 1)
    kid = (await sp.evaluate("window.taku.events.at(-1).event"))["check"]["check_id"]
    await pl.wait_for_function(  # the hand offers this new check (the state after the event)
        "(kid) => window.taku.affordances.some("
        "a => a.command === 'yodomi.pass_cards' && a.args.check_id === kid)",
        arg=kid,
    )
    await hand.locator(f".hand-play[data-check='{kid}'] button[data-action=pass]").click()
    await wait_seq(sp, seq + 2)
    assert "パスしました" in await sp.inner_text(f"#log li[data-seq='{seq + 2}']")
    await pl.wait_for_selector("[data-testid=my-hand] .hand-play", state="detached")
    assert len((await pl.evaluate("window.taku.state.game.hands"))[cid]["cards"]) == before - 1
    assert not [
        a
        for a in await pl.evaluate("window.taku.affordances || []")
        if a["command"] in ("yodomi.play_cards", "yodomi.pass_cards")
    ]
    for page in (gm, pl, p2, sp):
        assert await page.evaluate("document.documentElement.scrollWidth") <= 390
    await done_with(gm, p2, sp)
