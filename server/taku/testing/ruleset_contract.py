"""The ruleset conformance kit: every ruleset, built-in or third party's, passes it.

Like the store contract (:mod:`taku.testing.store_contract`) and in the shape of
eventsourcing's recorder test case: subclass :class:`RulesetContract` in a test
module, name the ruleset and, optionally, character sheets to play with::

    from taku.testing.ruleset_contract import RulesetContract

    class TestChinchiroContract(RulesetContract):
        ruleset_id = "chinchiro"
        sheets = [("ぎん", {}), ("たま", {})]

pytest then runs every check below against the ruleset (found through the
``taku.rulesets`` entry point, or given as ``ruleset`` for one that is not
installed). Each check fails with a message that names what is wrong: the
field, the command, the seq.

The checks:

- ``test_pure``: the ruleset's package imports no I/O, clock or randomness module.
- ``test_tags``: every command and event tag is prefixed ``<id>.`` and unique.
- ``test_schema_labels``: every command, event, sheet, option and state Struct and
  every field of them has a Japanese ``title``; string fields whose rule has a
  closed set (``closed_fields``) are enums.
- ``test_errors_declared``: every ``rule/<id>/<reason>`` the package's source
  raises is listed in ``Ruleset.errors``.
- ``test_permits``: every command's declared :class:`~taku.core.commands.Permit`
  holds: refused (``command/forbidden``) to every role it excludes, and to a
  player for a character not their own; ``owner_field`` names a real field.
- ``test_random_play``: a few hundred steps of play driven only by
  ``affordances()``, with seeded dice: every affordance builds a well-formed
  command the viewer's permit allows; no step gives ``internal/error`` or
  writes part of a rejected command; every member's stream is gap-free; no
  member receives a hidden event in full, and the public's view never shows a
  hidden path's value; every ruleset event renders to a line of text; every
  event and command round-trips through JSON byte for byte; the fold of the
  log equals step-by-step evolve, and the state replayed at every seq equals
  the live state at that seq.
"""

from __future__ import annotations

import ast
import datetime as dt
import importlib
import inspect
import pkgutil
import random
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

import msgspec
import msgspec.inspect as mi

from taku.app import Hub, TableService
from taku.core.commands import CORE_COMMANDS, Command, SetTimer
from taku.core.play import Affordance
from taku.core.ruleset import Role, Ruleset, Viewer
from taku.core.table import TableState, evolve, fold, view
from taku.errors import TakuError
from taku.plugins import Registry, load_registry
from taku.store.memory import MemoryEventStore

__all__ = [
    "CLOSED_FIELDS",
    "IMPURE_MODULES",
    "RulesetContract",
    "label_problems",
    "placeholder_command",
]

IMPURE_MODULES = frozenset(
    {
        "asyncio",
        "websockets",
        "sqlite3",
        "asyncpg",
        "time",
        "random",
        "secrets",
        "structlog",
        "socket",
        "threading",
        "os",
        "subprocess",
        "urllib",
        "http",
        "requests",
        "pathlib",
        "uuid",
        "datetime",
        "importlib",
        "io",
        "logging",
    }
)
"""Modules a ruleset may not import: I/O, the clock, randomness (dice are injected)."""

IMPURE_CALLS = frozenset({"open", "print", "input", "__import__", "eval", "exec", "breakpoint"})
"""Built-ins a ruleset may not call (I/O, or imports and code that the import check cannot see)."""

CLOSED_FIELDS = frozenset(
    {
        "stat",
        "kind",
        "difficulty",
        "purpose",
        "suit",
        "role",
        "phase",
        "mode",
        "attack_kind",
        "weapon_kind",
        "channel_kind",
    }
)
"""Field names that name a closed set in every ruleset seen so far: a ``str`` field of
one of these names must be an enum (``Literal[...]``). Add your own in ``closed_fields``."""

_JAPANESE = re.compile("[\u3040-\u30ff\u3400-\u9fff\uff00-\uffef]")


def _japanese(text: Any) -> bool:
    return isinstance(text, str) and bool(_JAPANESE.search(text))


