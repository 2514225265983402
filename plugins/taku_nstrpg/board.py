"""The nstrpg map as data, and the pure geometry of 2-5, 2-6, 2-13 and 2-15 on it.

A map is a grid of squares, ``width`` × ``height``, row 0 at the top, ``x`` to the right.
Each square is one character of the compact text form (:data:`CELLS`)::

    #########
    #...D...#      # wall   . floor   D closed door   d open door   W window
    #.O.#.T.#      O obstacle   T treasure box   X explosives
    #########

Positions are ``(x, y)`` squares; characters stand on floor, door, window, treasure and
explosive squares (never on walls or obstacles).

Rules implemented here (NSTRPG 2-5 … 2-15; gap defaults in docs/rulesets/nstrpg.md):

- :func:`check_path` and :func:`reachable`: 通常移動 (NS-46: orthogonal steps, ≤ 【脚力】,
  ≤ 20, a door passed at most once, enemies and obstacles impassable, allies passed but not
  stopped on) and 連続側転移動 (NS-49: diagonal steps, through enemies and obstacles, not
  ending where it started), doors and windows blocked by a boss-class enemy in front of
  them (NS-51).
- :func:`adjacent`: the 8 squares around (2-6), a diagonal cut off when both squares at
  that corner are walls or closed doors.
- :func:`line_of_sight`: NS-60 on a centre-to-centre line (G-NS-13).
- :func:`distance`: range counted with diagonals (NS-61, G-NS-12).
- :func:`knockback`: 弾き飛ばし straight back from the attacker (NS-93, G-NS-14).
- :func:`entry_squares`: where 【殺】 may enter for a row of 死神のエントリー決定表 (NS-99).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from typing import Annotated, ClassVar

import msgspec

from taku.core.commands import field

__all__ = [
    "square_name",
    "CELLS",
    "MAX_MOVE",
    "MAX_SIDE",
    "SAMPLE_MAPS",
    "NsMap",
    "Pos",
    "adjacent",
    "check_path",
    "distance",
    "door_of",
    "entry_squares",
    "knockback",
    "line_of_sight",
    "parse_map",
    "reachable",
    "room_of",
]

Pos = tuple[int, int]

CELLS: dict[str, str] = {
    ".": "床",
    "#": "壁",
    "D": "ドア（閉）",
    "d": "ドア（開）",
    "W": "窓",
    "O": "障害物",
    "T": "宝箱",
    "X": "爆発物",
}
"""The squares of the text form and their names."""

MAX_SIDE = 64
"""The largest width and height of a map."""

MAX_MOVE = 20
"""移動限界: at most 20 squares in one move phase (NS-46)."""

_DOORS = "Dd"
_SOLID = "#O"  # never stood on
_CORNER = "#D"  # a diagonal between two of these is closed (walls, closed doors)
_SIGHT = "#OD"  # block line of sight (NS-60): walls, obstacles, closed doors
_KNOCK = "#ODW"  # stop 弾き飛ばし (NS-93): walls, obstacles, closed doors, windows (G-MAP-04)
_OBJECTS = "TXO"  # the entry table's treasure box / obstacle / explosive (NS-99 row 5)


class NsMap(msgspec.Struct, frozen=True, kw_only=True):
    """The battle map: ``rows`` are the text form, one string a row (see :data:`CELLS`)."""

    meta: ClassVar[msgspec.Meta] = msgspec.Meta(
        title="マップ",
        description="マス目のマップ: 1行1文字列（# 壁 . 床 D 閉じたドア d 開いたドア W 窓 O 障害物 T 宝箱 X 爆発物）",
    )

    name: Annotated[str, field("マップ名")] = ""
    width: Annotated[int, field("幅", "マス数", ge=1, le=MAX_SIDE)]
    height: Annotated[int, field("高さ", "マス数", ge=1, le=MAX_SIDE)]
    rows: Annotated[tuple[str, ...], field("マス", "上の行から。1文字が1マス")]

    def cell(self, p: Pos) -> str:
        """The square at ``p`` (``#`` outside the map)."""
        x, y = p
        if 0 <= x < self.width and 0 <= y < self.height:
            return self.rows[y][x]
        return "#"

    def inside(self, p: Pos) -> bool:
        return 0 <= p[0] < self.width and 0 <= p[1] < self.height

    def text(self) -> str:
        """The compact text form (rows joined by newlines)."""
        return "\n".join(self.rows)

    def with_cell(self, p: Pos, cell: str) -> NsMap:
        """The map with one square changed."""
        x, y = p
        row = self.rows[y]
        rows = (*self.rows[:y], row[:x] + cell + row[x + 1 :], *self.rows[y + 1 :])
        return msgspec.structs.replace(self, rows=rows)


def parse_map(text: str, name: str = "") -> NsMap:
    """The map of a compact text form: one line a row, one character a square.

    Blank lines at the start and end and trailing spaces are dropped; shorter rows are
    padded with floor. Raises ``ValueError`` (a Japanese message) on an unknown character
    or a map larger than 64 × 64.
    """
    lines = [ln.rstrip() for ln in text.replace("\r\n", "\n").split("\n")]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    if not lines:
        raise ValueError("マップが空です")
    width = max(len(ln) for ln in lines)
    if width > MAX_SIDE or len(lines) > MAX_SIDE:
        raise ValueError(f"マップは{MAX_SIDE}×{MAX_SIDE}マスまでです")
    for y, ln in enumerate(lines):
        for x, ch in enumerate(ln):
            if ch not in CELLS:
                raise ValueError(f"{y + 1}行{x + 1}列の「{ch}」はマスの記号ではありません")
    rows = tuple(ln.ljust(width, ".") for ln in lines)
    return NsMap(name=name[:100], width=width, height=len(rows), rows=rows)


def square_name(p: Pos) -> str:
    """A square as people read it, 1-based as the map shows it: ``(0, 1)`` -> ``1列2行``
    (列 = x + 1 from the left, 行 = y + 1 from the top; the data stays 0-based)."""
    return f"{p[0] + 1}列{p[1] + 1}行"


def distance(a: Pos, b: Pos) -> int:
    """Squares from ``a`` to ``b`` counting diagonals (NS-61 range; G-NS-12)."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def _sign(n: int) -> int:
    return (n > 0) - (n < 0)


def _corner_closed(m: NsMap, a: Pos, b: Pos, solid: str) -> bool:
    """A diagonal step a → b squeezes between two squares of ``solid``."""
    return m.cell((b[0], a[1])) in solid and m.cell((a[0], b[1])) in solid


def adjacent(m: NsMap | None, a: Pos, b: Pos) -> bool:
    """隣接 (2-6): one of the 8 squares around; a diagonal is cut off when both squares at
    that corner are walls or closed doors (NS-EX-14: N4 and Y2 are adjacent when the door is
    open). Without a map: Chebyshev distance 1."""
    if a == b or distance(a, b) != 1:
        return False
    if m is None or a[0] == b[0] or a[1] == b[1]:
        return True
    return not _corner_closed(m, a, b, _CORNER)


def _line(a: Pos, b: Pos) -> list[tuple[Pos, Pos | None]]:
    """The squares strictly between ``a`` and ``b`` on the centre-to-centre line, as
    ``(square, other)``: ``other`` is set where the line passes exactly through a corner,
    and then the step goes between ``square`` and ``other`` (both touched)."""
    (x, y), (x1, y1) = a, b
    nx, ny = abs(x1 - x), abs(y1 - y)
    sx, sy = _sign(x1 - x), _sign(y1 - y)
    out: list[tuple[Pos, Pos | None]] = []
    ix = iy = 0
    while ix < nx or iy < ny:
        # compare where the line crosses the next vertical / horizontal grid line
        cx, cy = (1 + 2 * ix) * ny, (1 + 2 * iy) * nx
        if cx == cy:  # exactly through a corner
            out.append(((x + sx, y), (x, y + sy)))
            x, y, ix, iy = x + sx, y + sy, ix + 1, iy + 1
        elif cx < cy:
            x, ix = x + sx, ix + 1
        else:
            y, iy = y + sy, iy + 1
        if (x, y) != (x1, y1):
            out.append(((x, y), None))
    return out


def line_of_sight(m: NsMap | None, a: Pos, b: Pos, blockers: Iterable[Pos] = ()) -> bool:
    """視線 from ``a`` to ``b`` (NS-60): no wall, obstacle, closed door or square of
    ``blockers`` (the looker's enemies) between them. Allies and open doors never block;
    windows do not (G-MAP-03). Where the line passes exactly through a corner it is blocked
    only when both squares at the corner block (G-NS-13). Without a map: ``True`` (the GM
    decides)."""
    if m is None:
        return True
    stop = set(blockers) - {a, b}

    def blocks(p: Pos) -> bool:
        return m.cell(p) in _SIGHT or p in stop

    for p, other in _line(a, b):
        if other is None:
            if blocks(p):
                return False
        elif blocks(p) and blocks(other):
            return False
    return True


def door_of(m: NsMap) -> dict[Pos, int]:
    """Door square -> door number: touching door squares (4 directions) are one door."""
    out: dict[Pos, int] = {}
    n = 0
    for y in range(m.height):
        for x in range(m.width):
            if m.rows[y][x] in _DOORS and (x, y) not in out:
                n += 1
                todo = [(x, y)]
                while todo:
                    p = todo.pop()
                    if p in out or m.cell(p) not in _DOORS:
                        continue
                    out[p] = n
                    todo += [(p[0] + 1, p[1]), (p[0] - 1, p[1]), (p[0], p[1] + 1), (p[0], p[1] - 1)]
    return out


def blocked_squares(m: NsMap, bosses: Iterable[Pos]) -> dict[Pos, str]:
    """Doors and windows blocked by a boss-class enemy standing in front of them
    (orthogonally next to it; a diagonal boss does not block, NS-51): square -> ``D``/``W``."""
    out: dict[Pos, str] = {}
    for bx, by in bosses:
        for p in ((bx + 1, by), (bx - 1, by), (bx, by + 1), (bx, by - 1)):
            c = m.cell(p)
            if c in "DdW":
                out[p] = "W" if c == "W" else "D"
    return out


class MoveRules(msgspec.Struct, frozen=True, kw_only=True):
    """What one move may do.

    Attributes:
        limit: squares allowed (already capped at 20).
        sokuten: 連続側転移動: diagonal steps, through enemies and obstacles, not ending
            where it started (NS-49).
        sixes: 6s among a successful 連続側転判定's faces: 2+ passes blocked doors,
            3+ blocked windows too (NS-51).
        enemies: squares of the mover's enemies; ``allies`` of other characters on its side.
        bosses: squares of active boss-class enemies (they block doors and windows).
    """

    limit: int
    sokuten: bool = False
    sixes: int = 0
    enemies: frozenset[Pos] = frozenset()
    allies: frozenset[Pos] = frozenset()
    bosses: frozenset[Pos] = frozenset()


def _steps(sokuten: bool) -> tuple[Pos, ...]:
    ortho = ((1, 0), (-1, 0), (0, 1), (0, -1))
    return ortho + ((1, 1), (1, -1), (-1, 1), (-1, -1)) if sokuten else ortho


def _enter(m: NsMap, a: Pos, b: Pos, r: MoveRules, blocked: Mapping[Pos, str]) -> str | None:
    """Why the step a → b is not allowed (``None``: allowed)."""
    if not m.inside(b):
        return "off_map"
    dx, dy = b[0] - a[0], b[1] - a[1]
    if max(abs(dx), abs(dy)) != 1:
        return "not_a_step"
    if dx and dy:
        if not r.sokuten:
            return "diagonal"
        if _corner_closed(m, a, b, "#"):
            return "wall"
    c = m.cell(b)
    if c == "#":
        return "wall"
    if not r.sokuten and (c == "O" or b in r.enemies):
        return "enemy" if b in r.enemies else "obstacle"
    kind = blocked.get(b)
    if kind == "D" and r.sixes < 2 or kind == "W" and r.sixes < 3:
        return "blocked"
    return None


def check_path(m: NsMap, start: Pos, path: list[Pos], r: MoveRules) -> str | None:
    """Why moving from ``start`` through ``path`` (the squares stepped on, in order) breaks
    2-5 (a reason id of :mod:`taku_nstrpg.errors`), or ``None`` when it is a legal move."""
    if not path:
        return "empty_path"
    if len(path) > min(r.limit, MAX_MOVE):
        return "too_far"
    doors = door_of(m)
    blocked = blocked_squares(m, r.bosses)
    seen: set[int] = set()
    here, run = start, doors.get(start)
    if run is not None:
        seen.add(run)
    for p in path:
        why = _enter(m, here, p, r, blocked)
        if why is not None:
            return why
        d = doors.get(p)
        if d is not None and d != run:
            if d in seen:
                return "door_twice"  # 同じドアを2回以上通過することはできない (NS-46)
            seen.add(d)
        run, here = d, p
    end = path[-1]
    if m.cell(end) in _SOLID or end in r.enemies or end in r.allies:
        return "occupied"
    if r.sokuten and end == start:
        return "same_square"
    return None


def reachable(m: NsMap, start: Pos, r: MoveRules) -> dict[Pos, list[Pos]]:
    """Every square a legal move from ``start`` may end on, with a shortest legal path to it
    (the squares stepped on).

    Breadth-first over squares; a step into a door already passed on the way is not taken.
    A shortest path never enters a square twice, so it passes a one-square door at most once
    and this finds every square a legal move reaches; only a door several squares wide could
    in principle need a longer path (then send that ``path`` yourself)."""
    doors = door_of(m)
    blocked = blocked_squares(m, r.bosses)
    limit = min(r.limit, MAX_MOVE)
    first = doors.get(start)
    seen0 = frozenset({first} if first is not None else ())
    trail: dict[Pos, tuple[list[Pos], frozenset[int], int | None]] = {start: ([], seen0, first)}
    frontier = deque([start])
    out: dict[Pos, list[Pos]] = {}
    while frontier:
        here = frontier.popleft()
        path, seen, run = trail[here]
        if len(path) >= limit:
            continue
        for dx, dy in _steps(r.sokuten):
            p = (here[0] + dx, here[1] + dy)
            if p in trail or _enter(m, here, p, r, blocked) is not None:
                continue
            d = doors.get(p)
            nseen = seen
            if d is not None and d != run:
                if d in seen:
                    continue
                nseen = seen | {d}
            trail[p] = ([*path, p], nseen, d)
            frontier.append(p)
            if m.cell(p) not in _SOLID and p not in r.enemies and p not in r.allies:
                out[p] = trail[p][0]
    return out


def knockback(
    m: NsMap, attacker: Pos, target: Pos, squares: int, others: Iterable[Pos] = ()
) -> tuple[list[Pos], bool, Pos]:
    """弾き飛ばし (NS-93): ``target`` moves ``squares`` straight away from ``attacker``
    (direction (sign dx, sign dy), G-NS-14), ignoring characters on the way.

    Returns ``(path, wall, end)``: the squares passed, whether it hit a wall, obstacle,
    closed door or window (then 1 damage, 回避:NORMAL), and where it ends: the last square
    of the path, or, if another character (``others``) stands there, the nearest free square
    (fewest squares away; among those one next to a wall first, G-MAP-05).
    """
    dx, dy = _sign(target[0] - attacker[0]), _sign(target[1] - attacker[1])
    path: list[Pos] = []
    here, wall = target, False
    if (dx, dy) != (0, 0):
        for _ in range(squares):
            p = (here[0] + dx, here[1] + dy)
            if m.cell(p) in _KNOCK or (dx and dy and _corner_closed(m, here, p, _KNOCK)):
                wall = True
                break
            path.append(p)
            here = p
    taken = set(others) - {target}
    end = here if here not in taken else _nearest_free(m, here, taken)
    return path, wall, end


def _next_to_wall(m: NsMap, p: Pos) -> bool:
    return any(m.cell((p[0] + dx, p[1] + dy)) in "#" for dx, dy in _steps(False))


def _nearest_free(m: NsMap, p: Pos, taken: set[Pos]) -> Pos:
    """The free square nearest ``p`` (fewest squares, then along a wall, then top-left)."""
    best: list[tuple[int, int, int, int, Pos]] = []
    for y in range(m.height):
        for x in range(m.width):
            q = (x, y)
            if m.cell(q) in _SOLID or q in taken:
                continue
            steps = abs(q[0] - p[0]) + abs(q[1] - p[1])
            best.append(
                (distance(p, q), steps, 0 if _next_to_wall(m, q) else 1, y * m.width + x, q)
            )
    return min(best)[4] if best else p


def room_of(m: NsMap, p: Pos) -> set[Pos]:
    """The room around ``p``: squares reachable orthogonally without crossing walls,
    doors or windows (they are a room's edges)."""
    out: set[Pos] = set()
    todo = [p]
    while todo:
        q = todo.pop()
        if q in out or not m.inside(q) or (q != p and m.cell(q) in "#DdW"):
            continue
        out.add(q)
        if q == p or m.cell(q) not in "#DdW":
            todo += [(q[0] + 1, q[1]), (q[0] - 1, q[1]), (q[0], q[1] + 1), (q[0], q[1] - 1)]
    return out


def around(p: Pos) -> list[Pos]:
    """The 8 squares next to ``p`` (diagonals count, G-NS-12)."""
    return [(p[0] + dx, p[1] + dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dx or dy]


def entry_squares(
    m: NsMap, target: Pos, row: int, taken: Iterable[Pos], npcs: Iterable[Pos] = ()
) -> list[Pos]:
    """Where 【殺】 may enter for row ``row`` of 死神のエントリー決定表 (NS-99), nearest first;
    ``[]`` when the row is impossible on this map (NS-100: reroll once, then the GM chooses).

    1: 3 or 4 squares from the target; 2: next to a door of the target's room; 3: next to
    a window of that room; 4: 2 squares from the target; 5: next to the treasure box,
    obstacle or explosive nearest the target; 6: the square of the NPC nearest the target
    (it becomes 【殺】). Distances count diagonals (G-NS-12).
    """
    busy = set(taken)

    def free(q: Pos) -> bool:
        return m.inside(q) and m.cell(q) not in _SOLID and q not in busy

    every = [(x, y) for y in range(m.height) for x in range(m.width)]
    out: list[Pos]
    if row in (1, 4):
        want = (3, 4) if row == 1 else (2,)
        out = [q for q in every if free(q) and distance(q, target) in want]
    elif row in (2, 3):
        room = room_of(m, target)
        kinds = _DOORS if row == 2 else "W"
        edges = {q for r in room for q in around(r) if m.cell(q) in kinds}
        out = sorted({q for e in edges for q in around(e) if q in room and free(q)})
    elif row == 5:
        objs = [q for q in every if m.cell(q) in _OBJECTS]
        if not objs:
            return []
        nearest = min(objs, key=lambda q: (distance(q, target), q[1], q[0]))
        out = [q for q in around(nearest) if free(q)]
    elif row == 6:
        people = [q for q in npcs if q != target]
        out = [min(people, key=lambda q: (distance(q, target), q[1], q[0]))] if people else []
    else:
        return []
    return sorted(out, key=lambda q: (distance(q, target), q[1], q[0]))


SAMPLE_MAPS: dict[str, NsMap] = {
    "dojo": parse_map(
        "\n".join(
            (
                "############",
                "#..........#",
                "#..O....O..#",
                "#..........#",
                "#....T.....#",
                "#..........#",
                "#..O....O..#",
                "#..........#",
                "############",
            )
        ),
        "ドージョー",
    ),
    "office": parse_map(
        "\n".join(
            (
                "##############",
                "#.....#......#",
                "#.....d......W",
                "#.....#..O...#",
                "###d###......#",
                "#.....#..T...#",
                "#.....D......#",
                "#..X..#......#",
                "##############",
            )
        ),
        "オフィスビル",
    ),
    "alley": parse_map(
        "\n".join(
            (
                "################",
                "#......#.......#",
                "W......d...O...#",
                "#......#.......#",
                "#..O...#####d###",
                "#..............#",
                "#.....X.....T..#",
                "################",
            )
        ),
        "ネオン路地裏",
    ),
}
"""Sample maps shipped with the ruleset (``set_map.sample``)."""
