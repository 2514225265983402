"""Hidden information and deck integrity over long random games (issue: 流れ deck, hidden hands).

Every member (three players, the GM) and a spectator collect everything they
receive: live events, the log, the state views and the affordances after every
command, replays at earlier seqs and the export. No one may ever see the face of a card they have
not held, unless it was played face up on a check; nobody sees a deck order.
After every command the 54 cards are all in the deck, a hand or the discards,
each once.
"""

from __future__ import annotations

import asyncio
import random
import re
from collections import Counter
from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taku.core.commands import CreateCharacter
from taku.core.events import Private  # noqa: F401  (documents the mechanism under test)
from taku.core.ruleset import Viewer
from taku.core.table import affordances
from taku.errors import TakuError
from taku.testing.harness import TableHarness
from taku_yodomi import commands as C
from taku_yodomi._cards import full_deck
from taku_yodomi.events import CardsPlayed

FACE = re.compile(r"[♠♥♦♣](?:10|[2-9AJQK])|JK[12]")
SUITS = ["♠", "♥", "♦", "♣"]


def faces_in(data: Any) -> set[str]:
    """Every card face written anywhere in ``data`` (strings inside JSON-like data)."""
    out: set[str] = set()
    if isinstance(data, str):
        out.update(FACE.findall(data))
    elif isinstance(data, dict):
        for k, v in data.items():
            out |= faces_in(k) | faces_in(v)
    elif isinstance(data, list | tuple):
        for v in data:
            out |= faces_in(v)
    return out