class RulesetContract:
    """Subclass with ``ruleset_id`` (and ``sheets``); pytest runs every ``test_*`` check.

    Attributes:
        ruleset_id: the ruleset to check.
        ruleset: the ruleset itself, when it is not installed (a ruleset under test).
        sheets: ``(name, sheet)`` characters made before random play: alternately
            owned by the two players, every third one an NPC of the GM.
        options: the table options to play with.
        steps: how many affordance-driven commands random play sends per seed.
        seeds: the seeds of random play (the table's dice and the choices).
        closed_fields: more field names that must be enums.
        expiries: for a ruleset with ``on_timer``, the share of random play's steps at
            which a timer runs out (the GM's, or one the ruleset set): its reaction is
            checked like any command's (the log, the replay, ``taku verify``).
        package: the package whose modules ``test_pure`` and ``test_errors_declared``
            read (default: the package of the ruleset's ``decide``).
    """

    ruleset_id: ClassVar[str] = ""
    ruleset: ClassVar[Ruleset[Any, Any] | None] = None
    sheets: ClassVar[Sequence[tuple[str, dict[str, Any]]]] = ()
    options: ClassVar[dict[str, Any]] = {}
    steps: ClassVar[int] = 200
    seeds: ClassVar[Sequence[int]] = (1, 2)
    closed_fields: ClassVar[frozenset[str]] = frozenset()
    package: ClassVar[str | None] = None
    expiries: ClassVar[float] = 0.05

    # ------------------------------------------------------------------ set-up

    def _ruleset(self) -> Ruleset[Any, Any]:
        if self.ruleset is not None:
            return self.ruleset
        assert self.ruleset_id, f"{type(self).__name__} names no ruleset_id"
        return load_registry().get(self.ruleset_id)

    def _registry(self) -> Registry:
        rs = self._ruleset()
        others = [r for r in load_registry() if r.id != rs.id]
        return Registry([*others, rs])

    def _package_files(self) -> list[Path]:
        rs = self._ruleset()
        name = self.package or inspect.getmodule(rs.decide).__name__.split(".")[0]  # type: ignore[union-attr]
        mod = importlib.import_module(name)
        files = [Path(mod.__file__)] if mod.__file__ else []
        if hasattr(mod, "__path__"):
            for info in pkgutil.walk_packages(mod.__path__, name + "."):
                sub = importlib.import_module(info.name)
                if sub.__file__:
                    files.append(Path(sub.__file__))
        return sorted(set(files))

    # ------------------------------------------------------------------ static checks

    def test_pure(self) -> None:
        """The ruleset's modules import no I/O, clock or randomness (dice are injected)."""
        bad = []
        for path in self._package_files():
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                names: list[str] = []
                if isinstance(node, ast.Import):
                    names = [a.name.split(".")[0] for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    names = [node.module.split(".")[0]]
                line = getattr(node, "lineno", 0)
                bad += [f"{path.name}:{line} imports {n}" for n in names if n in IMPURE_MODULES]
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Name)
                    and node.func.id in IMPURE_CALLS
                ):
                    bad.append(f"{path.name}:{node.lineno} calls {node.func.id}()")
        assert not bad, "a ruleset must be pure (no I/O, clock or global randomness): " + "; ".join(
            bad
        )

    def test_tags(self) -> None:
        """Tags are ``<id>.<name>``, unique among the ruleset's and the core's."""
        rs = self._ruleset()
        seen: dict[str, str] = {t.__struct_config__.tag: "core" for t in CORE_COMMANDS}  # type: ignore[misc]
        for kind, types in (("command", rs.commands), ("event", rs.events)):
            for t in types:
                tag = t.__struct_config__.tag
                assert isinstance(tag, str) and tag.startswith(rs.id + "."), (
                    f"{kind} {t.__name__}: tag {tag!r} is not {rs.id}.<name>"
                )
                assert tag not in seen, f"{kind} {t.__name__}: tag {tag!r} is used twice"
                seen[tag] = kind

    def test_schema_labels(self) -> None:
        """Every Struct and field people see has a Japanese title; closed sets are enums."""
        from taku.schema import type_schema, union_schema

        rs = self._ruleset()
        docs: list[tuple[str, dict[str, Any]]] = []
        if rs.commands:
            docs.append(("commands", union_schema("commands", tuple(rs.commands))))
        if rs.events:
            docs.append(("events", union_schema("events", tuple(rs.events))))
        for part, t in (("sheet", rs.sheet), ("options", rs.options), ("state", rs.state)):
            if t is not None:
                docs.append((part, type_schema(t)))
        problems = label_problems(docs, self.closed_fields)
        assert not problems, (
            f"{rs.id}: {len(problems)} unlabelled or open fields:\n  " + "\n  ".join(problems[:60])
        )

    def test_errors_declared(self) -> None:
        """Every ``rule/<id>/<reason>`` raised in the package's source is in ``Ruleset.errors``."""
        rs = self._ruleset()
        raised = set()
        for path in self._package_files():
            raised |= _rule_reasons(ast.parse(path.read_text(encoding="utf-8")), rs.id)
        missing = sorted(raised - set(rs.errors))
        assert not missing, f"{rs.id}: reasons raised but not listed in Ruleset.errors: {missing}"
        for reason, meaning in rs.errors.items():
            assert _japanese(meaning), f"{rs.id}: errors[{reason!r}] needs a Japanese meaning"

    # ------------------------------------------------------------------ permits

    async def test_permits(self) -> None:
        """Each command is refused, with ``command/forbidden``, to every sender its permit excludes."""
        rs = self._ruleset()
        t = await _Table.open(self._registry(), rs.id, self.options)
        gm_char = await t.make_character(t.gm, "GMのキャラ", self._sheet(0), owner=None)
        a_char = await t.make_character(t.a, "Aのキャラ", self._sheet(1), owner=t.a)
        failures: list[str] = []
        for cls in (*CORE_COMMANDS, *rs.commands):
            tag = cls.__struct_config__.tag
            permit = cls.permit
            bad = [f for f in permit.owner_fields if f.split(".")[0] not in cls.__struct_fields__]
            if bad:
                failures.append(
                    f"{tag}: permit names owner_field {bad[0]!r}, which the command does not have"
                )
                continue
            for who, role in ((t.gm, Role.GM), (t.a, Role.PLAYER), (t.spectator, Role.SPECTATOR)):
                if role in permit.roles:
                    continue
                cmd = placeholder_command(cls, a_char)
                code = await t.code_of(who, cmd)
                if code != "command/forbidden":
                    failures.append(
                        f"{tag}: a {role} got {code or 'accepted'}; its permit allows only {sorted(permit.roles)}"
                    )
            if permit.owner_field is not None and Role.PLAYER in permit.roles:
                # B is a player, A's character is not B's
                code = await t.code_of(t.b, placeholder_command(cls, a_char))
                if code != "command/forbidden":
                    failures.append(
                        f"{tag}: a player acting for another's character got {code or 'accepted'}"
                    )
                code = await t.code_of(t.b, placeholder_command(cls, gm_char))
                if code != "command/forbidden":
                    failures.append(
                        f"{tag}: a player acting for the GM's NPC got {code or 'accepted'}"
                    )
        assert not failures, f"{rs.id}: declared permits not held:\n  " + "\n  ".join(failures)

    def _sheet(self, i: int) -> dict[str, Any]:
        return dict(self.sheets[i % len(self.sheets)][1]) if self.sheets else {}

    # ------------------------------------------------------------------ random play

    async def test_random_play(self) -> None:
        """Play driven only by affordances, with every invariant checked at every step."""
        for seed in self.seeds:
            await self._play(seed)

    async def _play(self, seed: int) -> None:
        rs = self._ruleset()
        assert not rs.commands or rs.affordances is not None, (
            f"{rs.id} has commands but no affordances(): clients cannot offer them"
        )
        assert not rs.events or rs.render is not None, (
            f"{rs.id} has events but no render(): logs would show only their types"
        )
        rng = random.Random(seed)
        t = await _Table.open(self._registry(), rs.id, self.options, seed=seed)
        for i, (name, sheet) in enumerate(self.sheets):
            owner = None if i % 3 == 2 else (t.a if i % 3 == 0 else t.b)
            await t.make_character(t.gm if owner is None else owner, name, dict(sheet), owner=owner)
        live: dict[int, Any] = {t.table.state.seq: msgspec.to_builtins(t.table.state)}
        commands: list[Command] = []
        actors = [t.gm, t.a, t.b]
        idle = 0
        for step in range(self.steps):
            if rs.on_timer is not None and rng.random() < self.expiries:
                # a timer runs out (the GM's, or one the ruleset set): its on_timer reaction
                if not t.table.state.timers:
                    timer = SetTimer(duration_s=60, label="検査")
                    commands.append(timer)
                    await t.send(t.gm, timer)
                before = t.table.state.seq
                assert await t.expire(60) >= 1, f"seed {seed} step {step}: no timer expired"
                expired = [
                    r.type for r in await t.hub.store.read(t.table.table_id, after_seq=before)
                ]
                assert expired[0] == "timer_expired", f"seed {seed} step {step}: {expired}"
                live[t.table.state.seq] = msgspec.to_builtins(t.table.state)
                continue
            who = rng.choice(actors)
            viewer = t.table.state.viewer(who)
            offered = _offered(t.table, viewer)
            spectator = _offered(t.table, t.table.state.viewer(t.spectator))
            assert not spectator, (
                f"seed {seed} step {step}: a spectator was offered {[a.command for a in spectator]}"
            )
            ruleset_own = [a for a in offered if a.command.startswith(rs.id + ".")]
            pool = (
                ruleset_own
                if ruleset_own and rng.random() < 0.9
                else [a for a in offered if a.command in _SAFE_CORE]
            )
            if not pool:
                idle += 1
                continue
            aff = rng.choice(pool)
            cmd = _build(t.table, aff, rng, f"seed {seed} step {step}")
            permit = type(cmd).permit
            assert viewer.role in permit.roles, (
                f"seed {seed} step {step}: {aff.command} offered to a {viewer.role}, its permit says {sorted(permit.roles)}"
            )
            commands.append(cmd)
            before = t.table.state.seq
            try:
                await t.send(who, cmd)
            except TakuError as e:
                assert e.code != "internal/error", (
                    f"seed {seed} step {step}: {aff.command} {cmd!r} gave internal/error"
                )
                if e.code.startswith(f"rule/{rs.id}/"):
                    reason = e.code.split("/", 2)[2]
                    assert reason in rs.errors, (
                        f"seed {seed} step {step}: {e.code} is not listed in Ruleset.errors"
                    )
                assert t.table.state.seq == before, (
                    f"seed {seed} step {step}: rejected {aff.command} wrote events"
                )
                continue
            live[t.table.state.seq] = msgspec.to_builtins(t.table.state)
        assert idle < self.steps, f"seed {seed}: no affordance was ever offered"
        # the GM reveals the seed at the end, so that every command can be decided again
        from taku.core.commands import RevealSeed

        await t.send(t.gm, RevealSeed())
        await self._check_log(t, live, commands, f"seed {seed}")

    async def _check_log(
        self, t: _Table, live: dict[int, Any], commands: list[Command], where: str
    ) -> None:
        rs = self._ruleset()
        table = t.table
        recs = await t.hub.store.read(table.table_id)
        assert [r.seq for r in recs] == list(range(1, len(recs) + 1)), f"{where}: the log has gaps"
        # JSON round trips, byte for byte
        for rec in recs:
            ev = table.decoder.decode(rec.data)
            assert msgspec.json.encode(ev) == bytes(rec.data), (
                f"{where}: seq {rec.seq} {rec.type} does not round-trip through JSON"
            )
        for cmd in commands:
            raw = msgspec.json.encode(cmd)
            assert table.command_decoder.decode(raw) == cmd, (
                f"{where}: {type(cmd).__name__} does not round-trip through JSON"
            )
        # every ruleset event renders to a line of text
        state = TableState(table_id=table.table_id)
        for rec in recs:
            ev = table.decoder.decode(rec.data)
            state = evolve(state, ev, rs)
            state = msgspec.structs.replace(
                state, seq=rec.seq, dice_cursor=state.dice_cursor + rec.draws, head=rec.hash or ""
            )
            if rs.render is not None and type(ev) in rs.events:
                line = rs.render(ev, state, state.rules)
                assert isinstance(line, str) and line.strip(), (
                    f"{where}: seq {rec.seq} {rec.type} renders to {line!r}"
                )
            if rec.seq in live:
                assert msgspec.to_builtins(state) == live[rec.seq], (
                    f"{where}: the state replayed to seq {rec.seq} differs from the live state there"
                )
        whole = fold(TableState(table_id=table.table_id), recs, rs, table.decoder)
        assert msgspec.to_builtins(whole) == msgspec.to_builtins(state), (
            f"{where}: the fold of the log differs from step-by-step evolve"
        )
        assert msgspec.to_builtins(whole) == msgspec.to_builtins(table.state), (
            f"{where}: the fold of the log differs from the live state"
        )
        # every member's stream: gap-free, and hidden events only for their audience
        members = [None, *table.state.members]
        for m in members:
            frames = [msgspec.json.decode(f) for f in await table.log_frames(m, 0, len(recs) + 1)]
            assert [f["seq"] for f in frames] == [r.seq for r in recs], (
                f"{where}: {m}'s stream is not gap-free"
            )
            viewer = table.state.viewer(m)
            for f, rec in zip(frames, recs, strict=True):
                if rec.audience is not None and not viewer.sees(rec.audience):
                    assert f.get("redacted"), (
                        f"{where}: seq {rec.seq} {rec.type} reached {m or 'the public'} in full, outside its audience"
                    )
                    assert msgspec.json.encode(f["event"]) != bytes(rec.data), (
                        f"{where}: seq {rec.seq}: the stand-in is the event itself"
                    )
        self._check_verify(recs, table, where)
        # the public's view never shows a hidden path's value
        for m in (None, t.spectator):
            seen = view(table.state, table.state.viewer(m), rs)["game"]
            full = msgspec.to_builtins(table.state.game)
            for path in rs.hidden_paths:
                secret = _at(full, path)
                if secret in (None, [], {}, "", 0):
                    continue
                assert _at(seen, path) != secret, (
                    f"{where}: the view for {m or 'the public'} shows hidden {'/'.join(map(str, path))}"
                )

    def _check_verify(self, recs: list[Any], table: TableService, where: str) -> None:
        """``taku verify`` accepts the log as played (issue 17): the chain, every command
        decided again with its epoch's seed, every face; and the public's export of it."""
        from taku.verify import lines_from_export, lines_from_records, verify_log

        registry = self._registry()
        report = verify_log(lines_from_records(recs), registry)
        assert report.ok, (
            f"{where}: taku verify rejects the true log: {[str(p) for p in report.problems[:5]]}"
        )
        decided = report.counts["commands"]
        assert decided == len({r.command_id for r in recs}) - 1, (
            f"{where}: {decided} commands decided again, not every one but the table's creation: "
            f"{report.unchecked}"
        )
        public = "\n".join(f.decode() for f in table.viewer_frames(recs, None))
        again = verify_log(lines_from_export(public), registry)
        assert again.ok, (
            f"{where}: taku verify rejects the public's export: {[str(p) for p in again.problems[:5]]}"
        )


