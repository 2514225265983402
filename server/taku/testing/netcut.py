"""A loopback TCP proxy that can cut a link the way a network partition does.

:class:`CutProxy` forwards every connection made to its port to ``upstream``.
:meth:`CutProxy.cut` holds the bytes (and the closes) in both directions
without resetting anything: each side sees a silent peer, its kernel still
ACKing. :meth:`CutProxy.heal` lets everything held through, in order. It is
what the partition and timeout tests put between a taku node and PostgreSQL.

Example::

    proxy = await CutProxy.start("127.0.0.1", 5432)
    url = f"postgresql://postgres@127.0.0.1:{proxy.port}/test"
    proxy.cut()
    ...
    proxy.heal()
    await proxy.close()
"""

from __future__ import annotations

import asyncio
import contextlib

__all__ = ["CutProxy"]


class CutProxy:
    """Forwards ``127.0.0.1:<port>`` to ``upstream``; :meth:`cut` / :meth:`heal` the link."""

    def __init__(self, upstream_host: str, upstream_port: int) -> None:
        self.upstream = (upstream_host, upstream_port)
        self.port = 0
        self._open = asyncio.Event()
        self._open.set()
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._writers: set[asyncio.StreamWriter] = set()

    @classmethod
    async def start(cls, upstream_host: str, upstream_port: int) -> CutProxy:
        proxy = cls(upstream_host, upstream_port)
        proxy._server = await asyncio.start_server(proxy._accept, "127.0.0.1", 0)
        proxy.port = int(proxy._server.sockets[0].getsockname()[1])
        return proxy

    @property
    def is_cut(self) -> bool:
        return not self._open.is_set()

    def cut(self) -> None:
        """From now on nothing passes either way (nor a close); nothing is dropped."""
        self._open.clear()

    def heal(self) -> None:
        """Let everything held pass, in order, and everything after it."""
        self._open.set()

    async def close(self) -> None:
        self._open.set()
        if self._server is not None:
            self._server.close()
        for w in list(self._writers):
            w.close()
        for t in list(self._tasks):
            t.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await self._open.wait()  # a connection made during a cut hangs, as it would
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.upstream)
        except OSError:
            writer.close()
            return
        self._writers.update((writer, up_writer))
        for src, dst in ((reader, up_writer), (up_reader, writer)):
            task = asyncio.create_task(self._pump(src, dst))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _pump(self, src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
        try:
            while True:
                data = await src.read(65536)
                await self._open.wait()  # held here while cut (the rest waits in the kernel)
                if not data:
                    break
                dst.write(data)
                await dst.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            with contextlib.suppress(Exception):
                dst.close()
            self._writers.discard(dst)
