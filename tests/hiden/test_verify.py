"""Every face a 秘伝の声 command rolls is in its events: ``taku verify`` checks a seeded table."""

from __future__ import annotations

import msgspec

from taku.app import Hub
from taku.core.commands import Chat, CreateCharacter, RevealSeed
from taku.plugins import load_registry
from taku.store.memory import MemoryEventStore
from taku.verify import LogEntry, lines_from_export, lines_from_records, verify, verify_log
from taku_hiden.commands import (
    AwardZabuton,
    Check,
    CheckSpec,
    KanCheck,
    Oppose,
    OpposedCheck,
    Reroll,
)

from .conftest import KOU, OTSU


async def test_seeded_table_verifies() -> None:
    """Checks, 6ゾロ bonuses, the GM's target 2D, opposed checks and rerolls all record their faces."""
    hub = Hub(MemoryEventStore(), load_registry())
    created = await hub.create_table(ruleset="hiden", name="検証卓", options={}, gm_name="GM")
    table = await hub.table(created.table_id)
    gm = created.member_id
    n = 0

    async def send(cmd: object) -> None:
        nonlocal n
        n += 1
        await table.execute(gm, cmd, command_id=f"v{n}")  # type: ignore[arg-type]

    await send(CreateCharacter(name="甲", sheet=KOU))
    await send(CreateCharacter(name="乙", sheet=OTSU))
    kou, otsu = list(table.state.characters)
    await send(AwardZabuton(character_id=kou, count=20))
    for d in range(-3, 11):
        await send(Check(character_id=kou, skill="姿隠し", difficulty=d))
        await send(Reroll(character_id=kou))
    await send(Check(character_id=kou, skill="姿隠し"))
    await send(
        Oppose(
            against=list(table.state.game.checks)[-1],
            second=CheckSpec(character_id=otsu, skill="探索"),
        )
    )
    for _ in range(10):
        await send(
            OpposedCheck(
                first=CheckSpec(character_id=kou, skill="姿隠し"), second=CheckSpec(level=2)
            )
        )
        await send(KanCheck(character_id=kou, difficulty=1))
        await send(Chat(text="HD3@2"))
        await send(Chat(text="HD1VS1"))
    await send(RevealSeed())
    recs = await hub.store.read(created.table_id)
    problems, counts = verify(
        LogEntry(r.seq, r.command_id, r.draws, msgspec.json.decode(r.data)) for r in recs
    )
    assert problems == []
    assert counts["rolls"] > 100
    # and the whole log: its chain, and every command decided again with the revealed seed
    report = verify_log(lines_from_records(recs), load_registry())
    assert report.ok, [str(x) for x in report.problems]
    assert report.counts["commands"] == len({r.command_id for r in recs}) - 1
    # the public's and the GM's exports too: what they hold checks, display fields included
    for who in (None, created.member_id):
        text = "\n".join(f.decode() for f in table.viewer_frames(recs, who))
        rep = verify_log(lines_from_export(text), load_registry())
        assert rep.ok, (who, [str(x) for x in rep.problems])