# ---------------------------------------------------------------------- helpers

_SAFE_CORE = frozenset({"chat", "roll"})
"""Core affordances random play takes (making or removing characters would starve it)."""


class _Table:
    """A table on a memory store with seeded dice, a GM, players A and B, and a spectator."""

    def __init__(self, hub: Hub, table: TableService, gm: str) -> None:
        self.hub = hub
        self.table = table
        self.gm = gm
        self.a = self.b = self.spectator = ""
        self._n = 0
        self.ahead = [dt.timedelta(0)]

    @classmethod
    async def open(
        cls, registry: Registry, ruleset_id: str, options: dict[str, Any], seed: int = 0
    ) -> _Table:
        # the server's own dice: each epoch's seed, so that `taku verify` can check the log
        ahead = [dt.timedelta(0)]  # the clock runs on by hand too: timers expire at once
        hub = Hub(MemoryEventStore(), registry, clock=lambda: dt.datetime.now(dt.UTC) + ahead[0])
        created = await hub.create_table(
            ruleset=ruleset_id, name="検査卓", options=dict(options), gm_name="GM"
        )
        t = cls(hub, await hub.table(created.table_id), created.member_id)
        t.ahead = ahead
        t.a = (await hub.join(created.table_id, created.player_token, "プレイヤーA")).member_id
        t.b = (await hub.join(created.table_id, created.player_token, "プレイヤーB")).member_id
        t.spectator = (
            await hub.join(created.table_id, created.spectator_token, "観戦者")
        ).member_id
        return t

    async def expire(self, seconds: int) -> int:
        """Move the hub's clock on by ``seconds`` and expire every timer then due."""
        self.ahead[0] += dt.timedelta(seconds=seconds)
        return await self.hub.fire_due_timers()

    async def send(self, member: str, command: Command) -> tuple[int, int, bool]:
        self._n += 1
        return await self.table.execute(member, command, command_id=f"k{self._n}")

    async def code_of(self, member: str, command: Command) -> str | None:
        """The error code of ``command`` sent by ``member`` (``None`` if accepted)."""
        try:
            await self.send(member, command)
        except TakuError as e:
            return e.code
        return None

    async def make_character(
        self, sender: str, name: str, sheet: dict[str, Any], owner: str | None
    ) -> str:
        from taku.core.commands import CreateCharacter

        await self.send(sender, CreateCharacter(name=name, owner=owner, sheet=sheet))
        return max(self.table.state.characters, key=lambda c: int(re.sub(r"\D", "", c) or 0))


