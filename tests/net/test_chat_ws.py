"""Whispers and channels over real WebSocket connections: the live stream, resume, get_log,
the export_log download and the ``taku export`` command all keep a whisper hidden."""

from __future__ import annotations

import json

from taku.testing.peer import Raw, new_table


async def _join(peer: Raw, created: dict, name: str, role: str = "player") -> dict:
    token = created["player_token"] if role == "player" else created["spectator_token"]
    joined = await peer.request(
        {"type": "join", "table_id": created["table_id"], "token": token, "name": name}
    )
    assert joined["type"] == "joined", joined
    return joined


SECRET = "合言葉はスシ"


async def test_a_whisper_stays_hidden_live_after_resume_in_the_log_and_in_exports(
    connect,
) -> None:
    gm, a, b, spec = await connect(), await connect(), await connect(), await connect()
    created = await new_table(gm)
    tid = created["table_id"]
    ja = await _join(a, created, "アカネ")
    jb = await _join(b, created, "ブンタ")
    await _join(spec, created, "観客", role="spectator")
    for p in (gm, a, b, spec):
        assert (await p.request({"type": "subscribe", "table_id": tid}))["type"] == "subscribed"
    ack = await a.request(
        {
            "type": "chat",
            "table_id": tid,
            "text": SECRET,
            "to": [created["member_id"]],
            "channel": "雑談",
        }
    )
    assert ack["type"] == "ack", ack
    seq = ack["first_seq"]
    for p in (gm, a):
        (e,) = [e for e in await p.until_seq(seq) if e["seq"] == seq]
        assert e["event"]["text"] == SECRET and e["event"]["channel"] == "雑談"
    for p in (b, spec):
        (e,) = [e for e in await p.until_seq(seq) if e["seq"] == seq]
        assert e["redacted"] and SECRET not in json.dumps(e, ensure_ascii=False)
    # b drops and resumes from before the whisper: still redacted
    await b.close()
    back = await connect()
    await back.request({"type": "join", "table_id": tid, "token": jb["member_token"]})
    await back.request({"type": "subscribe", "table_id": tid, "after_seq": seq - 1})
    (e,) = [e for e in await back.until_seq(seq) if e["seq"] == seq]
    assert e["redacted"]
    log = await back.request({"type": "get_log", "table_id": tid, "after_seq": 0})
    assert SECRET not in json.dumps(log, ensure_ascii=False)
    mine = await a.request({"type": "get_log", "table_id": tid, "after_seq": 0})
    assert SECRET in json.dumps(mine, ensure_ascii=False)
    # html and text (to share) are the public's view, even for the GM and the whisperer;
    # jsonl (to verify) is what each received: the whisper for the whisperer and the GM,
    # its stand-in for everyone else
    for p, sees in ((gm, True), (a, True), (back, False), (spec, False)):
        for fmt in ("html", "text", "jsonl"):
            got = await p.request({"type": "export_log", "table_id": tid, "format": fmt})
            assert got["type"] == "exported" and got["filename"].startswith(tid), got
            shown = sees and fmt == "jsonl"
            assert (SECRET in got["content"]) is shown, (fmt, sees, ja)
            if not shown:
                assert "内緒話" in got["content"]
    html = (await gm.request({"type": "export_log", "table_id": tid}))["content"]
    assert html.startswith("<!doctype html>") and created["table_id"] in html


async def test_an_unknown_channel_is_refused_over_the_wire(connect) -> None:
    gm = await connect()
    created = await new_table(gm)
    err = await gm.request(
        {"type": "chat", "table_id": created["table_id"], "text": "x", "channel": "ない"}
    )
    assert err["type"] == "error" and err["code"] == "command/unknown_channel"
    assert err["message"] == "チャンネル「ない」はありません"


async def test_export_log_needs_a_join(connect) -> None:
    gm, other = await connect(), await connect()
    created = await new_table(gm)
    err = await other.request({"type": "export_log", "table_id": created["table_id"]})
    assert err["type"] == "error" and err["code"] == "protocol/not_joined"


