"""The browser client (issue 6, parts 3 and 4) in Debian's Chromium, through Playwright.

Each person is a browser context of their own (own storage), on a real server
with scripted dice. Screenshots of failing tests go to test-artifacts/.
"""

from __future__ import annotations

from typing import Any

import pytest

from taku.core.dice import ScriptedDice
from taku_client import TakuClient, event_data


def _without_times(html: str) -> str:
    """The page without its timestamps and hashes (a time's microseconds and a chain
    head's hex digits may hold any digits)."""
    import re

    html = re.sub(r"<time [^>]*>[^<]*</time>", "", html)
    return re.sub(r"[0-9a-f]{16,}", "", html)


async def create_table(
    open_page: Any, url: str, ruleset: str = "generic", name: str = "テスト卓", **page: Any
) -> Any:
    """The GM's page after creating a table through the home form (``page``: open_page's options)."""
    gm = await open_page(url, **page)
    await gm.select_option("#ruleset", ruleset)
    await gm.fill("#table-name", name)
    await gm.fill("#gm-name", "ゲームマスター")
    await gm.click("#create-submit")
    await gm.wait_for_selector("body[data-seq]")
    await close_invites(gm)
    return gm


async def close_invites(gm: Any) -> None:
    """Close the invite dialog a new table opens with (its links stay in the GM tools)."""
    await gm.wait_for_selector("#invite-dialog[open]")
    await gm.click("#invite-close")


async def make_character(
    page: Any, name: str, fields: dict[str, Any] | None = None, free: dict[str, Any] | None = None
) -> None:
    """Make a character with the sheet form: ``fields`` by their Japanese labels, ``free`` as
    rows of a free sheet (a ruleset that checks no sheet)."""
    await page.click("#actions details[data-command='create_character'] > summary")
    form = page.locator("#create-character")
    await form.locator("#cc-name").fill(name)
    for label, value in (fields or {}).items():
        await form.get_by_label(label, exact=True).fill(str(value))
    for key, value in (free or {}).items():
        await form.locator("button.add").last.click()
        row = form.locator(".map-row").last
        await row.get_by_label("名前", exact=True).fill(key)
        await row.get_by_label("値").fill(str(value))
    await form.locator("button[type=submit]").click()


async def join_as(open_page: Any, link: str, name: str) -> Any:
    page = await open_page(link)
    await page.fill("#join-name", name)
    await page.click("#join-submit")
    await page.wait_for_selector("body[data-seq]")
    return page


async def wait_seq(page: Any, seq: int) -> None:
    """Wait until the page's log shows ``seq``."""
    await page.wait_for_selector(f"#log li[data-seq='{seq}']", state="attached")


async def faces(page: Any, seq: int) -> list[str]:
    return await page.locator(f"#log li[data-seq='{seq}'] .die").all_inner_texts()


async def test_the_header_shows_the_tables_fingerprint(
    scripted_server: Any, open_page: Any
) -> None:
    """The header shows the table's fingerprint: the hash chain's head at the seq shown,
    the same for the GM and a player, and moving on with each event (issue 17)."""
    import re

    gm = await create_table(open_page, scripted_server.http_url)
    pl = await join_as(open_page, await gm.input_value("#invite-player"), "たろう")
    await wait_seq(gm, 3)
    await gm.wait_for_function("document.body.dataset.seq === '3'")
    shown = {await p.inner_text("#t-head") for p in (gm, pl)}
    assert len(shown) == 1, shown
    (first,) = shown
    assert re.fullmatch(r"指紋 3:[0-9a-f]{16}", first), first
    await pl.fill("#chat-input", "ドーモ")
    await pl.press("#chat-input", "Enter")
    await gm.wait_for_function("document.body.dataset.seq === '4'")
    after = await gm.inner_text("#t-head")
    assert after.startswith("指紋 4:") and after[-16:] != first[-16:]