def _offered(table: TableService, viewer: Viewer) -> list[Affordance]:
    from taku.core.table import affordances

    return affordances(table.state, viewer, table.ruleset)


def _build(table: TableService, aff: Affordance, rng: random.Random, where: str) -> Command:
    """The command of ``aff`` with a random choice for every open argument that has choices."""
    cls = _command_class(table, aff.command)
    assert cls is not None, f"{where}: affordance names unknown command {aff.command!r}"
    fields = _required_placeholders(cls)
    fields.update(aff.args)
    names = {f.name for f in mi.type_info(cls).fields}  # type: ignore[attr-defined]
    assert aff.confirm is None or _japanese(aff.confirm), (
        f"{where}: {aff.command} asks {aff.confirm!r}: a confirmation is a Japanese question"
    )
    for name in aff.fields:  # what the person types in: a field of the command, not decided
        assert name in names, f"{where}: {aff.command} asks for {name!r}, no field of the command"
        assert name not in aff.args and name not in aff.choices, (
            f"{where}: {aff.command} both decides and asks for {name!r}"
        )
    for name, choices in aff.choices.items():
        assert choices, f"{where}: {aff.command} offers no choice for {name!r}"
        if _is_list_field(cls, name):
            k = rng.randint(1, min(len(choices), 3))
            fields[name] = [c.value for c in rng.sample(list(choices), k)]
        else:
            fields[name] = rng.choice(list(choices)).value
    try:
        return msgspec.convert({"type": aff.command, **fields}, cls)
    except msgspec.ValidationError as e:
        raise AssertionError(
            f"{where}: affordance {aff.label!r} ({aff.command}) builds no valid command: {e}"
        ) from None


