"""Every yodomi event and command type survives a JSON round trip and every event type renders
in Japanese (the conformance kit checks those that random play reaches; this checks them all)."""

from __future__ import annotations

import enum
from typing import Any

import msgspec
import msgspec.inspect as mi
import pytest

from taku.core.table import TableState, command_decoder, event_decoder
from taku_yodomi._render import render
from taku_yodomi.commands import ALL_COMMANDS
from taku_yodomi.events import ALL_EVENTS
from taku_yodomi.plugin import RULESET


def sample(t: mi.Type) -> Any:
    """A plain value of msgspec type ``t`` (the first choice of unions and literals)."""
    match t:
        case mi.Metadata(type=inner):
            return sample(inner)
        case mi.StrType():
            return "♦10"
        case mi.IntType():
            return 3
        case mi.BoolType():
            return True
        case mi.NoneType():
            return None
        case mi.AnyType():
            return 1
        case mi.LiteralType(values=values):
            return values[0]
        case mi.EnumType(cls=cls):
            return next(iter(cls)).value if issubclass(cls, enum.Enum) else None
        case mi.UnionType(types=types):
            return sample(next((x for x in types if not isinstance(x, mi.NoneType)), types[0]))
        case mi.ListType(item_type=it) | mi.VarTupleType(item_type=it) | mi.SetType(item_type=it):
            return [sample(it)]
        case mi.DictType(key_type=kt, value_type=vt):
            return {sample(kt): sample(vt)}
        case mi.StructType(cls=cls, fields=fields):
            out = {f.encode_name: sample(f.type) for f in fields}
            tag = cls.__struct_config__.tag
            if isinstance(tag, str):
                out[cls.__struct_config__.tag_field] = tag
            return out
        case _:
            raise AssertionError(f"no sample for {t}")


def build(cls: type) -> Any:
    return msgspec.convert(sample(mi.type_info(cls)), cls)


@pytest.mark.parametrize("cls", ALL_EVENTS, ids=lambda c: c.__struct_config__.tag)
def test_event_round_trip_and_render(cls: type) -> None:
    """Every event decodes back to itself through the table's union and renders a line."""
    ev = build(cls)
    dec = event_decoder(RULESET)
    assert dec.decode(msgspec.json.encode(ev)) == ev
    line = render(ev, TableState(table_id="t"))
    assert isinstance(line, str) and line.strip()


@pytest.mark.parametrize("cls", ALL_COMMANDS, ids=lambda c: c.__struct_config__.tag)
def test_command_round_trip(cls: type) -> None:
    """Every command decodes back to itself; unknown fields are refused."""
    cmd = build(cls)
    dec = command_decoder(RULESET)
    raw = msgspec.json.encode(cmd)
    assert dec.decode(raw) == cmd
    bad = msgspec.json.encode({**msgspec.to_builtins(cmd), "oops": 1})
    with pytest.raises(msgspec.ValidationError, match="unknown field `oops`"):
        dec.decode(bad)


def test_cards_and_suits_are_closed_sets_on_the_wire() -> None:
    """A card is one of the 54 codes and a suit one of the four signs; anything else is
    refused when the command is decoded (no hand-typed aliases such as ``D10``)."""
    dec = command_decoder(RULESET)
    ok = dec.decode(
        msgspec.json.encode(
            {"type": "yodomi.play_cards", "check_id": "k1", "cards": ["♦10", "JK2"]}
        )
    )
    assert ok.cards == ["♦10", "JK2"]
    for raw in (
        {"type": "yodomi.play_cards", "check_id": "k1", "cards": ["D10"]},
        {"type": "yodomi.play_cards", "check_id": "k1", "cards": ["♦11"]},
        {"type": "yodomi.choose_suit", "character_id": "c1", "suit": "H"},
    ):
        with pytest.raises(msgspec.ValidationError):
            dec.decode(msgspec.json.encode(raw))


def test_notice_lines_name_counts_only() -> None:
    """The redacted forms render without any card face."""
    from taku_yodomi.events import CardsDealtNotice, CardsGivenNotice, DeckShuffledNotice

    table = TableState(table_id="t")
    assert (
        render(CardsDealtNotice(character_id="c1", count=2), table)
        == "c1 に「流れ」が2枚配られました"
    )
    assert (
        render(CardsGivenNotice(from_character="c1", to_character="c2", count=1), table)
        == "c1 が c2 に「流れ」を1枚渡しました"
    )
    assert render(DeckShuffledNotice(count=54), table) == "「流れ」の山札（54枚）を切りました"