async def test_gm_and_player_see_the_same_roll(
    scripted_server: Any, open_page: Any, scripted_dice: ScriptedDice
) -> None:
    """A GM and a player in two contexts join one table; the player's roll shows the same faces to both."""
    server = scripted_server
    gm = await create_table(open_page, server.http_url)
    link = await gm.input_value("#invite-player")
    assert "#table=" in link and "&token=" in link
    pl = await join_as(open_page, link, "たろう")
    await wait_seq(gm, 3)  # たろう's member_joined reached the GM live

    scripted_dice.extend([3, 5])
    await pl.fill("#chat-input", "2D6>=7 奇襲")
    await pl.press("#chat-input", "Enter")
    for page in (gm, pl):
        await wait_seq(page, 4)
        assert await faces(page, 4) == ["3", "5"]
        line = page.locator("#log li[data-seq='4']")
        assert "たろう" in await line.inner_text() and "8[3,5]" in await line.inner_text()
        assert await line.get_attribute("class") and "oc-success" in (
            await line.get_attribute("class")
        )
    # keyboard: ↑ in the chat input brings back what was sent
    await pl.press("#chat-input", "ArrowUp")
    assert await pl.input_value("#chat-input") == "2D6>=7 奇襲"


async def test_secret_roll_never_reaches_the_player_page(
    scripted_server: Any, open_page: Any, scripted_dice: ScriptedDice
) -> None:
    """The GM's secret roll shows its faces on the GM's page; the player's page only has a hidden line."""
    server = scripted_server
    gm = await create_table(open_page, server.http_url)
    pl = await join_as(open_page, await gm.input_value("#invite-player"), "はなこ")
    await wait_seq(gm, 3)

    scripted_dice.extend([6, 4, 2])
    await gm.click("#gm-tools > summary")
    await gm.fill("#secret-expr", "3D6+100 闇の取引")
    await gm.click("#secret-roll")
    await wait_seq(gm, 4)
    assert await faces(gm, 4) == ["6", "4", "2"]
    assert "112" in await gm.locator("#log li[data-seq='4']").inner_text()

    # a public line after it proves the player's page has caught up past seq 4
    scripted_dice.extend([1])
    await gm.fill("#chat-input", "1D6")
    await gm.press("#chat-input", "Enter")
    await wait_seq(pl, 5)
    hidden = pl.locator("#log li[data-seq='4']")
    assert "redacted" in (await hidden.get_attribute("class") or "")
    assert await hidden.locator(".die").count() == 0
    html = _without_times(await pl.content())
    assert "112" not in html and "闇の取引" not in html and "[6,4,2]" not in html
    # nor in anything the player's page can ask for: its replay of the log
    await pl.click("#replay-toggle")
    await pl.wait_for_selector("#replay[data-seq='5']")
    html = _without_times(await pl.content())
    assert "112" not in html and "闇の取引" not in html


async def test_replay_slider_shows_an_earlier_state(scripted_server: Any, open_page: Any) -> None:
    """Stepping the replay back before a character was created hides it; stepping forward shows it."""
    server = scripted_server
    gm = await create_table(open_page, server.http_url)
    await make_character(gm, "ヤモト・コキ", free={"karate": 5})
    await wait_seq(gm, 3)
    await gm.wait_for_selector("#state-panels .card:has-text('ヤモト・コキ')")
    await gm.fill("#chat-input", "ドーモ。")
    await gm.press("#chat-input", "Enter")
    await wait_seq(gm, 4)

    await gm.click("#replay-toggle")
    await gm.wait_for_selector("#replay[data-seq='4']")
    assert await gm.locator("#replay-state .card:has-text('ヤモト・コキ')").count() == 1
    # keyboard: the slider has focus; two steps back is seq 2, before the character
    await gm.press("#replay-slider", "ArrowLeft")
    await gm.press("#replay-slider", "ArrowLeft")
    await gm.wait_for_selector("#replay[data-seq='2']")
    assert await gm.locator("#replay-state .card").count() == 0
    assert await gm.locator("#replay-log li[data-seq='3']").is_hidden()
    assert "seq 2 / 4" in await gm.inner_text("#replay-seq")
    await gm.click("#replay-next")
    await gm.wait_for_selector("#replay[data-seq='3']")
    assert await gm.locator("#replay-state .card:has-text('ヤモト・コキ')").count() == 1
    # back to live: the live state is still the latest
    await gm.click("#replay-close")
    assert await gm.locator("#state-panels .card:has-text('ヤモト・コキ')").count() == 1


