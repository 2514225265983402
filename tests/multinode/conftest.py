"""Several real ``taku serve`` processes on one PostgreSQL schema, and a WebSocket client for them.

Nodes are started exactly as docker-compose.yml starts them (:func:`node_args`;
``test_compose.py`` holds the two together), on free loopback ports, each with
its log in the test's ``tmp_path``. Every test gets a schema of its own, dropped
afterwards. Without ``TAKU_TEST_PG`` the tests skip, saying how to run them;
with ``CI=true`` they must run.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from taku.store.postgres import drop_schema, split_url, with_schema

HOW_TO_RUN = (
    "multi-node tests need PostgreSQL: set TAKU_TEST_PG=postgresql://postgres@127.0.0.1:5432/test "
    "(or run `CI=true make test`, which sets it)"
)

TEST_FLAGS = ("--rate", "2000", "--log-level", "warning", "--json-logs")
"""What the tests add to :func:`node_args`: no rate limit in the way, quiet logs."""


def node_args(*, port: int, db: str, host: str = "127.0.0.1") -> list[str]:
    """The arguments after ``taku`` that start one node; docker-compose.yml uses the same."""
    return ["serve", "--host", host, "--port", str(port), "--db", db]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Node:
    """One ``taku serve`` subprocess."""

    def __init__(self, name: str, db: str, log_dir: Path) -> None:
        self.name = name
        self.port = free_port()
        self.log_path = log_dir / f"{name}.log"
        argv = [sys.executable, "-m", "taku.cli", *node_args(port=self.port, db=db), *TEST_FLAGS]
        self._log = self.log_path.open("wb")
        self.proc = subprocess.Popen(
            argv, stdout=self._log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL
        )

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    async def ready(self, timeout_s: float = 30) -> None:
        """Wait until ``GET /healthz`` answers (the store is open by then)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout_s
        while True:
            if self.proc.poll() is not None:
                raise AssertionError(
                    f"node {self.name} exited {self.proc.returncode}:\n{self.log()}"
                )
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
                writer.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                status = await reader.readline()
                writer.close()
                if b" 200 " in status:
                    return
            except OSError:
                pass
            if loop.time() > deadline:
                raise AssertionError(f"node {self.name} did not start:\n{self.log()}")
            await asyncio.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL: no goodbye to anyone."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self._log.close()

    def log(self) -> str:
        self._log.flush()
        return self.log_path.read_text(errors="replace")[-4000:]


class Client:
    """A WebSocket client that reads in the background: replies by ``re``, pushed events in order."""

    def __init__(self, ws: ClientConnection, name: str) -> None:
        self.ws = ws
        self.name = name
        self.events: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []
        self._replies: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._ids = itertools.count(1)
        self._new_event = asyncio.Event()
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def connect(cls, url: str, name: str = "") -> Client:
        return cls(await connect(url, open_timeout=10, ping_interval=None), name or url)

    async def _read(self) -> None:
        try:
            async for frame in self.ws:
                msg = json.loads(frame)
                if msg["type"] == "event":
                    self.events.append(msg)
                    self._new_event.set()
                fut = self._replies.pop(msg.get("re"), None) if msg.get("re") is not None else None
                if fut is not None and not fut.done():
                    fut.set_result(msg)
        except ConnectionClosed:
            pass
        finally:
            for fut in self._replies.values():
                if not fut.done():
                    fut.set_exception(ConnectionError(f"{self.name}: connection lost"))
            self._replies.clear()
            self._new_event.set()

    @property
    def closed(self) -> bool:
        return self._reader.done()

    async def send(self, msg: dict[str, Any]) -> asyncio.Future[dict[str, Any]]:
        """Send ``msg`` with a fresh id; the future resolves with the reply."""
        rid = next(self._ids)
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        if self.closed:
            fut.set_exception(ConnectionError(f"{self.name}: connection lost"))
            return fut
        self._replies[rid] = fut
        try:
            await self.ws.send(json.dumps({**msg, "id": rid}))
        except ConnectionClosed:
            self._replies.pop(rid, None)
            if not fut.done():
                fut.set_exception(ConnectionError(f"{self.name}: connection lost"))
        return fut

    async def request(self, msg: dict[str, Any], timeout_s: float = 15) -> dict[str, Any]:
        return await asyncio.wait_for(await self.send(msg), timeout_s)

    async def expect(self, msg: dict[str, Any], type_: str) -> dict[str, Any]:
        reply = await self.request(msg)
        assert reply["type"] == type_, (self.name, msg, reply)
        return reply

    @property
    def last_seq(self) -> int:
        return self.events[-1]["seq"] if self.events else 0

    async def until_seq(self, seq: int, timeout_s: float = 20) -> None:
        async def wait() -> None:
            while self.last_seq < seq:
                self._new_event.clear()
                if self.closed:
                    raise ConnectionError(f"{self.name}: connection lost at seq {self.last_seq}")
                await self._new_event.wait()

        await asyncio.wait_for(wait(), timeout_s)

    async def close(self) -> None:
        await self.ws.close()
        await asyncio.gather(self._reader, return_exceptions=True)


