"""Mutation testing of one module against its tests: ``make mutate MODULE=...``.

Usage::

    python scripts/mutate.py server/taku/core/dice.py            # run, then print the score
    python scripts/mutate.py server/taku/core/dice.py --tests tests/core
    python scripts/mutate.py server/taku/core/dice.py --report   # the score of the last run
    python scripts/mutate.py server/taku/core/dice.py -- show NAME   # any mutmut command

mutmut (3.8, ``pip install -e '.[mutate]'``) imports the mutated code from
``mutants/src``, so a package must sit at ``src/<package>`` to be importable
under its own name. This script stages the layout mutmut expects in
``build/mutate/<module>/``: ``src/<package>`` links to ``server/taku``,
``plugins/taku_*`` and ``clients/python/taku_client``, and ``tests``, ``docs``,
``plugins``, ``examples`` link to the worktree. Its ``pyproject.toml`` is this
one's with ``[tool.mutmut]`` narrowed to the module (``only_mutate``) and to the
module's tests (``pytest_add_cli_args_test_selection``: ``--tests``, else
``[tool.taku.mutate.tests]`` of pyproject.toml, else every test directory but
the browser tests).

The score is ``killed / all mutants``; a timeout counts as killed, a mutant no
test reaches ("no tests") as a survivor. Not part of ``.ci/run``: a run takes
minutes.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE_DIRS = [ROOT / "server", ROOT / "plugins", ROOT / "clients" / "python"]
LINKED = ["tests", "docs", "plugins", "examples"]
KILLED = {1, 3, 24, -24, 36, 152, 255, 37}
STATUS = {0: "survived", 5: "no tests", 33: "no tests", None: "not checked", 34: "skipped"}


def packages() -> dict[str, Path]:
    """Every importable package of the worktree: name -> directory."""
    out: dict[str, Path] = {}
    for base in PACKAGE_DIRS:
        for d in sorted(base.iterdir()):
            if (d / "__init__.py").is_file():
                out[d.name] = d
    return out


def module_src_path(module: Path, pkgs: dict[str, Path]) -> str:
    """``server/taku/core/dice.py`` -> ``src/taku/core/dice.py`` (the staged path)."""
    module = module.resolve()
    for name, d in pkgs.items():
        if module.is_relative_to(d):
            return f"src/{name}/{module.relative_to(d).as_posix()}"
    raise SystemExit(
        f"mutate: {module} is not in a package under server/, plugins/ or clients/python/"
    )


def toml_value(v: object) -> str:
    return json.dumps(v, ensure_ascii=False)


def stage(module: Path, tests: list[str]) -> Path:
    pkgs = packages()
    src_path = module_src_path(module, pkgs)
    rel = module.resolve().relative_to(ROOT).as_posix()
    where = ROOT / "build" / "mutate" / rel.replace("/", "_").removesuffix(".py")
    if where.exists():
        shutil.rmtree(where)
    (where / "src").mkdir(parents=True)
    for name, d in pkgs.items():
        (where / "src" / name).symlink_to(d)
    for name in LINKED:
        (where / name).symlink_to(ROOT / name)
    text = (ROOT / "pyproject.toml").read_text("utf-8")
    data = tomllib.loads(text)
    conf = dict(data["tool"]["mutmut"])
    conf["source_paths"] = [f"src/{name}" for name in pkgs]
    conf["only_mutate"] = [src_path]
    conf["pytest_add_cli_args_test_selection"] = tests
    # drop this file's [tool.mutmut] table and write the narrowed one
    lines, skip = [], False
    for line in text.splitlines():
        if line.startswith("["):
            skip = line.strip() == "[tool.mutmut]"
        if not skip:
            lines.append(line)
    lines.append("\n[tool.mutmut]")
    lines += [f"{k} = {toml_value(v)}" for k, v in conf.items()]
    (where / "pyproject.toml").write_text("\n".join(lines) + "\n", "utf-8")
    return where


def default_tests(module: Path) -> list[str]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    table = data.get("tool", {}).get("taku", {}).get("mutate", {})
    rel = module.resolve().relative_to(ROOT).as_posix()
    if rel in table.get("tests", {}):
        return list(table["tests"][rel])
    return list(table.get("default_tests", ["tests"]))


def report(where: Path, module: Path) -> int:
    pkgs = packages()
    meta = where / "mutants" / (module_src_path(module, pkgs) + ".meta")
    if not meta.is_file():
        print(f"mutate: no results in {meta}", file=sys.stderr)
        return 1
    codes: dict[str, int | None] = json.loads(meta.read_text("utf-8"))["exit_code_by_key"]
    killed = sorted(k for k, c in codes.items() if c in KILLED)
    others = sorted((k, c) for k, c in codes.items() if c not in KILLED)
    for k, c in others:
        print(f"  {STATUS.get(c, f'exit {c}')}: {k}")
    total = len(codes)
    score = 100.0 * len(killed) / total if total else 0.0
    rel = module.resolve().relative_to(ROOT).as_posix()
    print(f"{rel}: {len(killed)}/{total} killed, score {score:.1f}%")
    print(
        f"(details: cd {where.relative_to(ROOT)} && {Path(sys.executable).parent}/mutmut show <name>)"
    )
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument(
        "module", type=Path, help="a .py file under server/, plugins/ or clients/python/"
    )
    ap.add_argument(
        "--tests", nargs="+", help="test files or directories (default: pyproject's table)"
    )
    ap.add_argument("--report", action="store_true", help="only print the score of the last run")
    ap.add_argument("--max-children", type=int, default=os.cpu_count() or 2)
    ap.add_argument(
        "mutmut_args", nargs="*", help="after --: a mutmut command run in the staged directory"
    )
    args = ap.parse_args()
    module = args.module if args.module.is_absolute() else ROOT / args.module
    if not module.is_file():
        raise SystemExit(f"mutate: no such module: {args.module}")
    mutmut = str(Path(sys.executable).parent / "mutmut")
    rel = module.resolve().relative_to(ROOT).as_posix()
    where = ROOT / "build" / "mutate" / rel.replace("/", "_").removesuffix(".py")
    if args.report:
        return report(where, module)
    if args.mutmut_args:
        return subprocess.call([mutmut, *args.mutmut_args], cwd=where)
    where = stage(module, args.tests or default_tests(module))
    rc = subprocess.call([mutmut, "run", "--max-children", str(args.max_children)], cwd=where)
    if rc != 0:
        print(f"mutate: mutmut exited with {rc}", file=sys.stderr)
        return rc
    return report(where, module)


if __name__ == "__main__":
    sys.exit(main())