async def test_export_text_and_html(
    scripted_server: Any, open_page: Any, scripted_dice: ScriptedDice
) -> None:
    """The log downloads as text and as a standalone HTML page, with the dice results."""
    gm = await create_table(open_page, scripted_server.http_url, name="輸出卓")
    scripted_dice.extend([2, 2])
    await gm.fill("#chat-input", "2D6")
    await gm.press("#chat-input", "Enter")
    await wait_seq(gm, 3)
    async with gm.expect_download() as info:
        await gm.click("#export-text")
    text = (await (await info.value).path()).read_text(encoding="utf-8")
    assert text.startswith("[1] ") and "\n[3] " in text and "4[2,2]" in text
    async with gm.expect_download() as info:
        await gm.click("#export-html")
    download = await info.value
    assert download.suggested_filename.endswith(".html")
    html = (await download.path()).read_text(encoding="utf-8")
    # the server's page (taku.export, as `taku export --format html`): dice faces, the seed hash
    assert (
        "<title>輸出卓" in html and "4[2,2]" in html and 'aria-label="6面ダイス 2">2</span>' in html
    )
    assert "シードのハッシュ" in html


async def test_phone_sized_screen_stacks_the_panels(scripted_server: Any, open_page: Any) -> None:
    """On a 390 px wide screen the chat and the side panels stack and nothing scrolls sideways."""
    gm = await open_page(scripted_server.http_url, width=390, height=844)
    await gm.fill("#table-name", "スマホ卓")
    await gm.click("#create-submit")
    await gm.wait_for_selector("body[data-seq]")
    await close_invites(gm)
    chat = await gm.locator("#live .chat").bounding_box()
    side = await gm.locator("#live .side").bounding_box()
    assert chat and side and side["y"] >= chat["y"] + chat["height"] - 1
    assert await gm.evaluate("document.documentElement.scrollWidth") <= 390


async def test_yodomi_hand_stays_with_its_owner(scripted_server: Any, open_page: Any) -> None:
    """yodomi: the cards dealt to one player's character never appear in another player's page."""
    server = scripted_server
    async with await TakuClient.connect(server.ws_url) as probe:
        info = {r.id: r for r in await probe.list_rulesets()}
    assert "yodomi.deal_cards" in info["yodomi"].commands
    gm = await create_table(open_page, server.http_url, ruleset="yodomi", name="澱み卓")
    link = await gm.input_value("#invite-player")
    a = await join_as(open_page, link, "あきら")
    b = await join_as(open_page, link, "べに")
    for page, name in ((a, "アキラ"), (b, "ベニ")):
        await make_character(page, name)
        await page.wait_for_selector(f"#state-panels .card:has-text('{name}')")
    # the GM deals two 流れ cards to アキラ through the client library (same server path)
    async with await TakuClient.connect(server.ws_url) as gm_client:
        state = await a.evaluate("window.taku.state")
        akira = next(c["id"] for c in state["characters"].values() if c["name"] == "アキラ")
        table_id = state["table_id"]
        await gm_client.join(
            table_id,
            await gm.evaluate(f"JSON.parse(localStorage.getItem('taku:{table_id}')).token"),
        )
        ack = await gm_client.command(
            table_id, {"type": "yodomi.deal_cards", "character_id": akira, "count": 2}
        )
        log = await gm_client.get_log(table_id, after_seq=ack.first_seq - 1)
    await wait_seq(b, ack.last_seq)
    await wait_seq(a, ack.last_seq)
    await a.wait_for_selector("[data-testid=my-hand] .playing-card")
    cards = await a.locator("[data-testid=my-hand] .playing-card").all_inner_texts()
    assert len(cards) == 2
    await b.wait_for_selector("body[data-seq]")
    # the page without <option>s: a form's select lists every card code of the deck (the schema's
    # closed set of 54), which is no card of anyone's hand
    b_html = await b.evaluate(
        "(() => { const d = document.documentElement.cloneNode(true);"
        " d.querySelectorAll('option').forEach((o) => o.remove()); return d.outerHTML; })()"
    )
    b_state = await b.evaluate("JSON.stringify(window.taku.state.game)")
    for card in cards:
        assert card not in b_state and card not in b_html
    assert await b.locator("[data-testid=my-hand] .playing-card").count() == 0
    assert all(event_data(e)["type"] for e in log) and "アキラ" in b_html


