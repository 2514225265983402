"""Undo and fork on PostgreSQL with two nodes (issue #20): the shared store's command path."""

from __future__ import annotations

import pytest
from tests.store.test_postgres import PostgresSetup

from taku.app import Hub
from taku.core.commands import CreateCharacter, Redo, Undo
from taku.plugins import load_registry
from taku.store.postgres import PostgresEventStore

pytestmark = pytest.mark.postgres


class TestUndoOnTwoNodes(PostgresSetup):
    async def test_an_undo_on_one_node_is_folded_by_the_other(self, node: object) -> None:
        a_store: PostgresEventStore = await node()  # type: ignore[operator]
        b_store: PostgresEventStore = await node()  # type: ignore[operator]
        reg = load_registry()
        a, b = Hub(a_store, reg), Hub(b_store, reg)
        c = await a.create_table(ruleset="generic")
        ta, tb = await a.table(c.table_id), await b.table(c.table_id)
        await ta.execute(c.member_id, CreateCharacter(name="アヤ"), command_id="c1")
        await tb.execute(c.member_id, CreateCharacter(name="ボブ"), command_id="c2")
        # node A undoes the command node B appended (it catches up under the lock first)
        await ta.execute(c.member_id, Undo(), command_id="u1")
        assert [ch.name for ch in ta.state.characters.values()] == ["アヤ"]
        await tb.execute(c.member_id, Redo(), command_id="u2")
        assert [ch.name for ch in tb.state.characters.values()] == ["アヤ", "ボブ"]
        f = await b.fork_table(c.table_id, c.member_id, at_seq=3)
        fork = await a.table(f.created.table_id)  # the fork, loaded by the other node
        assert [ch.name for ch in fork.state.characters.values()] == ["アヤ"]
        await a.close()
        await b.close()
