"""A third-party ruleset, installed from outside the taku packages, plays through a real server.

The example of docs/plugins.md (examples/taku-chinchiro) is installed with pip
into a folder of its own; `taku` finds it through the `taku.rulesets` entry
point only because that folder is on PYTHONPATH.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from taku.testing.peer import Raw, new_table

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "taku-chinchiro"

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """pip-install the example into its own folder; the environment that sees it."""
    import shutil

    target = tmp_path_factory.mktemp("site")
    source = tmp_path_factory.mktemp("src") / "taku-chinchiro"
    shutil.copytree(
        EXAMPLE, source, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__")
    )
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            "--no-build-isolation",
            "--target",
            str(target),
            str(source),
        ],
        check=True,
        capture_output=True,
    )
    assert (target / "taku_chinchiro").is_dir()
    return {**os.environ, "PYTHONPATH": str(target)}


def test_taku_lists_the_installed_ruleset(installed: dict[str, str]) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "taku.cli", "rulesets"],
        env=installed,
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0
    assert any(
        line.startswith("chinchiro ") and "チンチロリン" in line for line in out.stdout.splitlines()
    )


def test_the_example_passes_its_own_tests(installed: dict[str, str]) -> None:
    """The example's tests use taku's harness, as docs/plugins.md shows a third party."""
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            str(EXAMPLE / "tests"),
            "--rootdir",
            str(EXAMPLE),
        ],
        env=installed,
        capture_output=True,
        text=True,
        cwd=EXAMPLE,
    )
    assert out.returncode == 0, out.stdout + out.stderr


async def test_a_round_over_a_real_server(installed: dict[str, str], tmp_path: Path) -> None:
    """Create a chinchiro table, join, roll from the chat, close the round: all over WebSocket."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with open(tmp_path / "serve.log", "wb") as log:  # the child keeps its own copy
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "taku.cli",
                "serve",
                "--db",
                str(tmp_path / "t.db"),
                "--port",
                str(port),
            ],
            env=installed,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        for _ in range(200):
            try:
                _, w = await asyncio.open_connection("127.0.0.1", port)
                w.close()
                break
            except OSError:
                await asyncio.sleep(0.05)
        url = f"ws://127.0.0.1:{port}/ws"
        gm, pl = await Raw.connect(url), await Raw.connect(url)
        created = await new_table(gm, ruleset="chinchiro")
        tid = created["table_id"]
        await pl.request(
            {"type": "join", "table_id": tid, "token": created["player_token"], "name": "たろう"}
        )
        await gm.request({"type": "subscribe", "table_id": tid})
        acks = []
        for _ in range(3):
            reply = await pl.request({"type": "chat", "table_id": tid, "text": "チンチロ"})
            if reply["type"] == "error":
                assert reply["code"] == "rule/chinchiro/turn_over"
                break
            acks.append(reply)
        assert acks
        closed = await gm.request(
            {
                "type": "command",
                "table_id": tid,
                "command_id": "close1",
                "command": {"type": "chinchiro.close_round"},
            }
        )
        assert closed["type"] == "ack"
        events = await gm.until_seq(closed["last_seq"])
        rolled = [e for e in events if e["event"]["type"] == "chinchiro.rolled"]
        assert len(rolled) == len(acks) and all(
            len(e["event"]["roll"]["faces"]) == 3 for e in rolled
        )
        assert "チンチロリン！" in rolled[0]["text"]
        assert (
            events[-1]["event"]["type"] == "chinchiro.round_closed" and "勝ち" in events[-1]["text"]
        )
        state = await pl.request({"type": "get_state", "table_id": tid})
        assert state["state"]["game"]["round_no"] == 2 and state["state"]["ruleset"] == "chinchiro"
        await gm.close()
        await pl.close()
    finally:
        proc.terminate()
        await asyncio.to_thread(proc.wait, 30)
