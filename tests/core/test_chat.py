"""Chat: channels, whispers (hidden in every path), colours and チャットパレット, speakers."""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest

from taku.core.commands import (
    AddChannel,
    Chat,
    CreateCharacter,
    RemoveCharacter,
    RollDice,
    SetChatPalette,
)
from taku.core.events import ChannelAdded, ChatPaletteSet, ChatPosted, DiceRolled
from taku.errors import Forbidden, TakuError
from taku.testing.harness import TableHarness


async def _table(ruleset: str = "generic", faces: tuple[int, ...] = ()) -> tuple[Any, ...]:
    h = await TableHarness.create(ruleset, faces=faces)
    a, b = await h.join("アカネ"), await h.join("ブンタ")
    s = await h.join("観客", role="spectator")
    return h, a, b, s


def _at(frames: list[dict[str, Any]], seq: int) -> dict[str, Any]:
    return next(f for f in frames if f["seq"] == seq)


async def test_the_default_channels_and_a_gm_added_one() -> None:
    h, a, _, _ = await _table()
    assert h.view(a)["chat"]["channels"] == ["メイン", "情報", "雑談"]
    (line,) = await h.send(a, Chat(text="おなかすいた", channel="雑談"))
    assert isinstance(line, ChatPosted) and line.channel == "雑談"
    (main,) = await h.send(a, Chat(text="よろしく", channel="メイン"))
    assert main.channel == ""  # メイン is stored as before channels existed
    err = await h.rejected(a, AddChannel(name="作戦"))
    assert isinstance(err, Forbidden)
    err = await h.rejected(a, Chat(text="x", channel="作戦"))
    assert err.code == "command/unknown_channel" and "作戦" in err.message
    (added,) = await h.send(h.gm, AddChannel(name=" 作戦 "))
    assert added == ChannelAdded(name="作戦")
    assert h.view(None)["chat"]["channels"] == ["メイン", "情報", "雑談", "作戦"]
    (line,) = await h.send(a, Chat(text="右から回る", channel="作戦"))
    assert line.channel == "作戦"
    frame = (await h.frames(None))[-1]
    assert frame["text"] == "[作戦] アカネ: 右から回る"
    for name in ("作戦", "雑談", "観戦", "メイン"):
        err = await h.rejected(h.gm, AddChannel(name=name))
        assert err.code == "command/channel_exists", name
    assert (await h.rejected(h.gm, AddChannel(name="　"))).code == "command/invalid_name"
    await h.assert_replay_matches()
    assert (await h.replay()).chat.channels[-1] == "作戦"


async def test_a_dice_line_lands_in_its_channel() -> None:
    h, a, _, _ = await _table(faces=(3, 4))
    (roll,) = await h.send(a, Chat(text="2D6>=7", channel="情報"))
    assert isinstance(roll, DiceRolled) and roll.channel == "情報" and roll.total == 7


async def test_a_whisper_is_seen_by_its_recipients_and_the_gm_only() -> None:
    h, a, b, s = await _table()
    c = await h.join("チヨ")
    (line,) = await h.send(a, Chat(text="実は裏切り者です", to=[b]))
    assert isinstance(line, ChatPosted) and line.to == (b,)
    seq = h.state.seq
    for who in (a, b, h.gm):
        f = _at(await h.frames(who), seq)
        assert not f.get("redacted") and f["event"]["text"] == "実は裏切り者です", who
        assert f["text"] == "[内緒話→ブンタ] アカネ: 実は裏切り者です"
        assert set(f["audience"]) == {a, b, "@gm"}
    for who in (c, s, None):
        f = _at(await h.frames(who), seq)
        assert f.get("redacted") and f["event"] == {
            "type": "redacted",
            "of": "chat_posted",
            "note": "内緒話",
        }
        assert "裏切り" not in json.dumps(f, ensure_ascii=False) and "audience" not in f
    # every export is the public's view
    for fmt in ("text", "jsonl", "html"):
        assert "裏切り" not in await h.table.export(fmt), fmt
    await h.assert_replay_matches()


async def test_a_whispered_roll_is_hidden_like_a_secret_roll() -> None:
    h, a, b, s = await _table(faces=(6, 5))
    (roll,) = await h.send(a, Chat(text="2D6 こっそり", to=[h.gm]))
    assert isinstance(roll, DiceRolled) and roll.to == (h.gm,) and not roll.secret
    seq = h.state.seq
    assert _at(await h.frames(h.gm), seq)["event"]["rolls"][0]["faces"] == [6, 5]
    for who in (b, s, None):
        f = _at(await h.frames(who), seq)
        assert f.get("redacted") and "rolls" not in f["event"], who
        assert f["draws"] == 2  # the stream stays verifiable: the faces are counted
    # S and a whisper: the narrower audience (the roller and the GM) wins
    h.roll(1)
    await h.send(a, Chat(text="S1D6", to=[b]))
    assert _at(await h.frames(b), h.state.seq).get("redacted")


