"""The map's part of ``affordances``: placing, moving (reachable squares as choices),
連続側転, 全力移動, ◉ abilities, and the GM's map tools.

A move affordance is ``nstrpg.move`` with ``character_id`` decided and ``to`` chosen from
the reachable squares (value ``[x, y]``, label ``(x, y) nマス``); sending it moves along a
shortest legal path. A client drawing its own path sends ``path`` instead.
"""

from __future__ import annotations

from taku.core.play import Affordance, Choice
from taku.core.table import Character, TableState
from taku_nstrpg import board as bd
from taku_nstrpg import turn_end as te
from taku_nstrpg._evolve import sheet_of
from taku_nstrpg.abilities import ABILITIES
from taku_nstrpg.damage import ACTIVE
from taku_nstrpg.moves import adjacent_enemy, entry_candidates, move_now, placement_due
from taku_nstrpg.state import NsGame, NsSheet

__all__ = ["gm_map_affordances", "map_affordances", "square_label"]

_STYLE_LABEL = {"normal": "移動する", "sokuten": "連続側転移動する", "full": "全力移動の移動をする"}


def square_label(p: bd.Pos) -> str:
    """A square's choice label, 1-based as the map shows it (``2列3行``)."""
    return bd.square_name(p)


def _free_squares(game: NsGame) -> list[bd.Pos]:
    b = game.board
    if b is None or b.map is None:
        return []
    taken = set(b.positions.values())
    m = b.map
    return [
        (x, y)
        for y in range(m.height)
        for x in range(m.width)
        if m.rows[y][x] not in "#O" and (x, y) not in taken
    ]


def map_affordances(table: TableState, game: NsGame, ch: Character, gm: bool) -> list[Affordance]:
    """What the controller of ``ch`` may do on the map now."""
    b = game.board
    if b is None or b.map is None:
        return []
    out: list[Affordance] = []
    f = game.fighters.get(ch.id)
    if f is None:
        return out
    if game.combat and game.turn == 0 and placement_due(table, game) == ch.id:
        out.append(
            Affordance(
                command="nstrpg.place",
                label="配置する",
                args={"character_id": ch.id},
                choices={
                    "at": [
                        Choice(value=list(p), label=square_label(p)) for p in _free_squares(game)
                    ]
                },
                group=ch.name,
                primary=True,
            )
        )
    if f.status != ACTIVE:
        return out
    acting = game.combat and game.turn > 0 and game.acting == ch.id
    if (
        acting
        and game.step == "move"
        and ch.id in b.positions
        and ch.id not in b.moved
        and not f.sokuten
    ):
        out.append(
            Affordance(
                command="nstrpg.check",
                label="連続側転する（ワザマエ判定:NORMAL）",
                args={"character_id": ch.id, "stat": "wazamae", "purpose": "sokuten"},
                group=ch.name,
            )
        )
    now = move_now(table, game, ch.id)
    if not isinstance(now, str):
        style, rules = now
        start = b.positions[ch.id]
        squares = bd.reachable(b.map, start, rules)
        if squares:
            out.append(
                Affordance(
                    command="nstrpg.move",
                    label=_STYLE_LABEL[style],
                    args={"character_id": ch.id},
                    choices={
                        "to": [
                            Choice(value=list(p), label=f"{square_label(p)} {len(path)}マス")
                            for p, path in sorted(
                                squares.items(), key=lambda kv: (kv[0][1], kv[0][0])
                            )
                        ]
                    },
                    group=ch.name,
                    # move first unless an enemy is already adjacent (then attack)
                    primary=acting and (style == "full" or not adjacent_enemy(table, game, ch.id)),
                )
            )
    if acting and game.step in ("move", "attack") and ch.id not in b.full_move:
        out.append(
            Affordance(
                command="nstrpg.full_move",
                label="全力移動する（攻撃フェイズの行動を捨ててD3マス移動）",
                args={"character_id": ch.id},
                group=ch.name,
            )
        )
    sheet = sheet_of(ch.sheet)
    for name in sheet.skills:
        base = name.split(":")[0].split("：")[0]
        if base in ABILITIES and acting:
            out.append(
                Affordance(
                    command="nstrpg.use_ability",
                    label=f"{base}を使う",
                    args={"character_id": ch.id, "ability": base},
                    group=ch.name,
                )
            )
    if te.step(table, game) == "abilities":  # the ターン終了フェイズ's abilities (NS-42)
        names = [n for n in _skill_names(sheet) if not _is_shot(n)]
        if names:
            out.append(
                Affordance(
                    command="nstrpg.use_ability",
                    label="ターン終了フェイズの能力を使う",
                    args={"character_id": ch.id},
                    choices={"ability": [Choice(value=n, label=n) for n in names]},
                    group=ch.name,
                )
            )
    return out


def _skill_names(sheet: NsSheet) -> list[str]:
    return [n.split(":")[0].split("：")[0] for n in sheet.skills if n.strip()]


def _is_shot(name: str) -> bool:
    """A ◉ ability that is an attack (its shot is in the 攻撃フェイズ of one's own 手番)."""
    info = ABILITIES.get(name)
    return info is not None and bool(info.area or info.damage_d6)


def gm_map_affordances(table: TableState, game: NsGame) -> list[Affordance]:
    """The GM's map tools: a sample map, placing any character."""
    out = [
        Affordance(
            command="nstrpg.set_map",
            label="マップを設定する（サンプル）",
            choices={"sample": [Choice(value=k, label=m.name) for k, m in bd.SAMPLE_MAPS.items()]},
            group="GM",
        )
    ]
    b = game.board
    if b is not None and b.map is not None and b.entry_row:
        slayers = [
            Choice(value=k, label=c.name)
            for k, c in table.characters.items()
            if k in game.fighters and k not in b.positions
        ]
        squares = entry_candidates(table, game)
        if slayers and squares:
            out.append(
                Affordance(
                    command="nstrpg.place_entry",
                    label=f"【殺】を配置する（エントリー{b.entry_row}）",
                    choices={
                        "character_id": slayers,
                        "at": [Choice(value=list(p), label=square_label(p)) for p in squares],
                    },
                    group="GM",
                    primary=True,
                )
            )
    if b is not None and b.map is not None:
        # new characters only once the atmosphere is declared (placed last, NS-42)
        early = te.step(table, game) in ("effects", "abilities")
        chars = [
            Choice(value=k, label=c.name)
            for k, c in table.characters.items()
            if k in game.fighters and not (early and k not in b.positions)
        ]
        if chars:
            out.append(
                Affordance(
                    command="nstrpg.place",
                    label="キャラクターを置く・動かす",
                    choices={"character_id": chars},
                    group="GM",
                )
            )
    return out
