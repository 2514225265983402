"""docker-compose.yml and the Dockerfile: what can be checked without a Docker engine.

The file must parse, name PostgreSQL, two taku nodes and the load balancer,
publish one port per node, keep data on a named volume, give every service a
health check, and start each node with the very command line the multi-node
tests use (``node_args``), pointed at the compose PostgreSQL service.
"""

from __future__ import annotations

import shutil
import subprocess
import urllib.parse
from pathlib import Path
from typing import Any

import pytest
import yaml

from taku.cli import build_parser
from taku.store.postgres import split_url

ROOT = Path(__file__).resolve().parents[2]
NODES = ("taku1", "taku2")


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text(encoding="utf-8"))


def published(service: dict[str, Any]) -> list[tuple[int, int]]:
    """``(host port, container port)`` pairs of a service's short-syntax ``ports``."""
    out = []
    for spec in service.get("ports", []):
        host, _, container = str(spec).rpartition(":")
        out.append((int(host), int(container)))
    return out


def test_services_and_named_volume(compose: dict[str, Any]) -> None:
    """PostgreSQL, two nodes and a load balancer; the database lives on a named volume."""
    services = compose["services"]
    assert set(services) == {"postgres", *NODES, "lb"}
    assert "pgdata" in compose["volumes"]
    assert "pgdata:/var/lib/postgresql/data" in services["postgres"]["volumes"]
    env = services["postgres"]["environment"]
    assert {"POSTGRES_USER", "POSTGRES_PASSWORD", "POSTGRES_DB"} <= set(env)


def test_every_service_has_a_health_check(compose: dict[str, Any]) -> None:
    """Each service says how to tell it is healthy; the nodes ask their own /healthz."""
    for name, service in compose["services"].items():
        test = service.get("healthcheck", {}).get("test")
        assert test and test[0] in ("CMD", "CMD-SHELL"), name
    for name in NODES:
        service = compose["services"][name]
        ((port, _),) = published(service)
        assert f"http://127.0.0.1:{port}/healthz" in " ".join(service["healthcheck"]["test"]), name


def test_nodes_start_as_the_tests_start_them(compose: dict[str, Any], node_command) -> None:  # type: ignore[no-untyped-def]
    """Each node runs `taku serve` with the tests' arguments, its own port, on the compose PostgreSQL."""
    services = compose["services"]
    pg_env = services["postgres"]["environment"]
    ports = []
    for name in NODES:
        service = services[name]
        command = service["command"]
        assert command[0] == "taku"
        args = build_parser().parse_args(command[1:])
        assert args.cmd == "serve" and args.host == "0.0.0.0"
        # the same argument list tests/multinode gives `python -m taku.cli`
        assert command[1:] == node_command(port=args.port, db=args.db, host="0.0.0.0")
        assert published(service) == [(args.port, args.port)]
        ports.append(args.port)
        # the URL names the postgres service with its own credentials
        dsn, schema = split_url(args.db)
        url = urllib.parse.urlsplit(dsn)
        assert (url.scheme, url.hostname, url.port or 5432) == ("postgresql", "postgres", 5432)
        assert (url.username, url.password, url.path.lstrip("/")) == (
            pg_env["POSTGRES_USER"],
            pg_env["POSTGRES_PASSWORD"],
            pg_env["POSTGRES_DB"],
        )
        assert schema == "public"
        assert service["depends_on"]["postgres"]["condition"] == "service_healthy"
        assert str(service["environment"]["TAKU_PORT"]) == str(args.port)
        # the web client comes with the installed package (taku/web), not from the source tree
        assert "TAKU_WEB_DIR" not in service["environment"]
    assert len(set(ports)) == len(NODES), "each node on its own port"
    assert services["taku1"]["build"] == "."


def test_load_balancer_fronts_both_nodes(compose: dict[str, Any]) -> None:
    """The balancer publishes one port, proxies to every node and waits for them to be healthy."""
    lb = compose["services"]["lb"]
    ((port, _),) = published(lb)
    assert port not in {published(compose["services"][n])[0][0] for n in NODES}
    script = " ".join(lb["command"])
    for name in NODES:
        node_port = published(compose["services"][name])[0][0]
        assert f"{name}:{node_port}" in script
        assert lb["depends_on"][name]["condition"] == "service_healthy"
    assert "health_uri /healthz" in script


def test_dockerfile_builds_the_postgres_extra() -> None:
    """The image installs taku with asyncpg and serves on 8765 by default."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert "[postgres]" in text
    assert "EXPOSE 8765" in text
    assert "HEALTHCHECK" in text
    ignored = (ROOT / ".dockerignore").read_text(encoding="utf-8").split()
    assert ".venv" in ignored and ".git" in ignored


@pytest.mark.skipif(
    shutil.which("docker-compose") is None,
    reason="docker-compose is not installed (apt-get install docker-compose)",
)
def test_docker_compose_accepts_the_file() -> None:
    """Debian's docker-compose validates the file without an engine."""
    result = subprocess.run(
        ["docker-compose", "-f", str(ROOT / "docker-compose.yml"), "config", "-q"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stderr
