"""Invite links: one URL that opens a table in the browser and in ``taku play``.

A link is the server's page with the table and token in the fragment (which a
browser never sends to the server)::

    http://127.0.0.1:8765/#table=t1a2b3c4d5e6&token=INVITE_TOKEN
"""

from __future__ import annotations

from urllib.parse import parse_qs, quote, urlsplit

__all__ = ["Link", "invite_link", "parse_link"]


class Link:
    """A parsed link: the server's base URL, and the table and token when present."""

    def __init__(self, base: str, table_id: str | None, token: str | None) -> None:
        self.base = base
        self.table_id = table_id
        self.token = token

    def __repr__(self) -> str:
        return (
            f"Link({self.base!r}, table_id={self.table_id!r}, token={'…' if self.token else None})"
        )


def invite_link(base: str, table_id: str, token: str | None = None) -> str:
    """The link that opens ``table_id`` (joining with ``token`` when given)."""
    url = base.split("#", 1)[0]
    if not url.endswith("/"):
        url += "/"
    frag = f"table={quote(table_id)}"
    if token:
        frag += f"&token={quote(token)}"
    return f"{url}#{frag}"


def parse_link(url: str) -> Link:
    """Split a link (or a bare server URL, ``http``, ``https``, ``ws`` or ``wss``)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https", "ws", "wss") or not parts.netloc:
        raise ValueError(f"not a taku URL: {url!r}")
    q = parse_qs(parts.fragment) if parts.fragment else {}
    q_query = parse_qs(parts.query) if parts.query else {}
    table = next(iter(q.get("table") or q_query.get("table") or ()), None)
    token = next(iter(q.get("token") or q_query.get("token") or ()), None)
    scheme = {"ws": "http", "wss": "https"}.get(parts.scheme, parts.scheme)
    return Link(f"{scheme}://{parts.netloc}/", table, token)