async def scratch_schema() -> str:
    base = os.environ.get("TAKU_TEST_PG")
    if not base:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but TAKU_TEST_PG is not set: " + HOW_TO_RUN)
        pytest.skip(HOW_TO_RUN)
    try:
        conn = await asyncpg.connect(split_url(base)[0], timeout=5)
    except (OSError, asyncpg.PostgresError, TimeoutError) as e:
        pytest.fail(f"TAKU_TEST_PG={base} cannot be reached ({e!r}); start PostgreSQL or unset it")
    await conn.close()
    return with_schema(base, "taku_mn_" + uuid.uuid4().hex[:16])


@pytest.fixture
async def pg_url() -> AsyncIterator[str]:
    """A ``--db`` URL with a schema of its own, dropped after the test."""
    url = await scratch_schema()
    yield url
    await drop_schema(url)


@pytest.fixture
async def start_nodes(
    pg_url: str, tmp_path: Path
) -> AsyncIterator[Callable[..., Awaitable[list[Node]]]]:
    """``await start_nodes(n[, db=url])``: n nodes on the test's schema, started together, ready; all stopped after."""
    nodes: list[Node] = []

    async def start(n: int, db: str | None = None) -> list[Node]:
        new = [Node(f"node{len(nodes) + i + 1}", db or pg_url, tmp_path) for i in range(n)]
        nodes.extend(new)
        await asyncio.gather(*(node.ready() for node in new))
        return new

    try:
        yield start
    finally:
        for node in nodes:
            node.stop()


@pytest.fixture
async def client() -> AsyncIterator[Callable[..., Awaitable[Client]]]:
    """``await client(url, name)``: a connected :class:`Client`, closed after the test."""
    made: list[Client] = []

    async def make(url: str, name: str = "") -> Client:
        c = await Client.connect(url, name)
        made.append(c)
        return c

    yield make
    for c in made:
        if not c.closed:
            await c.close()


@pytest.fixture
def node_command() -> Callable[..., list[str]]:
    """:func:`node_args` for tests that compare it with docker-compose.yml."""
    return node_args


PG_BIN = Path(os.environ.get("TAKU_PG_BIN", "/usr/lib/postgresql/15/bin"))


class PrivateCluster:
    """A PostgreSQL cluster of the test's own (initdb on a temporary directory, a free
    loopback port), so that a test may stop and start it without touching the shared
    server. Run as the ``postgres`` user when the tests run as root (initdb refuses root)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.data = root / "data"
        self.port = free_port()
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *argv: str) -> None:
        cmd = [str(PG_BIN / argv[0]), *argv[1:]]
        if os.geteuid() == 0:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        subprocess.run(cmd, check=True, capture_output=True, timeout=60)

    def init(self) -> None:
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "--no-sync")

    def start(self) -> None:
        opts = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=on"
        self._run(
            "pg_ctl", "-D", str(self.data), "-o", opts, "-l", str(self.root / "log"), "-w", "start"
        )

    def stop(self) -> None:
        """A clean, fast shutdown: every session is ended (as a database restart does)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def running(self) -> bool:
        return (self.data / "postmaster.pid").exists()


@pytest.fixture
def private_cluster() -> Iterator[PrivateCluster]:
    """A started :class:`PrivateCluster`, stopped and deleted after the test."""
    if not (PG_BIN / "initdb").exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"no PostgreSQL binaries in {PG_BIN} (set TAKU_PG_BIN)")
        pytest.skip(f"no PostgreSQL binaries in {PG_BIN} (set TAKU_PG_BIN)")
    root = Path(tempfile.mkdtemp(prefix="taku-pg-"))
    if os.geteuid() == 0:
        shutil.chown(root, "postgres")
    cluster = PrivateCluster(root)
    try:
        cluster.init()
        cluster.start()
        yield cluster
    finally:
        if cluster.running():
            with contextlib.suppress(Exception):
                cluster.stop()
        shutil.rmtree(root, ignore_errors=True)
