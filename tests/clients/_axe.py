"""axe-core (the copy axe-playwright-python ships) on a page of the web client, as a test assertion."""

from __future__ import annotations

from typing import Any

FAILING = ("serious", "critical")
"""Impacts that fail a test; minor and moderate ones are left to review."""


RULES = {
    "resultTypes": ["violations"],
    "runOnly": {
        "type": "tag",
        "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"],
    },
}
"""WCAG 2.2 A/AA (target size among them) and axe's best practices."""


async def axe_violations(page: Any) -> list[dict[str, Any]]:
    """axe-core's violations of ``page`` as it is now, each with ``id``, ``impact``,
    ``help`` and ``nodes`` (axe-core as axe-playwright-python ships it, injected once a page)."""
    from axe_playwright_python.base import AXE_SCRIPT

    if not await page.evaluate("typeof window.axe === 'object'"):
        await page.evaluate(AXE_SCRIPT)
    results = await page.evaluate("(options) => axe.run(document, options)", RULES)
    return list(results["violations"])


def describe(violations: list[dict[str, Any]]) -> str:
    """One line per failing node: the rule, its impact, what it asks, the node and why."""
    lines = []
    for v in violations:
        for n in v["nodes"]:
            why = " ".join((n.get("failureSummary") or "").split())
            lines.append(
                f"{v['id']} ({v['impact']}): {v['help']} — {' '.join(map(str, n['target']))}: {why}"
            )
    return "\n".join(lines)


async def assert_accessible(page: Any, where: str) -> None:
    """Fail when axe finds a serious or critical violation on ``page``; the message names
    the state (``where``), the rule and the node."""
    bad = [v for v in await axe_violations(page) if v["impact"] in FAILING]
    assert not bad, (
        f"axe on {where} ({page.viewport_size['width']}×{page.viewport_size['height']}):\n{describe(bad)}"
    )
    await page.evaluate(CHECKED)


# after a clean check: window.__axeClean until the DOM next changes (the fixture's own
# check at the end of the test skips a page that has not changed since)
CHECKED = """() => {
  window.__axeClean = true;
  const mo = new MutationObserver(() => { window.__axeClean = false; mo.disconnect(); });
  mo.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
}"""


async def unchanged_since_checked(page: Any) -> bool:
    """Whether ``assert_accessible`` passed on ``page`` and its DOM has not changed since."""
    return bool(await page.evaluate("window.__axeClean === true"))