def test_taku_export_html_from_the_command_line(tmp_path, capsys) -> None:
    """``taku export --format html`` writes the same page: coloured speakers, dice faces,
    the seed hash in the footer, no secret roll and no whisper."""
    import asyncio

    from taku.app import Hub
    from taku.core.commands import Chat, CreateCharacter, SetChatPalette
    from taku.plugins import load_registry
    from taku.store import open_store

    db = tmp_path / "t.db"

    async def make() -> tuple[str, str]:
        store = open_store(str(db))
        await store.open()
        hub = Hub(store, load_registry())
        c = await hub.create_table(ruleset="generic", name="月曜卓", options={}, gm_name="GM")
        j = await hub.join(c.table_id, c.player_token, "アカネ")
        t = await hub.table(c.table_id)
        n = iter(range(100))

        async def run(member: str, cmd: object) -> None:
            await t.execute(member, cmd, command_id=f"x{next(n)}")  # type: ignore[arg-type]

        await run(j.member_id, CreateCharacter(name="アカネ丸"))
        cid = next(iter(t.state.characters))
        await run(j.member_id, SetChatPalette(character_id=cid, color="#117a65"))
        await run(j.member_id, Chat(text="2D6>=7 いくぞ", character_id=cid))
        await run(j.member_id, Chat(text="S1D100 ひみつの出目"))
        await run(j.member_id, Chat(text="内緒の本文", to=[c.member_id]))
        seed_hash = t.state.seed_hash
        await hub.close()
        await store.close()
        return c.table_id, seed_hash

    tid, seed_hash = asyncio.run(make())
    from taku.cli import main

    assert main(["export", "--db", str(db), tid, "--format", "html"]) == 0
    out = capsys.readouterr().out
    out = out[out.index("<!doctype html>") :]  # after the log lines of making the table
    assert out.startswith("<!doctype html>")
    assert '<span class="who" style="color:#117a65">アカネ丸</span>' in out
    assert 'class="die' in out and "2D6" in out
    assert seed_hash in out
    assert "ひみつの出目" not in out and "内緒の本文" not in out
    assert "シークレットダイス" in out and "内緒話" in out
    for label in ("メイン", "情報", "雑談"):
        assert f">{label}</label>" in out


async def test_a_players_download_is_their_own_view_and_verifies(connect) -> None:
    """A player's ``export_log`` jsonl is what they received (``taku export --as``): their
    own secret roll in full, with its salt, checked by ``taku verify``; another player's
    secret roll only as its stand-in, named as not checked."""
    from taku.plugins import load_registry
    from taku.verify import lines_from_export, verify_log

    gm, a, b = await connect(), await connect(), await connect()
    created = await new_table(gm)
    tid = created["table_id"]
    await _join(a, created, "アカネ")
    await _join(b, created, "ブンタ")
    for p in (gm, a, b):
        await p.request({"type": "subscribe", "table_id": tid, "after_seq": 0})
    mine = await a.request({"type": "chat", "table_id": tid, "text": "S2D6 アカネの秘密"})
    theirs = await b.request({"type": "chat", "table_id": tid, "text": "S3D6 ブンタの秘密"})
    assert mine["type"] == theirs["type"] == "ack", (mine, theirs)
    reveal = await gm.request(
        {
            "type": "command",
            "table_id": tid,
            "command_id": "rv1",
            "command": {"type": "reveal_seed"},
        }
    )
    assert reveal["type"] == "ack", reveal
    got = await a.request({"type": "export_log", "table_id": tid, "format": "jsonl"})
    frames = [json.loads(x) for x in got["content"].splitlines()]
    by_seq = {f["seq"]: f for f in frames}
    own, other = by_seq[mine["first_seq"]], by_seq[theirs["first_seq"]]
    assert not own.get("redacted") and own.get("salt"), own
    assert "アカネの秘密" in got["content"]
    assert other.get("redacted") and "ブンタの秘密" not in got["content"]
    assert "salt" not in other and "command_salt" not in other, other
    report = verify_log(lines_from_export(got["content"]), load_registry())
    assert report.ok, [str(p) for p in report.problems]
    unchecked = {seq for seq, _ in report.unchecked}
    assert theirs["first_seq"] in unchecked and mine["first_seq"] not in unchecked, report.unchecked