async def test_unknown_ruleset_gets_a_working_generic_panel(open_page: Any) -> None:
    """A ruleset the client has never heard of: state from its view, its affordances as
    buttons, forms from its command schema, its rejections shown with their code."""
    from taku.core.dice import ScriptedDice as Dice
    from taku.plugins import Registry, load_registry
    from taku.store import MemoryEventStore

    from ._coin import COIN
    from .conftest_server import running_with

    dice = Dice([1])
    async with running_with(MemoryEventStore(), Registry([*load_registry(), COIN]), dice) as server:
        gm = await create_table(open_page, server.http_url, ruleset="coin", name="コイン卓")
        await gm.click("#actions details[data-command='create_character'] > summary")
        await gm.fill("#cc-name", "ギャンブラー")
        await gm.click("#create-character button[type=submit]")
        card = gm.locator("#state-panels .card:has-text('ギャンブラー')")
        await card.wait_for()
        # the affordance is a button; pressing it flips the coin (face 1: 表)
        await gm.click(".legal-moves button:has-text('ギャンブラー: コインを投げる')")
        await wait_seq(gm, 4)
        assert "ギャンブラー: コイン → 表" in await gm.inner_text("#log li[data-seq='4']")
        assert await faces(gm, 4) == ["1"]
        await gm.wait_for_selector("body[data-seq='4']")
        assert "flips" in await card.inner_text()
        # the bet form comes from the command schema: a character choice, a number, an enum
        await gm.click("#actions details.cmd-all > summary")  # every command, folded
        await gm.click("#actions details[data-command='coin.bet'] > summary")
        form = gm.locator("form[data-command='coin.bet']")
        assert (
            await form.locator("select[name=character_id] option").count() == 2
        )  # "—" and ギャンブラー
        await form.locator("select[name=character_id]").select_option(label="ギャンブラー")
        await form.locator("input[name=amount]").fill("11")
        await form.locator("select[name=side]").select_option(label="tails")
        await form.locator("button[type=submit]").click()
        await form.locator(".form-error:has-text('rule/coin/bad_amount')").wait_for()
        await form.locator("input[name=amount]").fill("3")
        await form.locator("button[type=submit]").click()
        await wait_seq(gm, 5)
        assert "ギャンブラー: 3枚を裏に賭けた" in await gm.inner_text("#log li[data-seq='5']")
        await gm.wait_for_selector("body[data-seq='5']")
        text = await card.inner_text()
        assert "7" in text  # chips 10 - 3, shown live under the character


async def test_page_resumes_after_the_server_drops_it(scripted_server: Any, open_page: Any) -> None:
    """The server closes the page's connection: it reconnects as the same member and
    its log goes on from the last seq, with no line lost or shown twice."""
    from .conftest import drop_all

    gm = await create_table(open_page, scripted_server.http_url)
    table_id = await gm.evaluate("window.taku.tableId")
    token = await gm.evaluate(f"JSON.parse(localStorage.getItem('taku:{table_id}')).token")
    async with await TakuClient.connect(scripted_server.ws_url, retry_delays_s=(0.05,)) as other:
        await other.join(table_id, token)  # the GM's own token: the same member from another client
        await other.chat(table_id, "切断の前")
        await wait_seq(gm, 3)
        assert await drop_all(scripted_server) == 2
        for i in range(3):
            await other.chat(table_id, f"切断の後 {i}")
    await wait_seq(gm, 6)
    await gm.wait_for_selector("#conn-status.open")
    seqs = [
        int(s)
        for s in await gm.eval_on_selector_all("#log li", "els => els.map(e => e.dataset.seq)")
    ]
    assert seqs == [1, 2, 3, 4, 5, 6]
    assert "切断の後 2" in await gm.inner_text("#log li[data-seq='6']")
    members = await gm.evaluate("Object.values(window.taku.state.members).map(m => m.name)")
    assert members == ["ゲームマスター"]  # rejoined as itself, not as a new member