def _command_class(table: TableService, tag: str) -> type[Command] | None:
    for cls in (*CORE_COMMANDS, *table.ruleset.commands):
        if cls.__struct_config__.tag == tag:
            return cls
    return None


def _is_list_field(cls: type[Command], name: str) -> bool:
    info = mi.type_info(cls)
    assert isinstance(info, mi.StructType)
    for f in info.fields:
        if f.name == name:
            t = f.type.type if isinstance(f.type, mi.Metadata) else f.type
            options = t.types if isinstance(t, mi.UnionType) else (t,)  # list[...] | None
            for u in options:
                u = u.type if isinstance(u, mi.Metadata) else u
                if isinstance(u, (mi.ListType, mi.VarTupleType, mi.SetType, mi.FrozenSetType)):
                    return True
            return False
    return False


def _required_placeholders(cls: type[Command]) -> dict[str, Any]:
    """Free input for required fields an affordance leaves open (``text``, an expression)."""
    info = mi.type_info(cls)
    assert isinstance(info, mi.StructType)
    return {f.encode_name: _placeholder(f.type, None) for f in info.fields if f.required}


def placeholder_command(cls: type[Command], character_id: str) -> Command:
    """An instance of ``cls`` with a plausible value in every required field.

    Fields naming a character (``*character*``, the permit's ``owner_field``,
    ``attacker``/``target``/``defender``/``actor``), nested ones included, get
    ``character_id``; others a value of their type within its bounds. Used to
    reach the permit check.
    """
    info = mi.type_info(cls)
    assert isinstance(info, mi.StructType)
    data: dict[str, Any] = {"type": cls.__struct_config__.tag}
    owned = {p.split(".")[0] for p in cls.permit.owner_fields}
    for f in info.fields:
        if f.required or f.name in owned:
            data[f.encode_name] = _placeholder(
                f.type, character_id, f.name in owned or _charlike(f.name)
            )
    return msgspec.convert(data, cls)


