#!/usr/bin/env bash
# What the browser tests (tests/clients/test_web*.py) need on a fresh Debian
# machine, as root: Debian's Chromium headless shell (the tests drive it through
# Playwright: `playwright install` cannot download here; it is Chromium's own
# headless build, lighter than the full browser), Debian's Chromium itself (for
# tests/clients/screenshots.py and for trying the client by hand) and CJK fonts
# so Japanese text renders.
# Idempotent: does nothing when both are there. Python packages come from
# pyproject's `test` extra.
set -euo pipefail
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
[ -x /usr/bin/chromium-headless-shell ] || need+=(chromium-headless-shell)
# (no grep -q: under pipefail an early exit of grep would fail fc-list)
if ! fc-list 2>/dev/null | grep -i "Noto Sans CJK" >/dev/null; then
    need+=(fonts-noto-cjk)
fi
if [ ${#need[@]} -eq 0 ]; then
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "setup-browser: ${need[*]} missing and not root; the browser tests will skip (or fail with CI=true)" >&2
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
# a failed install must not stop the rest of the suite: the browser tests then
# skip (or fail, with CI=true) and say why
if ! { apt-get update -q && apt-get install -y -q "${need[@]}" fontconfig; }; then
    echo "setup-browser: could not install ${need[*]}" >&2
fi
