"""The real `taku serve` process (issue 19): `--drain-s` (on SIGTERM /readyz answers 503
while the players go on playing; a second SIGTERM stops it at once) and `--metrics-port`."""

from __future__ import annotations

import asyncio
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from taku.testing.peer import Raw, new_table

pytestmark = pytest.mark.slow


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return int(r.status)
    except urllib.error.HTTPError as e:
        e.close()
        return int(e.code)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _until_up(url: str) -> None:
    for _ in range(300):
        try:
            await asyncio.to_thread(_status, url)
            return
        except urllib.error.URLError:
            await asyncio.sleep(0.05)
    raise AssertionError(f"nothing answers {url}")


async def test_sigterm_drains_with_readyz_false_then_stops(tmp_path: Path) -> None:
    port = _free_port()
    with open(tmp_path / "serve.log", "wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "taku", "serve", "--db", "memory:", "--port", str(port),
             "--drain-s", "60"],
            stdout=out,
            stderr=subprocess.STDOUT,
        )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        await _until_up(base + "/readyz")
        assert await asyncio.to_thread(_status, base + "/readyz") == 200
        gm = await Raw.connect(f"ws://127.0.0.1:{port}/ws")
        tid = (await new_table(gm))["table_id"]
        proc.send_signal(signal.SIGTERM)
        for _ in range(300):
            if await asyncio.to_thread(_status, base + "/readyz") == 503:
                break
            await asyncio.sleep(0.02)
        else:
            raise AssertionError("/readyz stayed 200 after SIGTERM")
        # draining: the table goes on, and the store still answers /healthz
        reply = await gm.request({"type": "chat", "table_id": tid, "text": "2D6"})
        assert reply["type"] == "ack"
        assert await asyncio.to_thread(_status, base + "/healthz") == 200
        proc.send_signal(signal.SIGTERM)  # the second one ends the drain
        assert await asyncio.to_thread(proc.wait, 20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_metrics_port_serves_the_metrics_elsewhere(tmp_path: Path) -> None:
    port, metrics_port = _free_port(), _free_port()
    with open(tmp_path / "serve.log", "wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "taku", "serve", "--db", "memory:", "--port", str(port),
             "--metrics-port", str(metrics_port)],
            stdout=out,
            stderr=subprocess.STDOUT,
        )  # fmt: skip
    try:
        asyncio.run(_until_up(f"http://127.0.0.1:{port}/readyz"))
        assert _status(f"http://127.0.0.1:{port}/metrics") == 404
        with urllib.request.urlopen(f"http://127.0.0.1:{metrics_port}/metrics", timeout=5) as r:
            assert b"taku_connections_open" in r.read()
    finally:
        proc.terminate()
        assert proc.wait(20) == 0
    assert "loop: uvloop)" in (tmp_path / "serve.log").read_text()  # the default loop


def test_serve_runs_on_uvloop_unless_told_asyncio_and_can_time_stages(tmp_path: Path) -> None:
    """uvloop is the default event loop (a dependency); ``--loop asyncio`` opts out, and
    the startup line says which runs. ``--stage-timings`` adds the stage histograms."""
    from taku.cli import loop_factory

    uvloop = pytest.importorskip("uvloop")
    assert loop_factory("auto") is uvloop.new_event_loop
    assert loop_factory("asyncio") is None
    port = _free_port()
    with open(tmp_path / "serve.log", "wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "taku", "serve", "--db", str(tmp_path / "t.db"),
             "--port", str(port), "--loop", "asyncio", "--stage-timings"],
            stdout=out,
            stderr=subprocess.STDOUT,
        )  # fmt: skip
    try:
        asyncio.run(_until_up(f"http://127.0.0.1:{port}/readyz"))

        async def chat() -> None:
            gm = await Raw.connect(f"ws://127.0.0.1:{port}/ws")
            tid = (await new_table(gm))["table_id"]
            ack = await gm.request({"type": "chat", "table_id": tid, "text": "hi"})
            assert ack["type"] == "ack"
            await gm.close()

        asyncio.run(chat())
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as r:
            body = r.read().decode()
        assert 'taku_command_stage_seconds_count{stage="commit"}' in body
    finally:
        proc.terminate()
        assert proc.wait(20) == 0
    assert "loop: asyncio)" in (tmp_path / "serve.log").read_text()