async def test_shadowjan_moves_legal_now_are_buttons_for_whose_move_it_is(
    taku_server: Any, open_page: Any
) -> None:
    """shadowjan: seating and starting are buttons (from the state message's affordances);
    then only the player whose move it is gets move buttons, and pressing one moves the
    game on. Both see the scoreboard, with the hand and whose move it is (its turn)."""
    gm = await create_table(
        open_page, taku_server.http_url, ruleset="shadowjan", name="シャドー・ジャン卓"
    )
    link = await gm.input_value("#invite-player")
    a = await join_as(open_page, link, "あきら")
    b = await join_as(open_page, link, "べに")
    for page, name in ((a, "アキラ"), (b, "ベニ")):
        await make_character(page, name)
        await page.click(f".legal-moves button:has-text('{name}で着席')")
        await page.wait_for_selector(f".ruleset-panel tr:has-text('{name}')")
    await b.click(".legal-moves button:has-text('対局開始')")
    for page in (a, b, gm):
        await page.wait_for_selector(".ruleset-panel .score")
        await page.wait_for_selector(".ruleset-panel p:has-text('東1局'):has-text('手番')")
    seq = int(await b.evaluate("window.taku.state.seq"))
    await a.wait_for_selector(f"body[data-seq='{seq}']")
    counts = [await p.locator(".legal-moves button").count() for p in (a, b)]
    assert sorted(c > 0 for c in counts) == [False, True]  # one player's move, not both
    mover = (a, b)[counts.index(max(counts))]
    assert await gm.locator(".legal-moves button").count() == max(
        counts
    )  # the GM may move for anyone
    scores = await gm.locator(".ruleset-panel .score").all_inner_texts()
    assert len(scores) == 2 and all(s.lstrip("-").isdigit() for s in scores)
    # each card names its values once, in Japanese (点数 once, no raw keys)
    for card in await gm.locator("#state-panels .card[data-character] .extras").all_inner_texts():
        assert card.count("点数") == 1 and "メンツ" in card, card
        assert not any(raw in card for raw in ("score", "mentsu", "declared_at", "character_id")), (
            card
        )
    await mover.locator(".legal-moves button").first.click()
    await mover.wait_for_selector(f"#log li[data-seq='{seq + 1}']", state="attached")


async def test_gm_override_and_award_show_live_on_the_players_page(
    scripted_server: Any, open_page: Any
) -> None:
    """The GM awards +2 to a character's value and overrides another by clicking it; the
    player's page shows both new values without a reload, and the log says what changed."""
    gm = await create_table(open_page, scripted_server.http_url)
    pl = await join_as(open_page, await gm.input_value("#invite-player"), "たろう")
    await make_character(pl, "ヤモト", free={"hp": 10, "luck": 3})
    await wait_seq(gm, 4)
    await gm.wait_for_selector("#state-panels .card:has-text('ヤモト')")

    await gm.click("#gm-tools > summary")
    await gm.select_option("#award-target", label="ヤモト: hp")
    await gm.fill("#award-delta", "2")
    await gm.fill("#award-reason", "ボーナス")
    await gm.click("#award-submit")
    await wait_seq(pl, 5)
    assert "10 → 12" in await pl.inner_text("#log li[data-seq='5']")
    await pl.wait_for_selector("#state-panels .card[data-character] .leaf:text-is('12')")

    # a click on the value fills the override form with its path and value
    await gm.click("#state-panels .card .leaf[data-path*='luck']")
    assert await gm.input_value("#ov-path") == '["characters","c4","sheet","luck"]'
    assert await gm.input_value("#ov-value") == "3"
    await gm.fill("#ov-value", "0")
    await gm.click("#ov-submit")
    await wait_seq(pl, 6)
    assert "luck 3 → 0" in await pl.inner_text("#log li[data-seq='6']")
    luck = pl.locator("#state-panels .card .leaf[data-path*='luck']")
    await luck.and_(pl.locator(":text-is('0')")).wait_for()
    # the player has no GM tools
    assert await pl.locator("#gm-tools").is_hidden()


async def test_spectator_watches_but_cannot_act(
    scripted_server: Any, open_page: Any, scripted_dice: ScriptedDice
) -> None:
    """A spectator joins with the spectator link: sees the GM's roll live, has no chat, actions or GM tools."""
    gm = await create_table(open_page, scripted_server.http_url)
    sp = await join_as(open_page, await gm.input_value("#invite-spectator"), "観客")
    assert await sp.get_attribute("body", "data-role") == "spectator"
    assert await sp.is_disabled("#chat-input")
    assert await sp.locator("#spectator-note").is_visible()
    assert "観戦中は発言できません" in await sp.inner_text("#spectator-note")
    assert await gm.locator("#spectator-note").is_hidden()
    assert await sp.locator("#actions").is_hidden() and await sp.locator("#gm-tools").is_hidden()
    scripted_dice.extend([1, 1])
    await gm.fill("#chat-input", "2D6>=7 ピンゾロ")
    await gm.press("#chat-input", "Enter")
    await wait_seq(sp, 4)
    assert await faces(sp, 4) == ["1", "1"]
    assert "oc-failure" in (await sp.get_attribute("#log li[data-seq='4']", "class") or "")