class Game:
    """A table with players p1..p3 (PCs c1..c3), an NPC and a spectator, driven at random."""

    def __init__(
        self, h: TableHarness, players: list[str], pcs: list[str], npc: str, spec: str
    ) -> None:
        self.h = h
        self.players = players
        self.pcs = pcs
        self.npc = npc
        self.spec = spec
        self.owner = {**dict(zip(pcs, players, strict=True)), npc: h.gm}
        self.viewers = [*players, h.gm, spec]
        self.held: dict[str, set[str]] = {v: set() for v in self.viewers}
        self.public: set[str] = set()
        self.live: dict[str, list[bytes]] = {v: [] for v in self.viewers}
        self.seen_upto: dict[str, int] = {v: 0 for v in self.viewers}

    @classmethod
    async def create(cls, seed: int) -> Game:
        rng = random.Random(seed)
        first = list(range(54))
        rng.shuffle(first)
        h = await TableHarness.create("yodomi", shuffles=[first])
        players = [await h.join(f"P{i}") for i in range(3)]
        spec = await h.join("見物", role="spectator")
        pcs = []
        for i, p in enumerate(players):
            (ev,) = await h.send(
                p, CreateCharacter(name=f"PC{i}", sheet={"pp": 50, "sp": 60, "social": 3})
            )
            pcs.append(ev.character_id)
            await h.send(p, C.ChooseSuit(character_id=ev.character_id, suit=SUITS[i]))
        (npc,) = await h.send(h.gm, CreateCharacter(name="NPC", sheet={"pp": 50}))
        g = cls(h, players, pcs, npc.character_id, spec)
        for v in g.viewers:
            await h.table.subscribe(v, g.live[v].append, h.state.seq)
        return g

    @property
    def state(self) -> Any:
        return self.h.game

    def note_holdings(self) -> None:
        for cid, hand in self.state.hands.items():
            owner = self.owner.get(cid)
            if owner is not None:
                self.held[owner].update(hand)

    async def step(self, rng: random.Random) -> None:
        """One random command (rejections are fine but must write nothing)."""
        h, game = self.h, self.state
        before = h.state.seq
        h.roll(*(rng.randint(1, 10) for _ in range(8)))
        op = rng.choice(["deal", "deal", "give", "play", "boost", "scene", "erode", "chat"])
        cid = rng.choice([*self.pcs, self.npc])
        hand = list(game.hands.get(cid, []))
        try:
            match op:
                case "deal":
                    n = rng.randint(1, 5)
                    if game.shuffled and len(game.deck) < n <= len(game.deck) + len(game.discards):
                        perm = list(range(len(game.discards)))
                        rng.shuffle(perm)
                        h.dice.add_shuffle(perm)
                    await h.send(h.gm, C.DealCards(character_id=cid, count=n))
                case "give" if hand:
                    to = rng.choice([c for c in self.pcs if c != cid])
                    cards = rng.sample(hand, rng.randint(1, min(2, len(hand))))
                    await h.send(
                        self.owner[cid],
                        C.GiveCards(from_character=cid, to_character=to, cards=cards),
                    )
                case "play":
                    cards = rng.sample(hand, min(len(hand), rng.randint(0, 2)))
                    await h.send(
                        self.owner[cid],
                        C.RollCheck(
                            character_id=cid, kind=rng.choice(["2d9", "d99"]), value=30, cards=cards
                        ),
                    )
                case "boost" if hand and cid in game.last_check:
                    k = game.last_check[cid]
                    await h.send(
                        self.owner[cid], C.PlayCards(check_id=k.check_id, cards=[rng.choice(hand)])
                    )
                case "scene":
                    await self.scene_round(rng)
                case "erode" if hand and cid in self.pcs:
                    await h.send(h.gm, C.AddStatus(character_id=cid, status="蝕み"))
                    await h.send(
                        self.owner[cid],
                        C.RemoveStatus(character_id=cid, status="蝕み", card=rng.choice(hand)),
                    )
                case "chat":
                    await h.chat(rng.choice(self.players), "2D9+3>=10")
                case _:
                    pass
        except TakuError:
            assert h.state.seq == before or op in ("scene", "erode"), (
                "a rejected command wrote events"
            )
        await self.observe(rng)

    async def scene_round(self, rng: random.Random) -> None:
        """A scene, its end, a パス for some, and every hand cut down to its パス."""
        h = self.h
        if self.state.phase not in ("preplay", "between"):
            return
        await h.send(
            h.gm, C.StartScene(kind="middle", scene_player=self.pcs[0], present=self.pcs[1:])
        )
        await h.send(h.gm, C.NoteTopic(text=f"話題{h.state.seq}"))
        await h.send(h.gm, C.EndScene())
        topic = self.state.scene.topics[0]
        for cid in self.pcs:
            c = self.state.chars[cid]
            if rng.random() < 0.6 and len(c.paths) < 7 and all(p.target != topic for p in c.paths):
                await h.send(
                    self.owner[cid], C.GainPath(character_id=cid, target=topic, emotion="好奇心")
                )
            hand = self.state.hands[cid]
            excess = len(hand) - len(self.state.chars[cid].paths)
            if excess > 0:
                await h.send(
                    self.owner[cid], C.CutHand(character_id=cid, cards=rng.sample(hand, excess))
                )
        await h.send(h.gm, C.CloseSceneEnd())

    async def observe(self, rng: random.Random) -> None:
        """What every viewer got since the last step holds no face they may not know."""
        self.note_holdings()
        for ev in await self.h.events(after_seq=min(self.seen_upto.values())):
            if isinstance(ev, CardsPlayed):
                self.public.update(ev.cards)
        self.check_integrity()
        seq = self.h.state.seq
        for v in self.viewers:
            allowed = self.held[v] | self.public
            new = [msgspec.json.decode(f) for f in self.live[v][self.seen_upto[v] :]]
            self.seen_upto[v] = len(self.live[v])
            view = self.h.view(v)
            state = self.h.table.state
            offered = msgspec.to_builtins(affordances(state, state.viewer(v), self.h.table.ruleset))
            for data in (new, view, offered):
                leaked = faces_in(data) - allowed
                assert not leaked, f"{v} saw {sorted(leaked)}"
            assert view["game"]["deck"] == {"count": len(self.state.deck)}
            assert view["game"]["discards"] == {"count": len(self.state.discards)}
            for frame in new:
                assert frame["event"]["type"] != "yodomi.deck_shuffled"
                assert "order" not in str(frame["event"]) and "shuffle" not in frame["event"]
            if rng.random() < 0.05 and seq > 1:
                old = await self.h.table.state_at(self.h.state.viewer(v), rng.randint(1, seq))
                assert not faces_in(old) - allowed

    def check_integrity(self) -> None:
        g = self.state
        if not g.shuffled:
            return
        everything = [*g.deck, *g.discards, *(c for hand in g.hands.values() for c in hand)]
        assert len(everything) == 54, Counter(everything).most_common(3)
        assert sorted(everything) == sorted(full_deck())


async def play(seed: int, steps: int) -> Game:
    rng = random.Random(seed)
    g = await Game.create(seed)
    for _ in range(steps):
        await g.step(rng)
    return g


