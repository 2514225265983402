"""Properties of the map geometry (taku_nstrpg.board) on random maps: validated normal moves
(NS-46), 弾き飛ばし (NS-93) and line of sight (NS-60)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from taku_nstrpg import board as bd

W, H = 9, 7


@st.composite
def maps(draw: st.DrawFn, cells: str = "....#OdDWT") -> bd.NsMap:
    text = draw(st.text(alphabet=cells, min_size=W * H, max_size=W * H))
    return bd.parse_map("\n".join(text[y * W : (y + 1) * W] for y in range(H)))


squares = st.tuples(st.integers(0, W - 1), st.integers(0, H - 1))


@st.composite
def scenes(draw: st.DrawFn) -> tuple[bd.NsMap, bd.Pos, bd.MoveRules]:
    m = draw(maps("..............#OdW"))
    start = draw(squares)
    m = m.with_cell(start, ".")
    others = draw(st.lists(squares, max_size=6, unique=True))
    others = [p for p in others if p != start]
    split = draw(st.integers(0, len(others)))
    rules = bd.MoveRules(
        limit=draw(st.integers(3, 30)),
        enemies=frozenset(others[:split]),
        allies=frozenset(others[split:]),
        bosses=frozenset(others[: split // 2]),
    )
    return m, start, rules


@settings(max_examples=150, deadline=None)
@given(scene=scenes(), data=st.data())
def test_a_validated_normal_move_is_orthogonal_short_enough_and_ends_free(
    scene: tuple[bd.NsMap, bd.Pos, bd.MoveRules], data: st.DataObject
) -> None:
    m, start, rules = scene
    orth = [(1, 0), (-1, 0), (0, 1), (0, -1)]
    steps = data.draw(
        st.lists(st.sampled_from(orth * 4 + [(1, 1), (-1, -1)]), min_size=1, max_size=8)
    )
    path, here = [], start
    for dx, dy in steps:
        here = (here[0] + dx, here[1] + dy)
        path.append(here)
    if bd.check_path(m, start, path, rules) is not None:
        return
    assert len(path) <= min(rules.limit, 20)
    prev = start
    for p in path:
        assert abs(p[0] - prev[0]) + abs(p[1] - prev[1]) == 1  # never diagonal
        assert m.cell(p) not in "#O" and p not in rules.enemies
        prev = p
    end = path[-1]
    assert end not in rules.allies and end not in rules.enemies and m.cell(end) not in "#O"


@settings(max_examples=40, deadline=None)
@given(scene=scenes())
def test_every_reachable_square_has_a_path_that_validates(
    scene: tuple[bd.NsMap, bd.Pos, bd.MoveRules],
) -> None:
    m, start, rules = scene
    for end, path in bd.reachable(m, start, rules).items():
        assert path[-1] == end
        assert bd.check_path(m, start, path, rules) is None


@settings(max_examples=150, deadline=None)
@given(m=maps(), a=squares, t=squares, n=st.integers(0, 12))
def test_knockback_never_passes_a_wall(m: bd.NsMap, a: bd.Pos, t: bd.Pos, n: int) -> None:
    m = m.with_cell(t, ".")
    path, wall, end = bd.knockback(m, a, t, n)
    prev = t
    for p in path:
        assert m.inside(p) and m.cell(p) not in "#ODW"
        dx, dy = p[0] - prev[0], p[1] - prev[1]
        if dx and dy:  # no squeezing between two walls touching at a corner
            assert not (m.cell((p[0], prev[1])) in "#ODW" and m.cell((prev[0], p[1])) in "#ODW")
        prev = p
    assert len(path) <= n
    assert wall or len(path) == n or a == t


@settings(max_examples=200, deadline=None)
@given(m=maps(), a=squares, b=squares)
def test_line_of_sight_is_symmetric(m: bd.NsMap, a: bd.Pos, b: bd.Pos) -> None:
    assert bd.line_of_sight(m, a, b) == bd.line_of_sight(m, b, a)


@settings(max_examples=100, deadline=None)
@given(a=squares, b=squares)
def test_line_of_sight_on_an_empty_map_always_passes(a: bd.Pos, b: bd.Pos) -> None:
    m = bd.parse_map("\n".join(["." * W] * H))
    assert bd.line_of_sight(m, a, b) and bd.line_of_sight(m, b, a)


def test_a_wall_between_blocks_sight_and_a_corner_blocks_only_when_both_sides_do() -> None:
    m = bd.parse_map("\n".join((".....", "..#..", ".....")))
    assert not bd.line_of_sight(m, (0, 1), (4, 1))
    assert bd.line_of_sight(m, (0, 0), (4, 0))
    corner = bd.parse_map("\n".join(("..", "#.")))
    assert bd.line_of_sight(corner, (0, 0), (1, 1))  # one side open
    closed = bd.parse_map("\n".join((".#", "#.")))
    assert not bd.line_of_sight(closed, (0, 0), (1, 1))
    assert bd.line_of_sight(bd.parse_map("..d.."), (0, 0), (4, 0))
    assert not bd.line_of_sight(bd.parse_map("..D.."), (0, 0), (4, 0))
    assert not bd.line_of_sight(bd.parse_map("....."), (0, 0), (4, 0), blockers=[(2, 0)])


def test_knockback_into_a_wall_onto_someone_moves_the_least_along_the_wall() -> None:
    """NS-93, G-MAP-05: the target would stop on another character at the wall: one square
    off, next to a wall, the upper one first."""
    m = bd.parse_map("\n".join(("#######", "#.....#", "#.....#", "#.....#", "#######")))
    path, wall, end = bd.knockback(m, (1, 2), (2, 2), 5, others=[(5, 2), (1, 2)])
    assert path == [(3, 2), (4, 2), (5, 2)] and wall
    assert end == (5, 1)
    path, wall, end = bd.knockback(m, (1, 1), (2, 2), 5, others=[])
    assert path == [(3, 3)] and wall and end == (3, 3)  # diagonal, stopped by the bottom wall