async def test_nstrpg_evasion_buttons_spend_evasion_dice(
    scripted_server: Any, open_page: Any, scripted_dice: ScriptedDice
) -> None:
    """nstrpg (NSTRPG 2-11 回避判定): a hit waiting on the player's character shows evasion
    buttons, one per 回避ダイス left; spending 2 rolls the evasion and leaves 1."""
    scripted_dice.extend([6, 6, 5, 5] + [4] * 40)
    gm = await create_table(
        open_page, scripted_server.http_url, ruleset="nstrpg", name="ネオサイタマ"
    )
    pl = await join_as(open_page, await gm.input_value("#invite-player"), "フジキド")
    table_id = await gm.evaluate("window.taku.tableId")
    token = await gm.evaluate(f"JSON.parse(localStorage.getItem('taku:{table_id}')).token")
    await make_character(
        pl, "ニンジャスレイヤー", fields={"【カラテ】": 3, "【ニューロン】": 3, "【体力】": 5}
    )
    await pl.wait_for_selector(".ruleset-panel tr:has-text('ニンジャスレイヤー')")
    async with await TakuClient.connect(scripted_server.ws_url) as gm_client:
        await gm_client.join(table_id, token)
        await gm_client.command(
            table_id,
            {
                "type": "create_character",
                "name": "ラオモト",
                # イニシアチブ 4 over the PC's 3: his 手番 comes first (2-3)
                "sheet": {"karate": 4, "neuron": 4, "tairyoku": 5},
            },
        )
        state = (await gm_client.get_state(table_id)).state
        ids = {c["name"]: c["id"] for c in state["characters"].values()}
        for cmd in (
            {"type": "nstrpg.start_combat"},
            {"type": "nstrpg.start_turn"},
            {"type": "nstrpg.begin_turn_of", "character_id": ids["ラオモト"]},
            {
                "type": "nstrpg.attack",
                "attacker": ids["ラオモト"],
                "target": ids["ニンジャスレイヤー"],
            },
        ):
            ack = await gm_client.command(table_id, cmd)
    await pl.wait_for_selector(f"body[data-seq='{ack.last_seq}']")
    row = pl.locator(f".ruleset-panel tr[data-character='{ids['ニンジャスレイヤー']}']")
    assert (await row.locator(".evasion").inner_text()).startswith("3")
    buttons = pl.locator(".ruleset-panel .evade button")
    assert await buttons.all_inner_texts() == [
        "回避 1ダイス",
        "回避 2ダイス",
        "回避 3ダイス",
        "受ける",
    ]
    await pl.click(".ruleset-panel .evade button:has-text('回避 2ダイス')")
    await wait_seq(pl, ack.last_seq + 1)
    await pl.wait_for_selector(".ruleset-panel .evade", state="detached")
    assert (await row.locator(".evasion").inner_text()).startswith("1")


@pytest.mark.parametrize(
    ("ruleset", "sheet", "expected"),
    [
        ("hiden", {"座布団": 4}, ["@[aria-label='座布団 4枚']", "4"]),
        (
            "chabu",
            {"ＤＬ": 3, "ＨＰ": 20, "インガオホー値": 35, "タツジンカウンター": 1},
            ["20 / 20", "35 / 100", "タツジン 1", "未行動"],
        ),
        ("yodomi", {"開始時の【PP】": 30, "開始時の【SP】": 60}, ["30 / 30", "60", "0枚"]),
    ],
)
async def test_ruleset_panel_shows_what_the_game_needs(
    scripted_server: Any, open_page: Any, ruleset: str, sheet: dict[str, Any], expected: list[str]
) -> None:
    """hiden's 座布団, chabu's HP, インガオホー値 and counters, yodomi's PP/SP and hand size:
    drawn from the ruleset's view as soon as the character exists."""
    gm = await create_table(open_page, scripted_server.http_url, ruleset=ruleset)
    pl = await join_as(open_page, await gm.input_value("#invite-player"), "たろう")
    await make_character(pl, "ヤモト", fields=sheet)
    for page in (gm, pl):
        row = page.locator(".ruleset-panel tr:has-text('ヤモト')")
        await row.wait_for()
        text = await row.inner_text()
        for part in expected:
            if part.startswith("@"):  # a selector inside the row
                assert await row.locator(part[1:]).count() > 0, (ruleset, part)
            else:
                assert part in text, (ruleset, part, text)


