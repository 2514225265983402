#!/usr/bin/env bash
# Run the whole test suite. Called by `make test` (and so by .ci/run).
# With CI=true the PostgreSQL tests must run: they use TAKU_TEST_PG, default
# postgresql://postgres@127.0.0.1:5432/test (trust auth on these machines).
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-.venv}
if [ "${CI:-}" = "true" ]; then
    export TAKU_TEST_PG=${TAKU_TEST_PG:-postgresql://postgres@127.0.0.1:5432/test}
fi
for setup in scripts/setup-*.sh; do
    [ -e "$setup" ] && bash "$setup"
done
# lint and types first (pyproject.toml: [tool.ruff], [tool.mypy]); each stops the run
"$VENV/bin/ruff" format --check --quiet .
"$VENV/bin/ruff" check --quiet .
"$VENV/bin/mypy"
set +e
# on every core (pytest-xdist; TAKU_TEST_WORKERS=0 runs in this process), the longest
# tests first taken by whichever worker is free (worksteal)
"$VENV/bin/python" -m pytest -n "${TAKU_TEST_WORKERS:-auto}" --dist worksteal "$@"
rc=$?
set -e
if [ $rc -eq 5 ]; then
    echo "no tests were collected" >&2
    exit 1
fi
exit $rc
