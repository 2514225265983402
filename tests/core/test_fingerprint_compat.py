"""The per-type fingerprint plan (issue 16) gives byte-identical fingerprints to the
field-by-field one it replaced: a command id resent after an upgrade must not be
refused as ``command/id_reused``. The old function is kept here verbatim."""

from __future__ import annotations

import hashlib
import typing
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taku.core import commands as core_commands
from taku.core.commands import CORE_COMMANDS, Chat, fingerprint
from taku.plugins import load_registry


def _old_fingerprint(command: core_commands.Command) -> str:
    canonical = core_commands._canonical
    added = type(command).added_fields

    def is_default(name: str) -> bool:
        f = next(f for f in msgspec.structs.fields(type(command)) if f.name == name)
        default = f.default if f.default is not msgspec.NODEFAULT else f.default_factory()
        return bool(getattr(command, name) == default)

    if added and any(is_default(name) for name in added):
        tag = type(command).__struct_config__.tag
        parts = [b'"type":' + canonical(tag)]
        for f in msgspec.structs.fields(type(command)):
            if f.name in added and is_default(f.name):
                continue
            parts.append(canonical(f.encode_name) + b":" + canonical(getattr(command, f.name)))
        return hashlib.blake2b(b"{" + b",".join(parts) + b"}", digest_size=16).hexdigest()
    return hashlib.blake2b(canonical(command), digest_size=16).hexdigest()


def _command_types() -> list[type[core_commands.Command]]:
    types = list(CORE_COMMANDS)
    for ruleset in load_registry():
        types.extend(ruleset.commands)
    return sorted(set(types), key=lambda t: t.__struct_config__.tag)


TYPES = _command_types()


def test_every_installed_ruleset_contributes_commands() -> None:
    tags = {t.__struct_config__.tag for t in TYPES}
    assert len(TYPES) > len(CORE_COMMANDS)
    for prefix in ("nstrpg.", "chabu.", "yodomi.", "hiden.", "shadowjan."):
        assert any(tag.startswith(prefix) for tag in tags), prefix


# a field typed with Any (hypothesis cannot resolve it): any JSON, msgspec keeps what fits
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=6,
)


def _of_type(tp: Any) -> st.SearchStrategy[Any]:
    """Values of ``tp``; an ``Annotated`` int or str within its ``msgspec.Meta`` bounds
    (``st.from_type`` ignores them, and most draws of a bounded field would be refused)."""
    if typing.get_origin(tp) is typing.Annotated:
        base, *extras = typing.get_args(tp)
        bounds: dict[str, Any] = {}
        for meta in extras:
            if isinstance(meta, msgspec.Meta):
                for name in ("ge", "le", "gt", "lt", "min_length", "max_length"):
                    if getattr(meta, name) is not None:
                        bounds[name] = getattr(meta, name)
        if base is int:
            lo = bounds.get("ge", bounds["gt"] + 1 if "gt" in bounds else None)
            hi = bounds.get("le", bounds["lt"] - 1 if "lt" in bounds else None)
            return st.integers(min_value=lo, max_value=hi)
        if base is str:
            return st.text(
                min_size=bounds.get("min_length", 0), max_size=min(bounds.get("max_length", 40), 40)
            )
        return st.from_type(base)
    return st.from_type(tp)


def _instances(t: type[core_commands.Command]) -> st.SearchStrategy[core_commands.Command]:
    """``t`` with every field drawn from its type (``st.from_type`` of the field, as
    msgspec Factory defaults trip ``st.from_type`` of the whole Struct), each field
    with a default sometimes left out, and values msgspec would refuse filtered."""
    fields = msgspec.structs.fields(t)

    @st.composite
    def build(draw: st.DrawFn) -> core_commands.Command:
        kwargs = {}
        for f in fields:
            if not f.required and draw(st.booleans()):
                continue
            kwargs[f.name] = draw(_JSON if "Any" in repr(f.type) else _of_type(f.type))
        try:
            # through msgspec, so constraints (Meta) hold as they do on the wire
            raw = msgspec.json.encode({"type": t.__struct_config__.tag, **kwargs})
            return msgspec.json.decode(raw, type=t)
        except (msgspec.ValidationError, TypeError):
            draw(st.just(None).filter(lambda _: False))
            raise AssertionError("unreachable") from None

    return build()


@pytest.mark.parametrize("t", TYPES, ids=lambda t: t.__struct_config__.tag)
@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_fingerprint_unchanged(t: type[core_commands.Command], data: st.DataObject) -> None:
    command = data.draw(_instances(t))
    assert fingerprint(command) == _old_fingerprint(command)


@given(
    text=st.text(min_size=1, max_size=40),
    character_id=st.none() | st.sampled_from(["c1", "忍者"]),
    channel=st.sampled_from(["", "main", "info", "雑談"]),
    to=st.sampled_from([[], ["m1"], ["m1", "m2"]]),
)
@settings(max_examples=100, deadline=None)
def test_chat_added_fields_set_and_unset(
    text: str, character_id: str | None, channel: str, to: list[str]
) -> None:
    command = Chat(text=text, character_id=character_id, channel=channel, to=to)
    assert fingerprint(command) == _old_fingerprint(command)


class _Opts(msgspec.Struct, frozen=True):
    n: int = 0


class _Mode(core_commands.Command, frozen=True, kw_only=True, tag="test.mode"):
    added_fields = ("mode",)
    name: str
    mode: str = "normal"


class _Level(core_commands.Command, frozen=True, kw_only=True, tag="test.level"):
    added_fields = ("level", "scale", "opts")
    name: str
    level: int = 1000
    scale: float = 0.0
    opts: _Opts = msgspec.field(default_factory=_Opts)
    needed: str


@pytest.mark.parametrize(
    ("t", "raws"),
    [
        (_Mode, ["", ',"mode":"normal"', ',"mode":"other"']),
        (
            _Level,
            [
                ',"needed":"x"',
                ',"needed":"x","level":1000',
                ',"needed":"x","scale":0.0',
                ',"needed":"x","scale":0',
                ',"needed":"x","opts":{}',
                ',"needed":"x","level":7,"opts":{"n":2}',
            ],
        ),
    ],
)
def test_added_fields_at_any_default_are_left_out_as_before(
    t: type[core_commands.Command], raws: list[str]
) -> None:
    """A ruleset's added field at its default (a non-empty string, a big int, a float,
    a factory's Struct) is left out, as the old fingerprint did: a command that omits
    it and one that sends its default are the same command."""
    tag = t.__struct_config__.tag
    decoded = [
        msgspec.json.decode(
            b'{"type":"' + tag.encode() + b'","name":"a"' + r.encode() + b"}", type=t
        )
        for r in raws
    ]
    for command in decoded:
        assert fingerprint(command) == _old_fingerprint(command)
    defaults = decoded[:-1] if t is _Mode else decoded[:5]
    assert len({fingerprint(c) for c in defaults}) == 1
    assert fingerprint(decoded[-1]) != fingerprint(decoded[0])
