"""The play surface (issue 14): forms generated from the server's schemas, in Japanese.

One server per module (scripted dice); each person is a browser context of their own.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from .test_web import close_invites, create_table, join_as, make_character, wait_seq

RULESETS = ("nstrpg", "chabu", "hiden", "yodomi", "shadowjan")

# every label a person reads on a form: field names, group titles, command titles, buttons
LABELS_JS = """() => {
  const out = [];
  const seen = (el) => el.closest('[hidden]') === null;
  for (const el of document.querySelectorAll(
      'form label, form legend, form .fname, details > summary, form button, dialog h2, .legal-moves button')) {
    if (!seen(el)) continue;
    const own = [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join('')
      || (el.matches('summary') ? el.textContent : el.innerText || '');
    const text = own.replace(/[*＊]/g, '').trim();
    if (text) out.push(text);
  }
  return out;
}"""


async def _open_every_form(page: Any) -> None:
    """Open every collapsed command form, the sheet form and the GM tools."""
    await page.evaluate(
        "() => document.querySelectorAll('#actions details, #gm-tools, .ccfolia-import')"
        ".forEach((d) => { d.open = true; })"
    )


@pytest.mark.parametrize("ruleset", RULESETS)
async def test_no_form_shows_an_english_label(
    scripted_server: Any, open_page: Any, ruleset: str
) -> None:
    """Every rendered form of a built-in ruleset (table options at creation, the sheet form,
    every command form, the GM tools) labels its fields in Japanese: no label is ASCII only."""
    home = await open_page(scripted_server.http_url)
    await home.select_option("#ruleset", ruleset)
    await home.evaluate("document.querySelector('#table-options').open = true")
    english = [t for t in await home.evaluate(LABELS_JS) if t.isascii()]
    assert not english, (ruleset, "home", english)
    await home.click("#create-submit")
    await home.wait_for_selector("body[data-seq]")
    await close_invites(home)
    await make_character(home, "ヤモト")
    await home.wait_for_selector("#state-panels .card:has-text('ヤモト')")
    await _open_every_form(home)
    labels = await home.evaluate(LABELS_JS)
    assert len(labels) > 40, labels  # the forms are there
    english = [t for t in labels if t.isascii()]
    # an abbreviation the rulebook itself writes in capitals (PC, GM, HP …) is Japanese usage,
    # not a developer's field name: at most a short capitalised word
    english = [t for t in english if not (t.isupper() and len(t) <= 4)]
    assert not english, (ruleset, english)
    # the state tree names a key by its state schema's title ("dkk_this_turn" is
    # このターンに得たDKK), a key the view adds outside the state schema too (hiden's
    # `tables`, nstrpg's `initiative_order`): no raw key in the tree
    await home.evaluate("document.querySelector('#state-panels .state-panel').open = true")
    keys = await home.locator("#state-panels .state-panel dt").all_inner_texts()
    assert keys and all(keys), ruleset
    raw = {k for k in keys if re.fullmatch(r"[a-z_]+", k)}
    assert not raw, (ruleset, sorted(raw))


CCFOLIA_PIECE = {
    "kind": "character",
    "data": {
        "name": "ナンシー・リー",
        "memo": "ハッカー",
        "initiative": 0,
        "status": [
            {"label": "体力", "value": 6, "max": 6},
            {"label": "精神力", "value": 9, "max": 9},
        ],
        "params": [
            {"label": "カラテ", "value": "3"},
            {"label": "ニューロン", "value": "9"},
            {"label": "ワザマエ", "value": "5"},
            {"label": "好物", "value": "スシ"},
        ],
        "commands": "{ニューロン}d6>=4",
    },
}


async def test_sheet_form_makes_edits_imports_exports_and_deletes(
    scripted_server: Any, open_page: Any
) -> None:
    """nstrpg: a character from the ruleset's template, a bad value refused in Japanese before
    anything is sent, an edit through the card's 編集 dialog, one imported from ココフォリア's
    clipboard format and exported back with the same values, and a delete."""
    gm = await create_table(
        open_page, scripted_server.http_url, ruleset="nstrpg", name="ネオサイタマ"
    )
    await gm.context.grant_permissions(["clipboard-read", "clipboard-write"])
    pl = await join_as(open_page, await gm.input_value("#invite-player"), "フジキド")
    await pl.click("#actions details[data-command='create_character'] > summary")
    form = pl.locator("#create-character")
    # a template fills the form with the schema's labelled fields
    await form.get_by_label("ひな形").select_option(label="駆け出しのニンジャ（PC）")
    assert await form.locator("#cc-name").input_value() == "新人ニンジャ"
    assert await form.get_by_label("【カラテ】", exact=True).input_value() == "5"
    assert await form.get_by_label("種別").evaluate("s => s.selectedOptions[0].text") == "PC"
    # a value out of bounds: a Japanese message, nothing sent
    seq = int(await pl.evaluate("document.body.dataset.seq"))
    await form.get_by_label("【カラテ】", exact=True).fill("120")
    await form.locator("button[type=submit]").click()
    assert "「【カラテ】」は0〜99の値です" in await form.locator(".form-error").inner_text()
    assert int(await pl.evaluate("document.body.dataset.seq")) == seq
    await form.get_by_label("【カラテ】", exact=True).fill("6")
    await form.locator("#cc-name").fill("ニンジャスレイヤー")
    await form.locator("button[type=submit]").click()
    card = pl.locator("#state-panels .card:has-text('ニンジャスレイヤー')")
    await card.wait_for()
    state = await pl.evaluate("window.taku.state")
    (ns,) = state["characters"].values()
    assert ns["sheet"]["karate"] == 6 and ns["sheet"]["weapons"] == ["katana"]

    # edit: the card's 編集 opens the same form, filled in
    await card.locator("button[data-action=edit]").click()
    dlg = pl.locator("#sheet-dialog")
    await dlg.get_by_label("【ニューロン】", exact=True).fill("7")
    await dlg.locator("button[type=submit]").click()
    await dlg.wait_for(state="hidden")
    await wait_seq(pl, seq + 2)
    line = await pl.inner_text(f"#log li[data-seq='{seq + 2}']")
    assert "neuron=7" in line and "karate" not in line  # only what changed
    state = await pl.evaluate("window.taku.state")
    assert state["characters"][ns["id"]]["sheet"]["neuron"] == 7

    # import from ココフォリア: the form is filled, the player checks it and makes it
    await form.locator(".ccfolia-import > summary").click()
    # a number the sheet has no field for (another game's 座布団) is named as unused, not put
    # into the sheet's first map of numbers (nstrpg's is 回避難易度修正, by damage kind)
    data = CCFOLIA_PIECE["data"]
    piece = {
        **CCFOLIA_PIECE,
        "data": {**data, "params": [*data["params"], {"label": "座布団", "value": "2"}]},
    }
    await form.locator("#cc-ccfolia").fill(json.dumps(piece, ensure_ascii=False))
    await form.locator("#cc-ccfolia-load").click()
    note = await form.locator(".note").inner_text()
    assert "ナンシー・リー" in note and "好物" in note
    assert "チャットパレットも読み込みました" in note
    assert "座布団" in note
    assert await form.get_by_label("【ニューロン】", exact=True).input_value() == "9"
    await form.locator("button[type=submit]").click()
    await pl.locator("#state-panels .card:has-text('ナンシー・リー')").wait_for()
    state = await pl.evaluate("window.taku.state")
    nancy = next(c for c in state["characters"].values() if c["name"] == "ナンシー・リー")
    assert {
        k: nancy["sheet"][k] for k in ("karate", "neuron", "wazamae", "tairyoku", "seishin")
    } == {
        "karate": 3,
        "neuron": 9,
        "wazamae": 5,
        "tairyoku": 6,
        "seishin": 9,
    }
    assert nancy["sheet"]["notes"] == "ハッカー"
    assert nancy["sheet"]["evasion_modifiers"] == {}
    # the piece's チャットパレット is the character's own (as in ココフォリア)
    await pl.wait_for_function(
        "(id) => (window.taku.state.chat.palettes[id] || {}).palette", arg=nancy["id"]
    )
    palettes = (await pl.evaluate("window.taku.state"))["chat"]["palettes"]
    assert palettes[nancy["id"]]["palette"] == "{ニューロン}d6>=4"

    # export back (the GM's copy): the same values under the same labels
    await gm.wait_for_selector("#state-panels .card:has-text('ナンシー・リー')")
    await gm.locator(
        "#state-panels .card:has-text('ナンシー・リー') button[data-action=ccfolia]"
    ).click()
    await gm.wait_for_function("window.taku.lastCcfolia")
    piece = json.loads(await gm.evaluate("navigator.clipboard.readText()"))
    assert piece["kind"] == "character" and piece["data"]["name"] == "ナンシー・リー"
    params = {p["label"]: p["value"] for p in piece["data"]["params"]}
    assert params["カラテ"] == "3" and params["ニューロン"] == "9" and params["ワザマエ"] == "5"
    assert piece["data"]["memo"] == "ハッカー"
    assert piece["data"]["commands"] == "{ニューロン}d6>=4"

    # delete (after a confirmation)
    pl.on("dialog", lambda d: d.accept())
    await card.locator("button[data-action=delete]").click()
    await card.wait_for(state="detached")
    assert ns["id"] not in (await pl.evaluate("window.taku.state"))["characters"]
    # the edit dialog left open: the fixture's axe checks it too
    await pl.locator(
        "#state-panels .card:has-text('ナンシー・リー') button[data-action=edit]"
    ).click()
    await dlg.get_by_label("【カラテ】", exact=True).wait_for()


async def test_invite_dialog_spectator_page_and_seed_reveal(
    scripted_server: Any, open_page: Any
) -> None:
    """Right after creating a table the GM sees the three links with copy buttons and what
    each role can do; a spectator's page says it is read-only and offers no form; the GM
    reveals the seed and is shown the taku verify command."""
    gm = await open_page(scripted_server.http_url)
    await gm.fill("#table-name", "招待卓")
    await gm.click("#create-submit")
    dlg = gm.locator("#invite-dialog")
    await dlg.wait_for()
    assert await dlg.locator("button.copy").count() == 3
    text = await dlg.inner_text()
    assert "プレイヤー招待" in text and "観戦招待" in text and "GMの戻り用リンク" in text
    assert "見るだけ" in text
    spectator_link = await dlg.locator("input[id$=invite-spectator]").input_value()
    await gm.click("#invite-close")

    sp = await open_page(spectator_link)
    assert "観戦招待なら見るだけ" in await sp.inner_text("#join-role")
    await sp.fill("#join-name", "みるだけ")
    await sp.click("#join-submit")
    await sp.wait_for_selector("body[data-seq]")
    assert "見るだけ" in await sp.inner_text("#spectator-banner")
    assert await sp.locator("#chat-input").is_disabled()
    assert await sp.locator("form.cmd-form:visible, .legal-moves:visible").count() == 0

    gm.on("dialog", lambda d: d.accept())
    await gm.click("#gm-tools > summary")
    await gm.click("#reveal-seed")
    await gm.locator("#verify-hint").wait_for()
    table_id = await gm.evaluate("window.taku.tableId")
    assert await gm.inner_text("#verify-cmd") == f"taku verify {table_id}.jsonl"
    async with gm.expect_download() as info:
        await gm.click("#verify-download")
    lines = (await (await info.value).path()).read_text(encoding="utf-8").splitlines()
    assert any('"seed_revealed"' in line for line in lines)
    # the spectator's times are in the browser's zone, and the header names it
    assert (await sp.inner_text("#t-zone")).startswith("時刻: ")
    # the invites open again from the GM tools (left open: the fixture's axe checks the dialog)
    await gm.click("#invites-open")
    await dlg.wait_for()


async def test_gm_override_of_a_nested_value_is_a_generated_form(
    scripted_server: Any, open_page: Any
) -> None:
    """chabu: the GM overrides a character's 能力値 (a map in the sheet) with rows generated
    from the sheet schema, filled in with the current values; no JSON box anywhere."""
    from .test_web_sessions import from_template

    gm = await create_table(open_page, scripted_server.http_url, ruleset="chabu")
    await from_template(gm, "PCのひな形", "ニンジャ")
    state = await gm.evaluate("window.taku.state")
    (ninja,) = state["characters"].values()
    before = ninja["sheet"]["abilities"]
    assert before and all(isinstance(v, int) for v in before.values()), before
    await gm.click("#gm-tools > summary")
    await gm.select_option("#ov-path", label="ニンジャ: 能力値")
    nested = gm.locator("#ov-nested")
    await nested.locator(".map-row").first.wait_for()
    assert await gm.locator("#ov-value-row").is_hidden()
    assert await gm.locator("#override-form textarea").count() == 0
    keys = await nested.locator(".map-key").evaluate_all("(els) => els.map((e) => e.value)")
    assert keys == list(before), keys
    first = nested.locator(".map-row").first.locator("input[type=number]")
    assert await first.input_value() == str(before[keys[0]])
    await first.fill(str(before[keys[0]] + 5))
    await gm.fill("#ov-reason", "修行")
    seq = int(await gm.evaluate("document.body.dataset.seq"))
    await gm.click("#ov-submit")
    await wait_seq(gm, seq + 1)
    assert "修行" in await gm.inner_text(f"#log li[data-seq='{seq + 1}']")
    want = {**before, keys[0]: before[keys[0]] + 5}
    # the state message may come a moment after the event's line
    await gm.wait_for_function(
        "([cid, k, v]) => window.taku.state.characters[cid].sheet.abilities[k] === v",
        arg=[ninja["id"], keys[0], want[keys[0]]],
    )
    after = (await gm.evaluate("window.taku.state"))["characters"][ninja["id"]]["sheet"]
    assert after["abilities"] == want
    # a scalar goes back to the one-line box
    await gm.select_option("#ov-path", index=1)  # the first numeric value
    assert await gm.locator("#ov-value-row").is_visible()
    assert (await gm.input_value("#ov-value")).isdigit()
    assert await nested.locator("input").count() == 0
    # an emptied box for a number is refused in Japanese, not sent as 0
    await gm.select_option("#ov-path", label="ニンジャ: ＨＰ")
    hp = after["hp"]
    assert hp > 0
    seq = int(await gm.evaluate("document.body.dataset.seq"))
    await gm.fill("#ov-value", "")
    await gm.click("#ov-submit")
    await gm.locator("#toasts :text('数を入力してください')").wait_for()
    assert int(await gm.evaluate("document.body.dataset.seq")) == seq
    assert (await gm.evaluate("window.taku.state"))["characters"][ninja["id"]]["sheet"]["hp"] == hp


async def test_gm_override_of_a_text_field_keeps_number_like_text(
    scripted_server: Any, open_page: Any
) -> None:
    """chabu: "007" typed for the sheet's メモ (a string in the schema) is set as the text
    "007", not as the number 7."""
    from .test_web_sessions import from_template

    gm = await create_table(open_page, scripted_server.http_url, ruleset="chabu")
    await from_template(gm, "PCのひな形", "ニンジャ")
    (cid,) = (await gm.evaluate("window.taku.state"))["characters"]
    await gm.click("#gm-tools > summary")
    key = json.dumps(["characters", cid, "sheet", "notes"])
    # as a click on the value in the character's sheet does: the path in the select
    await gm.evaluate(
        """(key) => { const ov = document.querySelector('#ov-path');
             const o = document.createElement('option'); o.value = key; o.textContent = 'メモ';
             ov.append(o); ov.value = key; ov.dispatchEvent(new Event('change')); }""",
        key,
    )
    assert await gm.locator("#ov-value-row").is_visible()
    await gm.fill("#ov-value", "007")
    seq = int(await gm.evaluate("document.body.dataset.seq"))
    await gm.click("#ov-submit")
    await wait_seq(gm, seq + 1)
    notes = (await gm.evaluate("window.taku.state"))["characters"][cid]["sheet"]["notes"]
    assert notes == "007"


async def test_on_a_desktop_the_chat_stays_on_screen_and_play_comes_first(
    scripted_server: Any, open_page: Any
) -> None:
    """nstrpg at 1280×800 with two ninjas: the page itself does not scroll (the side column
    scrolls inside itself), so with the side column scrolled to its end the chat log and
    input are still on screen; 今できる手 is the first panel, the GM's map editor is folded,
    the ruleset's full command list is one folded group."""
    gm = await create_table(
        open_page, scripted_server.http_url, ruleset="nstrpg", width=1280, height=800
    )
    await make_character(gm, "ヤモト")
    await gm.wait_for_selector("#state-panels .card:has-text('ヤモト')")
    await gm.click("#actions details[data-command='create_character'] > summary")  # fold it
    await make_character(gm, "フジキド")
    await gm.wait_for_selector("#state-panels .card:has-text('フジキド')")
    side = gm.locator("#live-side")
    assert await side.evaluate("(e) => e.scrollHeight > e.clientHeight")  # long enough to scroll
    await side.evaluate("(e) => { e.scrollTop = e.scrollHeight; }")
    await gm.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    assert await gm.evaluate("document.documentElement.scrollHeight") <= 800
    for sel in ("#chat-input", "#log"):
        box = await gm.locator(sel).bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + min(box["height"], 40) <= 800, sel
    first = gm.locator("#state-panels > *").first
    assert await first.get_attribute("aria-label") == "今できる手"
    assert await gm.get_attribute("[data-testid='map-editor']", "open") is None
    assert await gm.get_attribute("#actions details.cmd-all", "open") is None


async def test_a_player_who_makes_a_character_speaks_as_it_and_sees_the_chat(
    scripted_server: Any, open_page: Any
) -> None:
    """On a phone: after 作る the speaker is the new character (its チャットパレット shows at
    once) and the page is back at the chat, not deep in the sheet form."""
    from .test_web_sessions import from_template

    gm = await create_table(open_page, scripted_server.http_url, ruleset="nstrpg")
    link = await gm.input_value("#invite-player")
    pl = await join_as(open_page, link, "アカネ")
    await pl.set_viewport_size({"width": 390, "height": 844})
    await from_template(pl, "駆け出しのニンジャ（PC）", "ヤモト")
    state = await pl.evaluate("window.taku.state")
    (cid,) = [c["id"] for c in state["characters"].values() if c["name"] == "ヤモト"]
    await pl.wait_for_function("(cid) => document.querySelector('#chat-as').value === cid", arg=cid)
    await pl.locator("#palette button.palette-line").first.wait_for()
    box = await pl.evaluate(
        """() => { const r = document.querySelector('#chat-form').getBoundingClientRect();
                   return {top: r.top, bottom: r.bottom, vh: window.innerHeight}; }"""
    )
    assert 0 <= box["top"] and box["bottom"] <= box["vh"], box


async def test_hiden_conditions_form_asks_for_the_character_first(
    scripted_server: Any, open_page: Any
) -> None:
    """hiden: 「疲労・酒の状態を決める」: the キャラクター select comes first, above the tall group
    of conditions (the GM picks whom before what)."""
    gm = await create_table(open_page, scripted_server.http_url, ruleset="hiden")
    await gm.evaluate(
        """() => window.taku.conn.command(window.taku.tableId,
             {type: "create_character", name: "甲", sheet: {}})"""
    )
    form = gm.locator(".legal-moves form[data-command='hiden.set_conditions']")
    await form.wait_for()
    where = await form.evaluate(
        """(f) => { const sel = f.querySelector('select').getBoundingClientRect();
                    const box = f.querySelector('fieldset').getBoundingClientRect();
                    return {sel: sel.bottom, box: box.top, tall: box.height}; }"""
    )
    assert where["tall"] > 100 and where["sel"] <= where["box"] + 1, where
    # the same command in the GM's full list (ルールのコマンド): キャラクター first too
    await _open_every_form(gm)
    full = gm.locator("#actions details[data-command='hiden.set_conditions'] form")
    where = await full.evaluate(
        """(f) => { const sel = f.querySelector('select').getBoundingClientRect();
                    const box = f.querySelector('fieldset').getBoundingClientRect();
                    return {sel: sel.bottom, box: box.top, tall: box.height}; }"""
    )
    assert where["tall"] > 100 and where["sel"] <= where["box"] + 1, where


async def test_nstrpg_state_tree_fits_a_phone(scripted_server: Any, open_page: Any) -> None:
    """nstrpg on a phone (390×844) with the 「状態（ルールセットのビュー）」 panel open and a
    fight going: nothing scrolls sideways."""
    from .test_web_sessions import click_move, from_template

    gm = await open_page(scripted_server.http_url, width=390, height=844)
    await gm.select_option("#ruleset", "nstrpg")
    await gm.click("#create-submit")
    await gm.wait_for_selector("body[data-seq]")
    await close_invites(gm)
    await from_template(gm, "駆け出しのニンジャ（PC）", "ヤモト・コキ")
    await click_move(gm, "モブ敵を作る（クローンヤクザ）（1人）")
    await gm.locator("#state-panels .card:has-text('クローンヤクザ')").wait_for()
    await click_move(gm, "戦闘を始める")
    await gm.evaluate("document.querySelector('#state-panels .state-panel').open = true")
    await gm.locator("#state-panels .state-panel dt").first.wait_for()
    width = await gm.evaluate("document.documentElement.scrollWidth")
    wide = await gm.evaluate(
        """() => [...document.querySelectorAll('#state-panels .state-panel *')]
                  .filter((e) => e.getBoundingClientRect().right > window.innerWidth)
                  .slice(0, 5).map((e) => e.tagName + ':' + e.textContent.slice(0, 40))"""
    )
    assert width <= 390, (width, wide)
    # a character's id is shown as its name
    keys = await gm.locator("#state-panels .state-panel dt").all_inner_texts()
    assert "ヤモト・コキ" in keys and not any(re.fullmatch(r"c\d+", k) for k in keys), keys


async def test_a_character_cards_sheet_shows_the_schemas_labels(
    scripted_server: Any, open_page: Any
) -> None:
    """rv2: the card's シート tree named its keys raw (karate, attack_bonus …) for everyone;
    it names them by the sheet schema's titles (【カラテ】), as the sheet form does."""
    gm = await create_table(open_page, scripted_server.http_url, ruleset="nstrpg")
    pl = await join_as(open_page, await gm.input_value("#invite-player"), "たろう")
    await wait_seq(gm, 3)
    await make_character(pl, "ヤモト・コキ")
    for page in (gm, pl):
        card = page.locator("#state-panels .card:has-text('ヤモト・コキ')")
        await card.wait_for()
        await page.evaluate(
            "document.querySelectorAll('#state-panels details').forEach((d) => { d.open = true; })"
        )
        keys = await card.locator("details.sheet dt").all_inner_texts()
        assert "【カラテ】" in keys, keys
        raw = [k for k in keys if re.fullmatch(r"[a-z_]+", k.strip())]
        assert not raw, raw