async def test_whisper_recipients_must_be_members() -> None:
    h, a, _, _ = await _table()
    err = await h.rejected(a, Chat(text="やあ", to=["m999"]))
    assert err.code == "command/unknown_member"


async def test_a_spectator_cannot_whisper_even_where_spectators_may_chat() -> None:
    h, a, _, s = await _table()
    assert isinstance(await h.rejected(s, Chat(text="ねえ", to=[a])), Forbidden)


async def test_a_palette_is_edited_by_its_owner_or_the_gm_only() -> None:
    h, a, b, s = await _table()
    (created,) = await h.send(a, CreateCharacter(name="アカネ丸", sheet={"karate": 5}))
    cid = created.character_id
    default = h.view(a)["chat"]["palettes"][cid]
    assert default["palette"] == "" and default["color"].startswith("#")
    (ev,) = await h.send(a, SetChatPalette(character_id=cid, palette="2D6+{karate} 攻撃\n挨拶"))
    assert ev == ChatPaletteSet(character_id=cid, color="", palette="2D6+{karate} 攻撃\n挨拶")
    (ev,) = await h.send(h.gm, SetChatPalette(character_id=cid, color="#A04000"))
    assert ev.color == "#a04000" and ev.palette.startswith("2D6")  # a left-out field is kept
    assert h.view(b)["chat"]["palettes"][cid] == {"color": "#a04000", "palette": ev.palette}
    assert isinstance(await h.rejected(b, SetChatPalette(character_id=cid, palette="x")), Forbidden)
    assert isinstance(await h.rejected(s, SetChatPalette(character_id=cid, palette="x")), Forbidden)
    err = await h.rejected(a, SetChatPalette(character_id=cid, color="#a04000"))
    assert err.code == "command/no_effect"
    # the colour travels with every line spoken as the character
    await h.send(a, Chat(text="いざ", character_id=cid))
    frame = (await h.frames(b))[-1]
    assert frame["speaker"] == {
        "name": "アカネ丸",
        "member_id": a,
        "character_id": cid,
        "color": "#a04000",
    }
    await h.assert_replay_matches()
    await h.send(a, RemoveCharacter(character_id=cid))
    assert cid not in h.view(a)["chat"]["palettes"] and cid not in h.state.chat.profiles


async def test_a_bad_colour_is_refused_by_the_schema() -> None:
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert(
            {"type": "set_chat_palette", "character_id": "c1", "color": "red"},
            SetChatPalette,
        )


async def test_sheet_references_are_resolved_by_key_and_by_japanese_title() -> None:
    h = await TableHarness.create("nstrpg", faces=(6, 6, 1, 1, 1))
    a = await h.join("フジキド")
    (created,) = await h.send(a, CreateCharacter(name="ニンジャスレイヤー", sheet={"karate": 5}))
    cid = created.character_id
    (line,) = await h.chat(a, "カラテは{カラテ}、{karate}、{ない}", character_id=cid)
    assert isinstance(line, ChatPosted) and line.text == "カラテは5、5、{ない}"
    (roll,) = await h.chat(a, "{カラテ}B6>=4", character_id=cid)
    assert isinstance(roll, DiceRolled) and [r.faces for r in roll.rolls] == [(6, 6, 1, 1, 1)]
    (plain,) = await h.chat(a, "{カラテ}")  # spoken as nobody: nothing to read from
    assert plain.text == "{カラテ}"


@pytest.mark.parametrize("line", ["N{カラテ}", "SN2"])
async def test_a_ruleset_s_roll_spoken_as_a_character_is_the_character_s(line: str) -> None:
    """nstrpg's own dice forms on a line spoken as a character are drawn as that
    character's line (name and colour), as the generic dice are; the GM sees the
    secret one the same way."""
    h = await TableHarness.create("nstrpg", faces=(6, 5, 4, 1, 2))
    a = await h.join("フジキド")
    (created,) = await h.send(a, CreateCharacter(name="ニンジャスレイヤー", sheet={"karate": 5}))
    cid = created.character_id
    (roll,) = await h.chat(a, line, character_id=cid)
    assert isinstance(roll, DiceRolled) and roll.character_id == cid
    for who in (a, h.gm):
        frame = _at(await h.frames(who), h.state.seq)
        assert frame["speaker"]["character_id"] == cid and frame["speaker"]["color"], frame
        assert frame["speaker"]["name"] == "ニンジャスレイヤー"
    await h.assert_replay_matches()