def _charlike(name: str) -> bool:
    return "character" in name or name in (
        "attacker",
        "target",
        "defender",
        "actor",
        "who",
        "targets",
    )


def _placeholder(t: mi.Type, character_id: str | None, charlike: bool = False) -> Any:
    if isinstance(t, mi.Metadata):
        return _placeholder(t.type, character_id, charlike)
    if isinstance(t, mi.StrType):
        return character_id if charlike and character_id else "x" * max(1, t.min_length or 0)
    if isinstance(t, mi.IntType):
        lo = t.ge if t.ge is not None else (t.gt + 1 if t.gt is not None else None)
        hi = t.le if t.le is not None else (t.lt - 1 if t.lt is not None else None)
        v = 1 if lo is None else max(lo, 1) if hi is None or hi >= 1 else lo
        return v if hi is None else min(v, hi)
    if isinstance(t, mi.FloatType):
        return 1.0
    if isinstance(t, mi.BoolType):
        return False
    if isinstance(t, mi.LiteralType):
        return t.values[0]
    if isinstance(t, mi.EnumType):
        return next(iter(t.cls)).value
    if isinstance(t, (mi.ListType, mi.VarTupleType, mi.SetType, mi.FrozenSetType)):
        item = _placeholder(t.item_type, character_id, charlike)
        n = (
            max(1, t.min_length or 0)
            if charlike or isinstance(t.item_type, mi.StructType) or t.min_length
            else 0
        )
        return [item] * n
    if isinstance(t, mi.TupleType):
        return [_placeholder(u, character_id, charlike) for u in t.item_types]
    if isinstance(t, mi.DictType):
        return {}
    if isinstance(t, mi.UnionType):
        for u in t.types:
            if not isinstance(u, mi.NoneType):
                return _placeholder(u, character_id, charlike)
        return None
    if isinstance(t, mi.StructType):
        return {
            f.encode_name: _placeholder(f.type, character_id, _charlike(f.name))
            for f in t.fields
            if f.required or (character_id and _charlike(f.name))
        }
    return None


