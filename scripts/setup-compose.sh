#!/usr/bin/env bash
# What tests/multinode/test_compose.py needs on a fresh Debian machine, as root:
# Debian's docker-compose, which validates docker-compose.yml without an engine.
# Idempotent: does nothing when it is there.
set -euo pipefail
if command -v docker-compose >/dev/null; then
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "setup-compose: docker-compose missing and not root; its test will skip" >&2
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
# a failed install must not stop the rest of the suite: the test then skips and says why
if ! { apt-get update -q && apt-get install -y -q docker-compose; }; then
    echo "setup-compose: could not install docker-compose" >&2
fi