@pytest.mark.parametrize(
    ("ruleset", "line", "faces"),
    [
        ("nstrpg", "N4", (6, 5, 4, 1)),
        ("chabu", "1D100<=50", (42,)),
        ("yodomi", "2D9", (3, 4)),
        ("hiden", "2D6", (3, 4)),
        ("shadowjan", "N3", (6, 1, 2)),
    ],
)
async def test_every_ruleset_s_roll_line_names_who_rolled(
    ruleset: str, line: str, faces: tuple[int, ...]
) -> None:
    h = await TableHarness.create(ruleset, faces=faces)
    a = await h.join("フジキド")
    await h.chat(a, line)
    frame = (await h.frames(None))[-1]
    assert frame["speaker"]["name"] == "フジキド", frame
    assert frame["text"].startswith("フジキド"), frame["text"]
    assert "{roller}" not in frame["text"]


@pytest.mark.parametrize(
    ("ruleset", "expression", "faces"),
    [
        ("nstrpg", "N4", (6, 5, 4, 1)),
        ("chabu", "1D100<=50", (42,)),
        ("yodomi", "2D9", (3, 4)),
        ("hiden", "HDT", ()),
        ("shadowjan", "N3", (6, 1, 2)),
        ("generic", "2D6>=7", (3, 4)),
    ],
)
async def test_the_gm_s_secret_dice_box_takes_the_ruleset_s_own_commands(
    ruleset: str, expression: str, faces: tuple[int, ...]
) -> None:
    h = await TableHarness.create(ruleset, faces=faces)
    a = await h.join("フジキド")
    events = await h.send(h.gm, RollDice(expression=expression, secret=True))
    assert events
    seq = h.state.seq
    assert not _at(await h.frames(h.gm), seq).get("redacted")
    assert _at(await h.frames(a), seq).get("redacted")
    assert _at(await h.frames(None), seq).get("redacted")


async def test_the_secret_box_takes_a_line_with_the_prefix_too() -> None:
    h = await TableHarness.create("nstrpg", faces=(6, 5, 4, 1))
    a = await h.join("フジキド")
    await h.send(h.gm, RollDice(expression="SN4", secret=True))
    assert not _at(await h.frames(h.gm), h.state.seq).get("redacted")
    assert _at(await h.frames(a), h.state.seq).get("redacted")


async def test_a_roll_that_nothing_reads_is_still_a_dice_error() -> None:
    h = await TableHarness.create("nstrpg")
    err = await h.rejected(h.gm, RollDice(expression="ほげ", secret=True))
    assert isinstance(err, TakuError) and err.code.startswith("dice/")


@pytest.mark.parametrize(
    ("ruleset", "line", "faces", "outcome"),
    [
        ("nstrpg", "WS8", (2, 3), "success"),  # 判定成功!! Ninja Slayer enters
        ("nstrpg", "WS8", (4, 5), "failure"),  # 判定失敗
        ("hiden", "HDT", (), None),  # a table: no success, no failure
        ("generic", "2D6>=7", (3, 4), "success"),
        ("generic", "2D6", (3, 4), None),
    ],
)
async def test_the_outcome_is_the_event_s_own(
    ruleset: str, line: str, faces: tuple[int, ...], outcome: str | None
) -> None:
    h = await TableHarness.create(ruleset, faces=faces)
    await h.chat(h.gm, line)
    frame = (await h.frames(None))[-1]
    assert frame.get("outcome") == outcome, frame["text"]
    if outcome == "success":
        assert "失敗" not in frame["text"]


def test_a_chat_stored_before_channels_keeps_its_fingerprint() -> None:
    """A chat an older taku stored and a client sends again with the same id is still
    the same command (``duplicate``), not ``command/id_reused``: channel and to, while
    default, are not part of the fingerprint; set, they are."""
    import hashlib

    from taku.core.commands import Command, fingerprint

    class ChatBefore(Command, frozen=True, kw_only=True, tag="chat"):
        text: str
        character_id: str | None = None

    canonical = msgspec.json.Encoder(order="deterministic").encode
    for cid in (None, "c4"):
        before = hashlib.blake2b(
            canonical(ChatBefore(text="やあ", character_id=cid)), digest_size=16
        ).hexdigest()
        assert fingerprint(Chat(text="やあ", character_id=cid)) == before
        assert fingerprint(Chat(text="やあ", character_id=cid, channel="雑談")) != before
        assert fingerprint(Chat(text="やあ", character_id=cid, to=["m2"])) != before
    assert fingerprint(Chat(text="x", to=["m2"])) != fingerprint(Chat(text="x", to=["m3"]))


