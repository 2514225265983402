"""axe-core (through axe-playwright-python) on a page of the web client, as a test assertion."""

from __future__ import annotations

from typing import Any

FAILING = ("serious", "critical")
"""Impacts that fail a test; minor and moderate ones are left to review."""


async def axe_violations(page: Any) -> list[dict[str, Any]]:
    """axe-core's violations of ``page`` as it is now (every rule axe runs by default,
    WCAG 2.2 AA's target size among them), each with ``id``, ``impact``, ``help`` and ``nodes``."""
    from axe_playwright_python.async_playwright import Axe

    results = await Axe().run(page, options={"resultTypes": ["violations"],
                                              "runOnly": {"type": "tag", "values": [
                                                  "wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]}})
    return list(results.response["violations"])


def describe(violations: list[dict[str, Any]]) -> str:
    """One line per failing node: the rule, its impact, what it asks, the node and why."""
    lines = []
    for v in violations:
        for n in v["nodes"]:
            why = " ".join((n.get("failureSummary") or "").split())
            lines.append(f"{v['id']} ({v['impact']}): {v['help']} — {' '.join(map(str, n['target']))}: {why}")
    return "\n".join(lines)


async def assert_accessible(page: Any, where: str) -> None:
    """Fail when axe finds a serious or critical violation on ``page``; the message names
    the state (``where``), the rule and the node."""
    bad = [v for v in await axe_violations(page) if v["impact"] in FAILING]
    assert not bad, f"axe on {where} ({page.viewport_size['width']}×{page.viewport_size['height']}):\n{describe(bad)}"
