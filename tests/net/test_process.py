"""The real `taku serve` process: SIGKILL durability, SIGTERM shutdown, and the CLI on its log."""

from __future__ import annotations

import asyncio
import json
import signal
import socket
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import websockets

from taku.testing.peer import Raw, new_table

pytestmark = pytest.mark.slow


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Serve:
    """`taku serve` in a child process on a free port."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    async def start(self) -> None:
        with open(self.db.parent / "serve.log", "ab") as out:
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "taku.cli",
                    "serve",
                    "--db",
                    str(self.db),
                    "--port",
                    str(self.port),
                    "--rate",
                    "10000",
                ],
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        for _ in range(200):
            try:
                r, w = await asyncio.open_connection("127.0.0.1", self.port)
                w.close()
                await w.wait_closed()
                return
            except OSError:
                await asyncio.sleep(0.05)
        raise AssertionError("taku serve did not start")

    async def kill(self, sig: int = signal.SIGKILL) -> int:
        """Signal the server and wait for it to exit (without blocking the event loop,
        so our clients can answer its closing handshake)."""
        assert self.proc is not None
        self.proc.send_signal(sig)
        return await asyncio.to_thread(self.proc.wait, 30)


@pytest.fixture
async def serve(tmp_path: Path) -> AsyncIterator[Serve]:
    s = Serve(tmp_path / "taku.db")
    yield s
    if s.proc is not None and s.proc.poll() is None:
        await s.kill()


async def run(*args: str) -> tuple[int, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "taku.cli", *args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    out, _ = await proc.communicate()
    return proc.returncode or 0, out.decode()


async def test_sigkill_loses_no_acknowledged_event(serve: Serve) -> None:
    """Killed with SIGKILL mid-stream and started again on the same SQLite file, the server
    has every acknowledged event, and the folded state equals the one seen before the kill."""
    await serve.start()
    gm = await Raw.connect(serve.ws_url)
    created = await new_table(gm)
    tid = created["table_id"]
    acked: list[int] = []
    writers_done = asyncio.Event()

    async def writer(peer: Raw, tag: str) -> None:
        i = 0
        try:
            while True:
                reply = await peer.request(
                    {"type": "chat", "table_id": tid, "text": f"{tag}{i}"}, timeout=5
                )
                if reply["type"] == "ack":
                    acked.append(reply["last_seq"])
                i += 1
        except Exception:  # noqa: BLE001 - the kill ends each writer, however it surfaces
            writers_done.set()

    players = []
    for n in range(3):
        p = await Raw.connect(serve.ws_url)
        await p.request(
            {"type": "join", "table_id": tid, "token": created["player_token"], "name": f"P{n}"}
        )
        players.append(p)
    tasks = [asyncio.create_task(writer(p, f"p{n}-")) for n, p in enumerate(players)]
    while len(acked) < 150:
        await asyncio.sleep(0.01)
    state_before = (await gm.request({"type": "get_state", "table_id": tid}))["state"]
    await serve.kill(signal.SIGKILL)
    await asyncio.gather(*tasks, return_exceptions=True)
    top_acked = max(acked)

    await serve.start()
    again = await Raw.connect(serve.ws_url)
    await again.request({"type": "join", "table_id": tid, "token": created["gm_token"]})
    log = await again.request({"type": "get_log", "table_id": tid, "limit": 5000})
    seqs = [e["seq"] for e in log["events"]]
    assert seqs == list(range(1, len(seqs) + 1))
    assert set(acked) <= set(seqs) and len(seqs) >= top_acked
    replayed = await again.request(
        {"type": "get_state", "table_id": tid, "at_seq": state_before["seq"]}
    )
    assert replayed["state"] == state_before
    await again.close()


async def test_sigterm_finishes_in_flight_commands_and_closes_with_1001(serve: Serve) -> None:
    """On SIGTERM the server stops accepting, acknowledges what it took in, and closes with 1001."""
    await serve.start()
    gm = await Raw.connect(serve.ws_url)
    tid = (await new_table(gm))["table_id"]
    sent = [
        json.dumps(
            {"type": "chat", "table_id": tid, "text": f"line {i}", "command_id": f"k{i}", "id": i}
        )
        for i in range(20)
    ]
    for frame in sent:
        await gm.send_raw(frame)
    await serve.kill(signal.SIGTERM)
    replies = []
    with pytest.raises(websockets.exceptions.ConnectionClosed):
        while True:
            replies.append(await gm._read(10))
    assert gm.ws.close_code == 1001  # type: ignore[attr-defined]
    acked = {m["command_id"] for m in replies if m["type"] == "ack"}
    assert serve.proc is not None and serve.proc.returncode == 0
    # whatever was acknowledged is in the log
    code, out = await run("export", "--db", str(serve.db), tid, "--format", "jsonl")
    assert code == 0
    logged = {json.loads(line)["command_id"] for line in out.splitlines()}
    assert acked <= logged


async def test_cli_replay_export_and_verify(serve: Serve, tmp_path: Path) -> None:
    """replay prints the state at a seq; export has no secrets; verify accepts the true log
    once the seed is revealed and rejects a copy with one die face changed."""
    await serve.start()
    gm = await Raw.connect(serve.ws_url)
    created = await new_table(gm)
    tid = created["table_id"]
    pl = await Raw.connect(serve.ws_url)
    await pl.request(
        {"type": "join", "table_id": tid, "token": created["player_token"], "name": "たろう"}
    )
    await pl.request({"type": "chat", "table_id": tid, "text": "3D6+1>=10 攻撃"})
    await gm.request({"type": "chat", "table_id": tid, "text": "S2D6 ひみつ"})
    await pl.request({"type": "chat", "table_id": tid, "text": "4B6>=4"})
    await gm.request({"type": "chat", "table_id": tid, "text": "D66"})
    early = await gm.request(
        {
            "type": "command",
            "table_id": tid,
            "command_id": "rv0",
            "command": {"type": "reveal_seed"},
        }
    )
    assert early["type"] == "ack"
    await gm.close()
    await pl.close()
    await serve.kill(signal.SIGTERM)

    code, out = await run("replay", "--db", str(serve.db), tid, "--to", "4")
    assert code == 0
    state = json.loads(out)
    assert state["seq"] == 4 and [m["name"] for m in state["members"].values()] == ["GM", "たろう"]

    code, text = await run("export", "--db", str(serve.db), tid, "--format", "text")
    assert code == 0 and "たろう: (3D6+1>=10)" in text and "攻撃" in text
    assert "ひみつ" not in text and "非公開" in text
    code, jsonl = await run("export", "--db", str(serve.db), tid, "--format", "jsonl")
    assert (
        "ひみつ" not in jsonl
        and created["gm_token"] not in jsonl
        and created["player_token"] not in jsonl
    )

    # tokens are kept only as hashes: not one of them is anywhere in the database file
    raw_db = b"".join(p.read_bytes() for p in serve.db.parent.glob("taku.db*"))
    for token in (created["gm_token"], created["player_token"], created["spectator_token"]):
        assert token.encode() not in raw_db

    code, out = await run("verify", "--db", str(serve.db), tid)
    assert code == 0 and out.startswith("検証成功 [VERIFIED]"), out
    exported = tmp_path / "log.jsonl"
    exported.write_text(jsonl, encoding="utf-8")
    code, out = await run("verify", str(exported))
    # the public export lacks the secret roll: never VERIFIED, PARTLY VERIFIED (exit 3) naming it
    assert code == 3 and out.startswith("一部のみ検証 [PARTLY VERIFIED]") and "非公開" in out, out

    # change one face of the first roll
    lines = jsonl.splitlines()
    for i, line in enumerate(lines):
        msg = json.loads(line)
        if msg["event"].get("type") == "dice_rolled":
            faces = msg["event"]["rolls"][0]["faces"]
            faces[0] = faces[0] % 6 + 1
            lines[i] = json.dumps(msg, ensure_ascii=False)
            break
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out = await run("verify", str(tampered))
    assert code == 1 and out.startswith("検証失敗 [NOT VERIFIED]") and "失敗 seq" in out, out


async def test_cli_refuses_a_replay_seq_outside_the_table_and_a_bad_link(tmp_path: Path) -> None:
    """`replay --to` past the table's end or below 1 is refused with one line, not
    silently clamped; `taku play` / `taku new` with something that is no link say so in
    one line, without a traceback."""
    from taku.app import Hub
    from taku.core.commands import Chat
    from taku.plugins import load_registry
    from taku.store import SQLiteEventStore

    db = tmp_path / "t.db"
    store = SQLiteEventStore(db)
    await store.open()
    hub = Hub(store, load_registry())
    created = await hub.create_table(ruleset="generic", name="卓")
    table = await hub.table(created.table_id)
    for i in range(9):
        await table.execute(created.member_id, Chat(text=f"{i}"), command_id=f"c{i}")
    await hub.close()
    await store.close()
    tid = created.table_id

    code, out = await run("replay", "--db", str(db), tid, "--to", "11")
    assert code == 0 and json.loads(out)["seq"] == 11
    code, out = await run("replay", "--db", str(db), tid, "--to", "999")
    assert code != 0 and "ends at seq 11" in out and "999" in out, out
    assert "{" not in out  # no state printed
    code, out = await run("replay", "--db", str(db), tid, "--to", "-3")
    assert code == 2 and "--to" in out and "{" not in out, out
    for command in ("play", "new"):
        code, out = await run(command, "hello")
        assert code == 2, out
        assert "Traceback" not in out and len(out.strip().splitlines()) == 1, out
        assert "'hello' is not a taku link" in out


async def test_verify_refuses_before_the_seed_is_revealed(serve: Serve) -> None:
    """Without the revealed seed, verify says so and fails."""
    await serve.start()
    gm = await Raw.connect(serve.ws_url)
    tid = (await new_table(gm))["table_id"]
    await gm.request({"type": "chat", "table_id": tid, "text": "2D6"})
    await gm.close()
    await serve.kill(signal.SIGTERM)
    code, out = await run("verify", "--db", str(serve.db), tid)
    assert code == 1 and "シードがまだ公開されていません" in out and "[verify/unrevealed]" in out


async def test_a_second_server_on_the_same_sqlite_file_is_refused(tmp_path: Path) -> None:
    """Two `taku serve` on one SQLite file would refuse each other's appends: the
    second one exits at once with a message saying so; the first goes on."""
    first = Serve(tmp_path / "one.db")
    await first.start()
    try:
        second = subprocess.run(
            [
                sys.executable,
                "-m",
                "taku.cli",
                "serve",
                "--db",
                str(first.db),
                "--port",
                str(free_port()),
            ],
            capture_output=True,
            timeout=60,
        )
        assert second.returncode != 0
        assert b"another taku serve is serving" in second.stderr
        gm = await Raw.connect(first.ws_url)
        assert (await new_table(gm))["type"] == "created"
        await gm.close()
    finally:
        await first.kill(signal.SIGTERM)


async def test_a_timer_expires_once_across_sigkill_and_restart(serve: Serve) -> None:
    """A 1 s timer set, the server killed with SIGKILL before its deadline: started again
    on the same file, it re-arms the timer from the log (nobody has the table open) and
    appends one timer_expired; killed and started once more, it appends no second one."""
    await serve.start()
    gm = await Raw.connect(serve.ws_url)
    created = await new_table(gm)
    tid = created["table_id"]
    ack = await gm.request(
        {
            "type": "command",
            "table_id": tid,
            "command_id": "t1",
            "command": {"type": "set_timer", "duration_s": 1, "label": "手番"},
        }
    )
    assert ack["type"] == "ack", ack
    await serve.kill(signal.SIGKILL)  # well before the deadline (1 s)

    await serve.start()
    again = await Raw.connect(serve.ws_url)
    await again.request({"type": "join", "table_id": tid, "token": created["gm_token"]})
    await again.request({"type": "subscribe", "table_id": tid, "after_seq": ack["last_seq"] - 1})
    set_, expired = (await again.until_seq(ack["last_seq"] + 1, timeout=15))[:2]
    assert expired["event"]["type"] == "timer_expired" and expired["command_id"] == "timer-timer3"
    # the deadline the log fixed before the kill, not one from the restart
    assert expired["event"]["deadline"] == set_["event"]["deadline"]
    await again.close()
    await serve.kill(signal.SIGKILL)

    await serve.start()
    last = await Raw.connect(serve.ws_url)
    await last.request({"type": "join", "table_id": tid, "token": created["gm_token"]})
    await last.quiet(0.3)
    log = await last.request({"type": "get_log", "table_id": tid, "limit": 100})
    types = [e["event"]["type"] for e in log["events"]]
    assert types.count("timer_set") == types.count("timer_expired") == 1
    await last.close()