async def test_gm_only_command_forms_are_the_gms(scripted_server: Any, open_page: Any) -> None:
    """Commands in list_rulesets' gm_commands (the core's override, nstrpg's gain_dkk …)
    have forms on the GM's page only; the player keeps the forms of the commands they may send."""
    gm = await create_table(
        open_page, scripted_server.http_url, ruleset="nstrpg", name="ネオサイタマ"
    )
    pl = await join_as(open_page, await gm.input_value("#invite-player"), "フジキド")
    await pl.wait_for_selector("#actions details[data-command='nstrpg.check']", state="attached")
    for tag in ("nstrpg.gain_dkk", "nstrpg.start_combat", "nstrpg.adjust"):
        assert await gm.locator(f"#actions details[data-command='{tag}']").count() == 1, tag
        assert await gm.locator(f"#actions details[data-command='{tag}'] .gm-only").count() == 1, (
            tag
        )
        assert await pl.locator(f"#actions details[data-command='{tag}']").count() == 0, tag
    assert await pl.locator("#actions details[data-command='nstrpg.evade']").count() == 1
    # override: the GM tools' form
    await gm.click("#gm-tools > summary")
    assert await gm.locator("#override-form").is_visible()
    assert not await pl.locator("#override-form").is_visible()
    assert await pl.locator("#gm-tools").is_hidden()


async def test_cards_use_japanese_names_and_hide_internals(
    scripted_server: Any, open_page: Any, scripted_dice: ScriptedDice
) -> None:
    """nstrpg cards name the fighter's values in Japanese (体力, 部位損傷ペナルティ, 即応ダイス) and
    leave out internals (a roll's ref and purpose); keys the client does not know keep their name."""
    scripted_dice.extend([4] * 20)
    gm = await create_table(
        open_page, scripted_server.http_url, ruleset="nstrpg", name="ネオサイタマ"
    )
    pl = await join_as(open_page, await gm.input_value("#invite-player"), "フジキド")
    await make_character(pl, "ヤモト", fields={"【カラテ】": 3, "【ニューロン】": 3, "【体力】": 5})
    await pl.wait_for_selector(".ruleset-panel tr:has-text('ヤモト')")
    cid = await pl.evaluate("Object.keys(window.taku.state.characters)[0]")
    await pl.evaluate(
        "([t, c]) => window.taku.conn.command(t, c).then(() => 1)",
        [
            await pl.evaluate("window.taku.tableId"),
            {"type": "nstrpg.check", "character_id": cid, "stat": "karate"},
        ],
    )
    await pl.wait_for_selector("#state-panels .card .extra-head:text-is('直前の判定')")
    card = await pl.inner_text("#state-panels .card[data-character] .extras")
    for jp in (
        "体力",
        "精神力",
        "部位損傷ペナルティ",
        "即応ダイス",
        "回避ダイス",
        "カラテ",
        "判定",
        "NORMAL",
    ):
        assert jp in card, (jp, card)
    for raw in (
        "tairyoku",
        "injury_penalty",
        "quick_dice",
        "ref",
        "purpose",
        "fighters",
        "last_roll",
    ):
        assert raw not in card, (raw, card)
    # the raw key stays in the tooltip of the label
    assert await pl.locator("#state-panels .card dt[title='injury_penalty']").count() == 1


