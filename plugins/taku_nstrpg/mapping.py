"""The map in play: its state (:class:`Board`), commands, events, and their decide / evolve.

``game.board`` is ``None`` until the GM sets a map (``nstrpg.set_map``): combat without a
map works exactly as before (the GM decides adjacency and sight, NS-60). With a board:

- ``set_map`` (GM): a sample map or the compact text form (:mod:`taku_nstrpg.board`);
  ``edit_map`` (GM): change squares (paint walls, open a door); ``place`` (GM any time,
  with a reason; a player its own character while a sudden combat is being placed, NS-33).
- ``move`` (owner): one move of the move phase, validated square by square (NS-46 … NS-51):
  ``path`` (the squares stepped on) or ``to`` (the server picks a shortest legal path).
  Its style follows the 手番: 通常移動, 連続側転移動 after a successful 連続側転判定, or the
  D3 squares of 全力移動 (``full_move``, an attack-phase other action, NS-52).
- ``use_ability`` (owner): an ability use, with its 『2ターン連続使用不可』 cooldown per
  ability (NS-71; per 手番 in 一騎打ち, NS-34) and at most one instant action per phase (NS-35).
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

import msgspec

from taku.core import kit
from taku.core.commands import GM, Command, field, owner_of
from taku.core.dice import Roll
from taku.core.events import Event
from taku_nstrpg import board as bd
from taku_nstrpg._labels import CharacterId, Reason

__all__ = [
    "MAP_COMMANDS",
    "MAP_EVENTS",
    "Board",
    "CellEdit",
    "EditMap",
    "FullMove",
    "Move",
    "Place",
    "PlaceEntry",
    "SetMap",
    "UseAbility",
]

_replace = msgspec.structs.replace

reject = kit.rejecter("nstrpg")

Square = Annotated[tuple[int, int], field("マス", "[x, y]（左上が[0, 0]）")]
MoveStyle = Literal["normal", "sokuten", "full"]
MOVE_STYLE_DESC = "normal（通常移動）/ sokuten（連続側転移動）/ full（全力移動）"


class Board(msgspec.Struct, frozen=True, kw_only=True):
    """The map and what happens on it (``game.board``; ``None`` = no map).

    Attributes:
        map: the grid (``None``: positions without a map are not used).
        positions: character id -> its square; characters not on the map are absent.
        moved: who has made the move of this 手番's move phase (or cannot: 連続側転 failed).
        sokuten: character id -> 6s among its successful 連続側転判定 this 手番 (it may
            make a 連続側転移動; 2+ 6s pass blocked doors, 3+ blocked windows, NS-51).
        full_move: character id -> squares of 全力移動 still to move (NS-52).
        used: character id -> ability -> the turn (in 一騎打ち the character's 手番 count)
            it was last used (『2ターン連続使用不可』, NS-71).
        instant: character id -> the phase number of its last instant action (NS-35).
        turns_taken: character id -> 手番 begun this combat (一騎打ち cooldowns).
        entry_row, entry_target: the 死神のエントリー決定表 row to place 【殺】 by and the
            target ninja (after a successful Wasshoi!, until ``place_entry``; 0 = none).
        sudden: the combat began with nobody on the map (a sudden combat, 2-3): ``start_turn``
            waits until every fighter is placed, lowest イニシアチブ first (NS-33); a
            combat begun with positions may leave a character off the map (it enters later).
    """

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="マップと位置", description="マップ、キャラクターの位置、移動と能力の記録"
    )

    map: Annotated[bd.NsMap | None, field("マップ")] = None
    positions: Annotated[dict[str, tuple[int, int]], field("位置", "キャラクターID → [x, y]")] = {}
    moved: Annotated[tuple[str, ...], field("移動済み", "この手番の移動を終えたキャラクター")] = ()
    sokuten: Annotated[
        dict[str, int], field("連続側転成功", "キャラクターID → 連続側転判定の出目の6の数")
    ] = {}
    full_move: Annotated[dict[str, int], field("全力移動", "キャラクターID → 残りのマス数")] = {}
    used: Annotated[
        dict[str, dict[str, int]],
        field("能力の使用", "キャラクターID → 能力 → 使ったターン（一騎打ちでは手番）"),
    ] = {}
    instant: Annotated[
        dict[str, int], field("瞬時行動", "キャラクターID → 瞬時行動をしたフェイズ番号")
    ] = {}
    turns_taken: Annotated[
        dict[str, int], field("手番の数", "キャラクターID → この戦闘で始めた手番の数")
    ] = {}
    entry_row: Annotated[
        int,
        field(
            "エントリーの行", "【殺】を配置する死神のエントリー決定表の行（0: なし）", ge=0, le=6
        ),
    ] = 0
    entry_target: Annotated[
        str | None, field("標的ニンジャ", "エントリーの標的のキャラクターID")
    ] = None
    slayer: Annotated[str | None, field("【殺】", "死神のエントリーで配置されたキャラクターID")] = (
        None
    )
    sealed_windows: Annotated[
        tuple[tuple[int, int], ...],
        field(
            "脱出できない窓", "エントリー3で【殺】が突き破った窓（隣接している間は脱出に使えない）"
        ),
    ] = ()
    sudden: Annotated[
        bool,
        field(
            "突発的な戦闘",
            "戦闘開始時にマップ上に誰もいなかった: ターン1の前に全員をイニシアチブの低い順に配置する（NS-33）",
        ),
    ] = False


class CellEdit(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One square changed on the map."""

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(title="マスの変更")

    x: Annotated[int, field("列", "x（0から）", ge=0, le=bd.MAX_SIDE - 1)]
    y: Annotated[int, field("行", "y（0から）", ge=0, le=bd.MAX_SIDE - 1)]
    cell: Annotated[
        Literal[".", "#", "D", "d", "W", "O", "T", "X"],
        field("マス", "# 壁 . 床 D 閉じたドア d 開いたドア W 窓 O 障害物 T 宝箱 X 爆発物"),
    ]


SampleId = Literal["dojo", "office", "alley"]


class SetMap(Command, frozen=True, kw_only=True, tag="nstrpg.set_map"):
    """GM: set the battle map: a sample (``sample``) or the compact text form (``text``,
    one line a row, one character a square); both empty removes the map."""

    permit = GM
    meta = msgspec.Meta(
        title="マップを設定する",
        description="サンプルマップか、1マス1文字のテキスト（# 壁 . 床 D ドア d 開いたドア W 窓 O 障害物 T 宝箱 X 爆発物）でマップを作る。空ならマップをなくす",
    )

    text: Annotated[str, field("マップのテキスト", "1行が1列、1文字が1マス", max_length=5000)] = ""
    sample: Annotated[
        SampleId | None,
        field(
            "サンプルマップ", "dojo（ドージョー）/ office（オフィスビル）/ alley（ネオン路地裏）"
        ),
    ] = None
    name: Annotated[str, field("マップ名", max_length=100)] = ""
    reason: Reason = ""


class EditMap(Command, frozen=True, kw_only=True, tag="nstrpg.edit_map"):
    """GM: change squares of the map (paint a wall, open or close a door), with a reason."""

    permit = GM
    meta = msgspec.Meta(
        title="マップを編集する", description="マスを変える（壁・ドアの開閉・障害物など）"
    )

    cells: Annotated[list[CellEdit], field("変更するマス")]
    reason: Reason = ""


class Place(Command, frozen=True, kw_only=True, tag="nstrpg.place"):
    """Place, move or take off a character (``at`` empty): the GM at any time, with a
    reason; a player its own character while a sudden combat is placed (NS-33)."""

    permit = owner_of("character_id")
    meta = msgspec.Meta(
        title="配置する",
        description="キャラクターをマスに置く・動かす・マップから外す（GMはいつでも。突発的な戦闘の配置ではプレイヤーも自分のキャラクターを）",
    )

    character_id: Annotated[str, field("キャラクター", "置くキャラクターのID")]
    at: Annotated[tuple[int, int] | None, field("マス", "[x, y]。空ならマップから外す")] = None
    reason: Reason = ""


class Move(Command, frozen=True, kw_only=True, tag="nstrpg.move"):
    """A move (2-5): ``path`` the squares stepped on in order, or ``to`` the square to
    end on (a shortest legal path is chosen). The style follows the 手番 (see module)."""

    permit = owner_of("character_id")
    meta = msgspec.Meta(
        title="移動する",
        description="移動フェイズの移動（2-5）。通ったマスを順に指定するか、行き先のマスだけを指定する",
    )

    character_id: Annotated[str, field("移動するキャラクター", "キャラクターのID")]
    path: Annotated[
        list[tuple[int, int]], field("経路", "通るマス [x, y] を順に（出発マスは含めない）")
    ] = []
    to: Annotated[tuple[int, int] | None, field("行き先", "[x, y]（経路が空のとき）")] = None


class FullMove(Command, frozen=True, kw_only=True, tag="nstrpg.full_move"):
    """全力移動 (NS-52): the attack phase's other action; D3 squares of normal move at once."""

    permit = owner_of("character_id")
    meta = msgspec.Meta(
        title="全力移動",
        description="攻撃フェイズの行動を捨てて全力移動する（自動成功。直ちにD3マスの通常移動、NS-52）",
    )

    character_id: Annotated[str, field("キャラクター", "キャラクターのID")]


class UseAbility(Command, frozen=True, kw_only=True, tag="nstrpg.use_ability"):
    """Use an ability: its 『2ターン連続使用不可』 is enforced per ability (NS-71);
    ``instant``: a 瞬時行動, at most one per phase (NS-35)."""

    permit = owner_of("character_id")
    meta = msgspec.Meta(
        title="能力を使う",
        description="能力の使用を記録する。『2ターン連続使用不可』は能力ごとに（NS-71）、瞬時行動は1フェイズ1回（NS-35）",
    )

    character_id: Annotated[str, field("キャラクター", "キャラクターのID")]
    ability: Annotated[
        str, field("能力", "能力の名前（例: ◉ヘルタツマキ）", min_length=1, max_length=100)
    ]
    instant: Annotated[bool, field("瞬時行動", "瞬時行動として使う")] = False
    target: Annotated[str | None, field("対象", "キャラクターのID")] = None


class PlaceEntry(Command, frozen=True, kw_only=True, tag="nstrpg.place_entry"):
    """GM: place 【殺】 by the entry table's row (NS-99): ``at`` one of the squares the row
    allows (empty: the nearest); refused as ``entry_impossible`` when the map has none (then
    ``reroll_entry`` once, and after it the GM chooses, NS-100)."""

    permit = GM
    meta = msgspec.Meta(
        title="【殺】を配置する",
        description="死神のエントリー決定表の結果どおりにニンジャスレイヤーをマップに置く（NS-99）。不可能なら振り直し（NS-100）",
    )

    character_id: Annotated[str, field("ニンジャスレイヤー", "キャラクターのID")]
    at: Annotated[tuple[int, int] | None, field("マス", "[x, y]（空なら最も近い候補）")] = None


class SetPcOrder(Command, frozen=True, kw_only=True, tag="nstrpg.set_pc_order"):
    """GM: the order agreed among PCs with the same イニシアチブ値 (talk, dice, janken),
    kept until changed (NS-31: at scenario start, and once for a tie that appears in combat)."""

    permit = GM
    meta = msgspec.Meta(
        title="同値のPCの順番",
        description="イニシアチブ値が同じPCの行動順（話し合い・出目比べ・ジャンケンで決めたもの、NS-31）",
    )

    order: Annotated[list[str], field("順番", "先に行動するPCから、キャラクターIDを順に")]


# --------------------------------------------------------------------------- events


class PcOrderSet(Event, frozen=True, kw_only=True, tag="nstrpg.pc_order_set"):
    """The agreed order of PCs with the same イニシアチブ値 (NS-31)."""

    meta = msgspec.Meta(title="同値のPCの順番を決めた", description="NS-31")

    order: Annotated[tuple[str, ...], field("順番", "キャラクターID")]


class MapSet(Event, frozen=True, kw_only=True, tag="nstrpg.map_set"):
    """The GM set the map (``map`` ``None``: removed; positions are kept only on a map)."""

    meta = msgspec.Meta(title="マップを設定した", description="GMがマップを設定した（空なら削除）")

    map: Annotated[bd.NsMap | None, field("マップ")] = None
    sample: Annotated[str | None, field("サンプルマップ")] = None
    reason: Annotated[str, field("理由")] = ""


class MapEdited(Event, frozen=True, kw_only=True, tag="nstrpg.map_edited"):
    """The GM changed squares of the map."""

    meta = msgspec.Meta(title="マップを編集した", description="GMがマスを変えた")

    cells: Annotated[tuple[CellEdit, ...], field("変更したマス")]
    reason: Annotated[str, field("理由")] = ""


class Placed(Event, frozen=True, kw_only=True, tag="nstrpg.placed"):
    """A character placed, moved by hand or taken off the map (``at`` ``None``)."""

    meta = msgspec.Meta(
        title="配置した", description="キャラクターをマスに置いた（空ならマップから外した）"
    )

    character_id: CharacterId
    at: Annotated[tuple[int, int] | None, field("マス", "[x, y]（空: マップの外）")] = None
    previous: Annotated[tuple[int, int] | None, field("前のマス")] = None
    by_gm: Annotated[bool, field("GMが置いた")] = False
    reason: Annotated[str, field("理由")] = ""
    entry: Annotated[
        bool, field("エントリー", "死神のエントリー決定表による【殺】の配置（NS-99）")
    ] = False


class Moved(Event, frozen=True, kw_only=True, tag="nstrpg.moved"):
    """A validated move: from ``start`` through ``path`` (2-5)."""

    meta = msgspec.Meta(title="移動した", description="移動フェイズの移動（2-5）")

    character_id: CharacterId
    start: Annotated[tuple[int, int], field("出発マス")]
    path: Annotated[tuple[tuple[int, int], ...], field("経路", "通ったマス")]
    style: Annotated[MoveStyle, field("移動の種類", MOVE_STYLE_DESC)] = "normal"


class FullMoveRolled(Event, frozen=True, kw_only=True, tag="nstrpg.full_move_rolled"):
    """全力移動 declared: ``squares`` = D3 from ``roll`` (G-NS-16)."""

    meta = msgspec.Meta(title="全力移動した", description="D3マスの追加の通常移動（NS-52）")

    character_id: CharacterId
    roll: Annotated[Roll, field("出目", "D3（D6の出目の半分、切り上げ）")]
    squares: Annotated[int, field("マス数", "D3")]


class KnockedBack(Event, frozen=True, kw_only=True, tag="nstrpg.knocked_back"):
    """弾き飛ばし on the map (NS-93): the squares passed, the end, and a wall hit."""

    meta = msgspec.Meta(title="弾き飛ばされた", description="弾き飛ばしで強制移動した（NS-93）")

    character_id: CharacterId
    start: Annotated[tuple[int, int], field("元のマス")]
    path: Annotated[tuple[tuple[int, int], ...], field("経路", "通ったマス")] = ()
    end: Annotated[tuple[int, int], field("止まったマス")]
    wall: Annotated[bool, field("激突", "壁や障害物に激突した（1ダメージ、回避:NORMAL）")] = False


class AbilityUsed(Event, frozen=True, kw_only=True, tag="nstrpg.ability_used"):
    """An ability used (its cooldown starts, NS-71)."""

    meta = msgspec.Meta(
        title="能力を使った", description="能力を使った（『2ターン連続使用不可』の記録、NS-71）"
    )

    character_id: CharacterId
    ability: Annotated[str, field("能力")]
    turn: Annotated[int, field("ターン", "使ったターン（一騎打ちでは手番の数）")]
    instant: Annotated[bool, field("瞬時行動")] = False
    target: Annotated[str | None, field("対象")] = None
    seishin: Annotated[int, field("【精神力】消費", "使うときに消費した【精神力】")] = 0


MAP_COMMANDS: tuple[type[Command], ...] = (
    SetMap,
    EditMap,
    Place,
    Move,
    FullMove,
    UseAbility,
    PlaceEntry,
    SetPcOrder,
)
MAP_EVENTS: tuple[type[Event], ...] = (
    MapSet,
    MapEdited,
    Placed,
    Moved,
    FullMoveRolled,
    KnockedBack,
    AbilityUsed,
    PcOrderSet,
)


def edit_board(board: Board | None, **changes: Any) -> Board:
    return _replace(board or Board(), **changes)


def _drop(d: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in d.items() if k != key}


def evolve_board(board: Board | None, event: Event, phase: int = 0) -> Board | None:
    """The board after one of :data:`MAP_EVENTS` (``evolve`` of the ruleset calls it;
    ``phase`` is the game's phase number, for instant actions)."""
    match event:
        case MapSet(map=m):
            if m is None:
                return None
            pos = {
                k: p
                for k, p in (board.positions if board else {}).items()
                if m.inside(p) and m.cell(p) not in "#O"
            }
            return edit_board(board, map=m, positions=pos)
        case MapEdited(cells=cells):
            if board is None or board.map is None:
                return board
            m = board.map
            for c in cells:
                if m.inside((c.x, c.y)):
                    m = m.with_cell((c.x, c.y), c.cell)
            return edit_board(board, map=m)
        case Placed(character_id=cid, at=at, entry=entry):
            pos = _drop(board.positions, cid) if board else {}
            if at is not None:
                pos[cid] = at
            b = edit_board(board, positions=pos)
            if entry and at is not None:  # 【殺】 is on the map; row 3: the windows next to him
                m = b.map
                windows = (
                    tuple(q for q in bd.around(at) if m.inside(q) and m.cell(q) == "W")
                    if m is not None and b.entry_row == 3
                    else ()
                )
                b = _replace(b, entry_row=0, entry_target=None, slayer=cid, sealed_windows=windows)
            return b
        case Moved(character_id=cid, path=path, style=style):
            b = edit_board(board, positions={**(board.positions if board else {}), cid: path[-1]})
            if style == "full":
                b = _replace(b, full_move=_drop(b.full_move, cid))
            return _replace(b, moved=b.moved if cid in b.moved else (*b.moved, cid))
        case FullMoveRolled(character_id=cid, squares=n):
            b = edit_board(board)
            return _replace(b, full_move={**b.full_move, cid: n})
        case KnockedBack(character_id=cid, end=end):
            b = edit_board(board)
            return _replace(b, positions={**b.positions, cid: end})
        case AbilityUsed(character_id=cid, ability=name, turn=turn, instant=instant):
            b = edit_board(board)
            mine = {**b.used.get(cid, {}), name: turn}
            b = _replace(b, used={**b.used, cid: mine})
            return _replace(b, instant={**b.instant, cid: phase}) if instant else b
    return board
