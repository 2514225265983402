"""Fixtures of the client tests: dropping connections server-side, and Chromium pages.

The browser fixtures drive Debian's Chromium headless shell
(``/usr/bin/chromium-headless-shell``, Chromium's own headless build, installed by
scripts/setup-browser.sh; ``TAKU_CHROMIUM`` names another Chromium) through Playwright's async API; ``playwright install``
cannot download browsers here, so it is never used.
"""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest
from websockets.asyncio.server import ServerConnection

from ._axe import FAILING, axe_violations, describe, unchanged_since_checked


def server_connections(running: object) -> set[ServerConnection]:
    """The server side of every open WebSocket connection of ``running`` (a RunningServer)."""
    ws_server = running.server._server  # type: ignore[attr-defined]
    assert ws_server is not None, "the server is not running"
    return set(ws_server.connections)


async def drop_all(running: object, code: int = 1012) -> int:
    """Close every client connection from the server's side (1012: service restart)."""
    conns = server_connections(running)
    await asyncio.gather(*(c.close(code, "test drops the connection") for c in conns))
    return len(conns)


# --------------------------------------------------------------------------- browser tests

CHROMIUM = os.environ.get("TAKU_CHROMIUM", "/usr/bin/chromium-headless-shell")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):  # type: ignore[no-untyped-def]
    outcome = yield
    rep = outcome.get_result()
    setattr(item, f"rep_{rep.when}", rep)


@pytest.fixture
async def browser() -> AsyncIterator[object]:
    """Debian's Chromium, headless, through Playwright (async API), with a fresh profile."""
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI") == "true":
            pytest.fail(f"{CHROMIUM} is missing: scripts/setup-browser.sh installs it")
        pytest.skip(f"{CHROMIUM} is missing (run scripts/setup-browser.sh)")
    from playwright.async_api import async_playwright

    # Playwright's launch() passes a fresh temporary --user-data-dir itself (it refuses
    # one in args); each person then gets a context of their own inside it.
    async with async_playwright() as pw:
        b = await pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            await b.close()


@pytest.fixture
async def open_page(
    browser: object, request: pytest.FixtureRequest
) -> AsyncIterator[Callable[..., Awaitable[object]]]:
    """``await open_page(url)``: a page in a context of its own (its own storage: one person).

    ``init_script`` runs in the page before its own scripts, on every load.

    When the test fails, every page is saved as a screenshot under test-artifacts/; when it
    passes, axe-core checks every page still open as the test left it (serious or critical
    violations fail the test).
    """
    pages: list[object] = []

    async def make(
        url: str, *, width: int = 1200, height: int = 900, init_script: str | None = None
    ) -> object:
        ctx = await browser.new_context(viewport={"width": width, "height": height}, locale="ja-JP")  # type: ignore[attr-defined]
        if init_script:
            await ctx.add_init_script(
                init_script
            )  # runs before the page's own scripts, on every load
        page = await ctx.new_page()
        page.set_default_timeout(10_000)
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.js_errors = errors  # type: ignore[attr-defined]
        pages.append(page)
        await page.goto(url)
        await page.wait_for_selector("body[data-ready='1']")
        return page

    yield make
    rep = getattr(request.node, "rep_call", None)
    if rep is not None and rep.failed:
        ARTIFACTS.mkdir(exist_ok=True)
        name = re.sub(r"[^\w.-]+", "_", request.node.name)
        for i, page in enumerate(pages):
            try:
                await page.screenshot(path=str(ARTIFACTS / f"{name}-{i}.png"), full_page=True)  # type: ignore[attr-defined]
            except Exception:  # noqa: BLE001 - a screenshot must not hide the failure
                pass
    errors = [e for page in pages for e in page.js_errors]  # type: ignore[attr-defined]
    # axe-core on every page still open, in the state the test left it (issue 23)
    inaccessible = []
    if rep is not None and rep.passed:
        for page in pages:
            if not page.is_closed() and not await unchanged_since_checked(page):  # type: ignore[attr-defined]
                bad = [v for v in await axe_violations(page) if v["impact"] in FAILING]
                if bad:
                    inaccessible.append(f"{page.url}:\n{describe(bad)}")  # type: ignore[attr-defined]
    for page in pages:
        await page.context.close()  # type: ignore[attr-defined]
    assert not errors, f"JavaScript errors in the page: {errors}"
    assert not inaccessible, (
        "axe: serious or critical violations where the test ended:\n" + "\n".join(inaccessible)
    )