async def test_long_random_game_leaks_nothing() -> None:
    """Hidden hands and deck order over a long random game: live events, states, replays, exports."""
    seed = 20261129
    print(f"seed={seed}")
    g = await play(seed, 400)
    h = g.h
    assert g.state.discards or g.state.deck  # the game moved cards around
    reshuffles = [e for e in await h.events() if type(e).__name__ == "DeckShuffled" and e.reshuffle]
    assert reshuffles, "the random game should exhaust the deck at least once"
    # the log each member fetches afterwards, and the public export
    for v in g.viewers:
        frames = await h.frames(v)
        assert [f["seq"] for f in frames] == list(range(1, h.state.seq + 1))  # gap-free
        allowed = g.held[v] | g.public
        assert not faces_in(frames) - allowed
    recs = await h.hub.store.read(h.table.table_id)
    export = [msgspec.json.decode(f) for f in h.table.viewer_frames(recs, None)]
    assert not faces_in(export) - g.public
    assert not faces_in(h.spectator_view()) - g.public
    anonymous = await h.table.state_at(Viewer(None), h.state.seq // 2)
    assert not faces_in(anonymous) - g.public
    await h.assert_replay_matches()


def test_players_see_their_own_cards() -> None:
    """The other side of the coin: a player's view and stream do show their own hand."""

    async def run() -> None:
        g = await play(7, 60)
        for cid, p in zip(g.pcs, g.players, strict=True):
            hand = g.state.hands[cid]
            assert g.h.view(p)["game"]["hands"][cid] == {"count": len(hand), "cards": hand}
            assert set(hand) <= faces_in([msgspec.json.decode(f) for f in g.live[p]])

    asyncio.run(run())


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.integers(20, 60))
def test_deck_integrity_property(seed: int, steps: int) -> None:
    """Always 54 cards across deck, hands and discards, none twice: draw, give, play, cut, reshuffle;
    and folding the stored log gives the live state."""

    async def run() -> None:
        g = await play(seed, steps)
        await g.h.assert_replay_matches()

    asyncio.run(run())


def test_gm_override_of_the_deck_reveals_nothing() -> None:
    """A GM override of the deck or a hand reaches everyone, the GM too, without its values."""

    async def run() -> None:
        g = await play(11, 40)
        h = g.h
        deck = list(g.state.deck)
        assert deck, "the deck should still hold cards"
        from taku.core.commands import Override

        new_deck = [*deck[1:], deck[0]]
        (ev,) = await h.send(
            h.gm, Override(path=["game", "deck"], value=new_deck, reason="山札の修正")
        )
        assert list(g.state.deck) == new_deck  # the override took effect
        for v in [*g.viewers, h.gm]:
            (frame,) = await h.frames(v, after_seq=h.state.seq - 1)
            assert frame["event"] == {
                "type": "gm_overridden",
                "path": ["game", "deck"],
                "reason": "山札の修正",
            }
        # an override elsewhere in the game stays public
        pc = g.pcs[0]
        (ev,) = await h.send(h.gm, Override(path=["game", "chars", pc, "pp"], value=3, reason="r"))
        (frame,) = await h.frames(g.players[0], after_seq=h.state.seq - 1)
        assert frame["event"]["value"] == 3

    asyncio.run(run())


def test_cards_named_by_a_check_that_takes_none_stay_hidden() -> None:
    """A fumbled D99 (YD-25: no cards on a fumble) names cards of the NPC's hidden hand:
    the command record of its frame is a commitment for the players, in clear for the GM who sent it."""

    async def run() -> None:
        h = await TableHarness.create("yodomi", shuffles=[list(range(54))])
        player = await h.join("P")
        (npc,) = await h.send(h.gm, CreateCharacter(name="NPC", sheet={"pp": 50}))
        await h.send(h.gm, C.DealCards(character_id=npc.character_id, count=2))
        hand = list(h.game.hands[npc.character_id])
        h.roll(10, 10)
        (ev,) = await h.send(
            h.gm,
            C.RollCheck(character_id=npc.character_id, kind="d99", value=30, cards=hand),
        )
        assert ev.check.fumble and ev.check.cards == ()
        (mine,) = await h.frames(player, after_seq=h.state.seq - 1)
        assert not faces_in(mine) & set(hand), mine
        assert set(mine["command"]) == {"commitment"}
        (gms,) = await h.frames(h.gm, after_seq=h.state.seq - 1)
        assert gms["command"]["decided"]["cards"] == hand

    asyncio.run(run())