async def test_the_speaker_of_a_core_event_about_a_character_is_the_member() -> None:
    h, a, _, _ = await _table(faces=(3, 4))
    (created,) = await h.send(a, CreateCharacter(name="アカネ丸"))
    assert (await h.frames(None))[-1]["speaker"] == {"name": "アカネ", "member_id": a}
    await h.send(a, Chat(text="2D6", character_id=created.character_id))
    assert (await h.frames(None))[-1]["speaker"]["name"] == "アカネ丸"


@pytest.mark.parametrize(
    ("ruleset", "line", "faces"),
    [("yodomi", "2D9", (3, 4)), ("chabu", "CH<=50", (4, 2)), ("nstrpg", "N3", (6, 5, 4))],
)
async def test_a_ruleset_s_roll_in_a_whisper_is_hidden_from_the_others(
    ruleset: str, line: str, faces: tuple[int, ...]
) -> None:
    h = await TableHarness.create(ruleset, faces=faces)
    a, b, c = await h.join("アカネ"), await h.join("ブンタ"), await h.join("チヨ")
    events = await h.send(a, Chat(text=line, to=[b]))
    assert events and all(not isinstance(e, ChatPosted) for e in events)
    seq = h.state.seq
    for who in (a, b, h.gm):
        f = _at(await h.frames(who), seq)
        assert not f.get("redacted") and set(f["audience"]) == {a, b, "@gm"}, who
    for who in (c, None):
        f = _at(await h.frames(who), seq)
        assert f.get("redacted") and f["event"]["note"] == "内緒話", who


@pytest.mark.parametrize(
    ("ruleset", "line", "faces"),
    [
        ("yodomi", "2D9>=10 調査", (5, 6)),
        ("chabu", "CH50", (2, 3)),
        ("chabu", "CH50VS40", (2, 3, 4, 5)),
        ("hiden", "HD+1>=8", (3, 4)),
        ("hiden", "HD+1VS+2", (3, 4, 5, 6)),
        ("nstrpg", "N4", (6, 5, 4, 3)),
        ("shadowjan", "N2", (6, 5)),
    ],
)
async def test_a_ruleset_s_roll_typed_in_a_channel_lands_there(
    ruleset: str, line: str, faces: tuple[int, ...]
) -> None:
    h = await TableHarness.create(ruleset, faces=faces)
    a = await h.join("アカネ")
    events = await h.send(a, Chat(text=line, channel="情報"))
    assert events and all(getattr(e, "channel", None) == "情報" for e in events), events
    frame = (await h.frames(None))[-1]
    assert frame["event"]["channel"] == "情報" and frame["text"].startswith("[情報] "), frame
    # the HTML log puts it under the 情報 tab (メイン is ch-0, 情報 ch-1)
    assert f'<li class="ch-1 line" data-seq="{frame["seq"]}">' in await h.table.export("html")
    # the same line in メイン leaves the field out of the stored event (old logs read the same)
    h.roll(*faces)
    await h.send(a, Chat(text=line))
    assert "channel" not in (await h.frames(None))[-1]["event"]
    await h.assert_replay_matches()


@pytest.mark.parametrize(
    ("ruleset", "first"),
    [
        ("nstrpg", "N{カラテ} 近接攻撃判定（【カラテ】）"),
        ("shadowjan", "N{カラテ} 【カラテ】判定"),
        ("chabu", "CH<="),
        ("hiden", "HD"),
        ("yodomi", "2D9+"),
    ],
)
async def test_every_ruleset_seeds_a_palette_from_the_sheet_whose_lines_roll(
    ruleset: str, first: str
) -> None:
    """A character with no palette of its own gets the ruleset's (``default``, from its
    sheet, ココフォリア style); every line of it is a command of the ruleset when sent as
    the character ({カラテ} replaced by the sheet's value); saving a palette replaces it."""
    h = await TableHarness.create(ruleset, faces=[3] * 400)
    a = await h.join("アカネ")
    rs = h.table.ruleset
    template = rs.sheet_templates[0]
    (created,) = await h.send(a, CreateCharacter(name="アカネ丸", sheet=template.sheet))
    cid = created.character_id
    entry = h.view(a)["chat"]["palettes"][cid]
    assert entry["palette"] == "" and entry["default"].startswith(first), entry
    lines = entry["default"].splitlines()
    assert len(lines) >= 3
    for line in lines:
        events = await h.send(a, Chat(text=line, character_id=cid))
        # a command of the ruleset (a roll, a reroll, a table), not the line as plain chat
        assert events and not (isinstance(events[0], ChatPosted) and events[0].text == line), (
            line,
            events,
        )
    await h.send(a, SetChatPalette(character_id=cid, palette="2D6 自分の"))
    assert h.view(a)["chat"]["palettes"][cid]["palette"] == "2D6 自分の"