def label_problems(
    docs: Sequence[tuple[str, dict[str, Any]]],
    closed_fields: frozenset[str] = frozenset(),
    open_fields: frozenset[str] = frozenset(),
) -> list[str]:
    """What is unlabelled or open in JSON Schemas ``(part, schema)``: Structs and fields
    without a Japanese title, and free strings in fields whose rule has a closed set
    (``open_fields`` names ``"Struct.field"`` exceptions, strings that are free by design)."""
    problems: list[str] = []
    closed = CLOSED_FIELDS | closed_fields
    for part, doc in docs:
        for name, entry in doc.get("$defs", {}).items():
            if entry.get("type") != "object":
                continue
            if not _japanese(entry.get("title")):
                problems.append(
                    f"{part}: {name} has no Japanese title (set meta = msgspec.Meta(title=…))"
                )
            for field, prop in entry.get("properties", {}).items():
                if field == "type" and "enum" in prop and len(prop["enum"]) == 1:
                    continue  # the tag
                if not _japanese(prop.get("title")):
                    problems.append(f"{part}: {name}.{field} has no Japanese title")
                if (
                    field in closed
                    and f"{name}.{field}" not in open_fields
                    and _is_free_string(prop)
                ):
                    problems.append(
                        f"{part}: {name}.{field} is a free string but the rule has a closed set (use Literal[...])"
                    )
    return problems


def _is_free_string(prop: dict[str, Any]) -> bool:
    """A schema that accepts any string (no enum, const or pattern), possibly within a union with null."""
    if "enum" in prop or "const" in prop or "$ref" in prop:
        return False
    if prop.get("type") == "string":
        return "pattern" not in prop
    for key in ("anyOf", "oneOf"):
        if key in prop:
            return any(_is_free_string(p) for p in prop[key])
    if prop.get("type") == "array" and isinstance(prop.get("items"), dict):
        return _is_free_string(prop["items"])
    return False


def _rule_reasons(tree: ast.AST, ruleset_id: str) -> set[str]:
    """Reasons of ``reject("reason", …)`` / ``Rejected("<id>", "reason", …)`` calls with literal reasons."""
    found = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        fn = node.func
        name = (
            fn.id if isinstance(fn, ast.Name) else fn.attr if isinstance(fn, ast.Attribute) else ""
        )
        args = [
            a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)
        ]
        if name == "Rejected" and len(args) >= 2 and args[0] == ruleset_id:
            found.add(args[1])
        elif (
            name in ("reject", "_reject")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            found.add(node.args[0].value)
    return found


def _at(node: Any, path: Sequence[str | int]) -> Any:
    for key in path:
        try:
            node = node[key]
        except (KeyError, IndexError, TypeError):
            return None
    return node
