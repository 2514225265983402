"""The wheel as a new user gets it: built from the sdist, installed into a fresh virtual
environment outside the checkout, `taku serve` from it serves the web client.

The fresh environment gets the wheel's own dependencies (not its extras) from this test's
environment through a ``.pth`` file, so no index is needed and rich / prompt_toolkit /
asyncpg are absent there, as in a lean ``pip install taku``.
"""

from __future__ import annotations

import importlib.metadata
import os
import re
import subprocess
import sys
import tarfile
import time
import urllib.request
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "clients" / "web"


def _run(*args: str | Path, cwd: Path, **kw: object) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "TAKU_WEB_DIR")}
    return subprocess.run(
        [str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120, **kw
    )


def _build(tmp: Path) -> tuple[Path, Path]:
    """(sdist, wheel built from the unpacked sdist)."""
    out = tmp / "dist"
    code = "import sys; from setuptools import build_meta as b; print(b.{}(sys.argv[1]))"
    r = _run(sys.executable, "-c", code.format("build_sdist"), out, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    sdist = out / r.stdout.split()[-1]
    with tarfile.open(sdist) as tar:
        tar.extractall(tmp / "src", filter="data")
    (src,) = (tmp / "src").iterdir()
    r = _run(sys.executable, "-c", code.format("build_wheel"), out, cwd=src)
    assert r.returncode == 0, r.stderr
    # no setuptools deprecation warning (the license is an SPDX string)
    assert "Deprecat" not in r.stderr
    return sdist, out / r.stdout.split()[-1]


def _requirements(wheel: Path) -> list[str]:
    """The wheel's dependencies without extras (``Requires-Dist`` lines with no marker)."""
    with zipfile.ZipFile(wheel) as z:
        (meta,) = [n for n in z.namelist() if n.endswith(".dist-info/METADATA")]
        msg = Parser().parsestr(z.read(meta).decode())
    return [
        re.split(r"[<>=!~\[ ;]", req, maxsplit=1)[0]
        for req in msg.get_all("Requires-Dist", [])
        if ";" not in req
    ]


def _deps_dir(names: list[str], where: Path) -> Path:
    """A directory of links to the installed files of ``names`` (their top-level modules
    and dist-info), for a ``.pth`` line."""
    where.mkdir()
    for name in names:
        dist = importlib.metadata.distribution(name)
        tops = {Path(f).parts[0] for f in dist.files or () if not str(f).startswith("..")}
        for top in tops:
            target = Path(str(dist.locate_file(top)))
            if target.exists() and not (where / top).exists():
                (where / top).symlink_to(target)
    return where


@pytest.fixture(scope="module")
def lean_env(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with the wheel installed (no extras); its bin/ dir."""
    tmp = tmp_path_factory.mktemp("wheel")
    sdist, wheel = _build(tmp)
    with tarfile.open(sdist) as tar:
        assert any(n.endswith("server/taku/web/js/main.js") for n in tar.getnames())
    with zipfile.ZipFile(wheel) as z:
        shipped = set(z.namelist())
    for f in WEB.rglob("*"):
        if f.is_file():
            assert f"taku/web/{f.relative_to(WEB).as_posix()}" in shipped
    venv = tmp / "venv"
    r = _run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=tmp)
    assert r.returncode == 0, r.stderr
    (site,) = venv.glob("lib/python*/site-packages")
    (site / "taku_test_deps.pth").write_text(
        f"{_deps_dir(_requirements(wheel), tmp / 'deps')}\n", encoding="utf-8"
    )
    r = _run(
        sys.executable, "-m", "pip", "--python", venv / "bin" / "python", "install",
        "--no-deps", "--no-index", "--disable-pip-version-check", "-q", wheel, cwd=tmp,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    return venv / "bin"


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(url: str) -> tuple[int, str, bytes]:
    with urllib.request.urlopen(url, timeout=10) as resp:
        return resp.status, resp.headers["Content-Type"], resp.read()


def test_the_installed_wheel_serves_the_web_client(lean_env: Path, tmp_path: Path) -> None:
    r = _run(lean_env / "python", "-c", "import taku; print(taku.__file__)", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert Path(r.stdout.strip()).is_relative_to(lean_env.parent), "taku from the checkout"
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "TAKU_WEB_DIR")}
    log = tmp_path / "serve.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [lean_env / "taku", "serve", "--port", str(port), "--db", "memory:"],
            cwd=tmp_path,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(300):
            try:
                status, ctype, body = _get(base + "/")
                break
            except OSError:
                assert proc.poll() is None, log.read_text()
                time.sleep(0.05)
        else:
            raise AssertionError("taku serve did not answer")
        assert status == 200 and ctype.startswith("text/html")
        assert b'<script type="module"' in body or b"<script" in body
        status, ctype, body = _get(base + "/js/main.js")
        assert (status, body) == (200, (WEB / "js" / "main.js").read_bytes())
        assert ctype.startswith(("text/javascript", "application/javascript"))
        status, ctype, body = _get(base + "/style.css")
        assert (status, body) == (200, (WEB / "style.css").read_bytes())
        assert ctype.startswith("text/css")
        assert "no_web_client" not in log.read_text()
    finally:
        proc.terminate()
        proc.wait(30)


def test_without_the_terminal_extra_taku_play_says_how_to_install(
    lean_env: Path, tmp_path: Path
) -> None:
    for cmd in (["play", "http://127.0.0.1:1/#table=t&token=x"], ["new", "http://127.0.0.1:1/"]):
        r = _run(lean_env / "taku", *cmd, cwd=tmp_path)
        assert r.returncode != 0
        assert r.stderr.strip().splitlines() == [
            "taku: the terminal client needs rich and prompt_toolkit: pip install 'taku[terminal]'"
        ]


def test_without_the_postgres_extra_a_postgresql_db_says_how_to_install(
    lean_env: Path, tmp_path: Path
) -> None:
    r = _run(
        lean_env / "taku", "serve", "--port", "0", "--db", "postgresql://u@127.0.0.1:1/x",
        cwd=tmp_path,
    )  # fmt: skip
    assert r.returncode != 0
    assert r.stderr.strip().splitlines() == [
        "taku: a postgresql:// database needs asyncpg: pip install 'taku[postgres]'"
    ]


def test_python_dash_m_taku_and_version(lean_env: Path, tmp_path: Path) -> None:
    r = _run(lean_env / "python", "-m", "taku", "--version", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    version = importlib.metadata.version("taku")
    assert r.stdout.strip() == f"taku {version}"
    r = _run(lean_env / "taku", "--version", cwd=tmp_path)
    assert r.stdout.strip() == f"taku {version}"