async def test_tables_fit_the_side_panel(scripted_server: Any, open_page: Any) -> None:
    """At 1280×800 the nstrpg table fits the side panel (no hidden DKK / 状態 columns); at 390 px
    chabu's does too (or scrolls inside its own container, never past the page)."""
    for ruleset, sheet, width, height in (
        (
            "nstrpg",
            {
                "【カラテ】": 6,
                "【ニューロン】": 5,
                "【体力】": 12,
                "【精神力】": 6,
                "【DKK】ポイント": 3,
            },
            1280,
            800,
        ),
        (
            "chabu",
            {"ＤＬ": 3, "ＨＰ": 20, "インガオホー値": 35, "タツジンカウンター": 1},
            390,
            844,
        ),
    ):
        gm = await create_table(open_page, scripted_server.http_url, ruleset=ruleset)
        link = await gm.input_value("#invite-player")
        pl = await open_page(link, width=width, height=height)
        await pl.fill("#join-name", "たろう")
        await pl.click("#join-submit")
        await pl.wait_for_selector("body[data-seq]")
        await make_character(pl, "ニンジャスレイヤー", fields=sheet)
        await pl.wait_for_selector(".ruleset-panel tr:has-text('ニンジャスレイヤー')")
        box = await pl.evaluate(
            """() => { const w = document.querySelector('.ruleset-panel .grid-scroll');
                       const t = w.querySelector('table').getBoundingClientRect();
                       const side = document.querySelector('#live .side').getBoundingClientRect();
                       return {scroll: w.scrollWidth, client: w.clientWidth, right: t.right, side: side.right,
                               overflow: getComputedStyle(w).overflowX, page: document.documentElement.scrollWidth,
                               vw: window.innerWidth}; }"""
        )
        assert box["scroll"] <= box["client"] + 1, (ruleset, box)
        assert box["right"] <= box["side"] + 1, (ruleset, box)
        assert box["overflow"] == "auto" and box["page"] <= box["vw"], (ruleset, box)


async def test_error_shows_the_servers_message_with_the_code_small(
    scripted_server: Any, open_page: Any
) -> None:
    """A refused command shows the server's message first; its code is small text (and the tooltip)."""
    gm = await create_table(open_page, scripted_server.http_url)
    await gm.click("#gm-tools > summary")
    await gm.fill("#secret-expr", "0D6")
    await gm.click("#secret-roll")
    toast = gm.locator(".toast.error").first
    await toast.wait_for()
    assert (
        (await toast.locator(".err-msg").inner_text())
        == "ダイス式が正しくありません: ダイスは1個以上振ってください"
    )  # the catalogue's message, and why
    assert (await toast.locator(".err-code").inner_text()) == "dice/invalid"
    assert await toast.locator(".err-msg").get_attribute("title") == "dice/invalid"
    assert not (await toast.inner_text()).startswith("dice/invalid")


async def test_the_page_connects_with_the_subprotocol_taku_v1(
    scripted_server: Any, open_page: Any
) -> None:
    """The web client offers the protocol's version as its WebSocket subprotocol, and the
    server accepted it (docs/protocol.md, Versions)."""
    from .conftest import server_connections

    await create_table(open_page, scripted_server.http_url)
    assert [c.subprotocol for c in server_connections(scripted_server)] == ["taku.v1"]


async def test_a_long_table_shows_its_last_events_first_and_older_on_demand(
    scripted_server: Any, open_page: Any
) -> None:
    """Entering a table of some 700 events shows the last few hundred; the button at
    the log's top loads the older ones page by page until the whole log is there, in
    order, none twice; live events keep coming below."""
    from taku.core.commands import Chat

    gm = await create_table(open_page, scripted_server.http_url)
    table_id = await gm.evaluate("window.taku.tableId")
    link = await gm.input_value("#invite-player")
    table = await scripted_server.hub.table(table_id)
    for i in range(700):
        await table.execute("m2", Chat(text=f"昔の行 {i}"), command_id=f"old{i}")
    pl = await join_as(open_page, link, "あとから")
    head = table.state.seq
    await wait_seq(pl, head)

    async def seqs() -> list[int]:
        return [
            int(s)
            for s in await pl.eval_on_selector_all(
                "#log li[data-seq]", "els => els.map(e => e.dataset.seq)"
            )
        ]

    shown = await seqs()
    assert shown == list(range(head - 299, head + 1))  # the last 300 first
    for _ in range(5):
        if not await pl.locator("#log .older").count():
            break
        before = len(await seqs())
        await pl.click("#log .older")
        await pl.wait_for_function(
            f"document.querySelectorAll('#log li[data-seq]').length > {before}"
        )
    assert await seqs() == list(range(1, head + 1))
    assert not await pl.locator("#log .older").count()
    await table.execute("m2", Chat(text="今の行"), command_id="now")
    await wait_seq(pl, head + 1)
    assert (await seqs())[-1] == head + 1
