"""How ``taku serve`` serves the web client's files (issue 23): gzip when the browser
accepts it (``Content-Encoding`` + ``Vary``), validators (``ETag``, ``Last-Modified``)
and ``304 Not Modified`` when the browser already has the file."""

from __future__ import annotations

import asyncio
import gzip
import os
import urllib.error
import urllib.request
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from taku.store import MemoryEventStore
from taku.testing.server import RunningServer, start_server, stop_server

WEB = Path(__file__).resolve().parents[2] / "clients" / "web"


@pytest.fixture
async def web_server(tmp_path: Path) -> AsyncIterator[RunningServer]:
    """A server whose web directory is a copy of clients/web the test may change."""
    web = tmp_path / "web"
    (web / "js").mkdir(parents=True)
    for rel in ("index.html", "style.css", "js/main.js"):
        (web / rel).write_bytes((WEB / rel).read_bytes())
    running = await start_server(MemoryEventStore(), web_dir=web)
    yield running
    await stop_server(running)


async def get(
    server: RunningServer, path: str, **headers: str
) -> tuple[int, dict[str, str], bytes]:
    """(status, headers, raw body) of ``GET path``; urllib leaves the body encoded."""

    def fetch() -> tuple[int, dict[str, str], bytes]:
        req = urllib.request.Request(server.http_url.rstrip("/") + path, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=5) as r:
                return r.status, dict(r.headers), r.read()
        except urllib.error.HTTPError as e:
            with e:
                return e.code, dict(e.headers), e.read()

    return await asyncio.to_thread(fetch)


async def test_text_files_are_gzipped_when_the_browser_accepts_gzip(
    web_server: RunningServer,
) -> None:
    """A browser that sends ``Accept-Encoding: gzip`` gets the script gzipped, a third of
    its size or less; one that does not gets it as it is. Both responses vary on it."""
    web = web_server.server.web_dir
    raw = (web / "js" / "main.js").read_bytes()
    status, headers, body = await get(
        web_server, "/js/main.js", **{"Accept-Encoding": "gzip, deflate, br"}
    )
    assert status == 200 and headers["Content-Encoding"] == "gzip"
    assert headers["Vary"] == "Accept-Encoding"
    assert headers["Content-Type"] == "text/javascript; charset=utf-8"
    assert gzip.decompress(body) == raw and len(body) * 3 <= len(raw)
    assert int(headers["Content-Length"]) == len(body)

    status, headers, body = await get(web_server, "/js/main.js")
    assert status == 200 and "Content-Encoding" not in headers and body == raw
    assert headers["Vary"] == "Accept-Encoding"
    # gzip refused by quality 0: no gzip either
    _, headers, body = await get(web_server, "/style.css", **{"Accept-Encoding": "gzip;q=0, br"})
    assert "Content-Encoding" not in headers and body == (web / "style.css").read_bytes()


async def test_an_unchanged_file_is_not_sent_again(web_server: RunningServer) -> None:
    """The ETag and Last-Modified of a response bring back a bodiless 304 while the file is
    unchanged; once it changes, the old ETag gets the new file (200, a new ETag)."""
    gz = {"Accept-Encoding": "gzip"}
    status, first, _ = await get(web_server, "/", **gz)
    assert (
        status == 200 and first["ETag"].startswith('"') and first["Last-Modified"].endswith("GMT")
    )
    assert first["Cache-Control"] == "no-cache"
    status, headers, body = await get(web_server, "/", **gz, **{"If-None-Match": first["ETag"]})
    assert (status, body) == (304, b"") and headers["ETag"] == first["ETag"]
    assert headers["Vary"] == "Accept-Encoding"
    status, _, body = await get(
        web_server, "/", **gz, **{"If-Modified-Since": first["Last-Modified"]}
    )
    assert (status, body) == (304, b"")
    # the identity body is another representation: another ETag
    _, plain, _ = await get(web_server, "/")
    assert plain["ETag"] != first["ETag"]

    index = web_server.server.web_dir / "index.html"
    index.write_text(index.read_text(encoding="utf-8") + "<!-- changed -->\n", encoding="utf-8")
    later = os.stat(index).st_mtime + 5
    os.utime(index, (later, later))
    status, headers, body = await get(web_server, "/", **gz, **{"If-None-Match": first["ETag"]})
    assert status == 200 and headers["ETag"] != first["ETag"]
    assert gzip.decompress(body).endswith(b"<!-- changed -->\n")
    status, _, _ = await get(web_server, "/", **gz, **{"If-Modified-Since": first["Last-Modified"]})
    assert status == 200


async def test_the_page_carries_its_stylesheet_so_no_request_blocks_the_first_paint(
    web_server: RunningServer,
) -> None:
    """index.html arrives with style.css inside a ``<style>`` (no render-blocking stylesheet
    request); a change of the stylesheet changes the page's ETag, so no browser keeps an old look."""
    web = web_server.server.web_dir
    status, headers, body = await get(web_server, "/")
    assert status == 200
    assert b'<link rel="stylesheet"' not in body and (web / "style.css").read_bytes() in body
    etag = headers["ETag"]
    assert (await get(web_server, "/", **{"If-None-Match": etag}))[0] == 304
    css = web / "style.css"
    css.write_bytes(css.read_bytes() + b"\n/* changed */\n")
    os.utime(css, (css.stat().st_atime, css.stat().st_mtime + 5))
    status, headers, body = await get(web_server, "/", **{"If-None-Match": etag})
    assert status == 200 and headers["ETag"] != etag and b"/* changed */" in body
