"""Building the brackets: single elimination (a third-place match if asked) and double elimination
(the losers' bracket, the grand final and its reset), byes folded away at build time."""

from __future__ import annotations

from collections.abc import Iterable

from ..common import Entrant, check_entrants
from ..seeding import bracket_positions, bracket_size
from .bracket import Bracket
from .structure import BracketKind, Feed, FeedKind, Match, Section, Structure


class _Builder:
    """Adds matches in play order, folding away the ones with an empty slot (a bye)."""

    def __init__(self, seeds: tuple[Entrant, ...]) -> None:
        self.seeds = seeds
        self.matches: list[Match] = []
        self.winner: dict[tuple[str, int, int], Feed | None] = {}
        self.loser: dict[tuple[str, int, int], Feed | None] = {}

    def seed(self, number: int) -> Feed | None:
        """Seed ``number`` (1-based), or None past the last entrant: a bye for the opponent."""
        return Feed(FeedKind.SEED, number - 1) if number <= len(self.seeds) else None

    def add(
        self,
        key: tuple[str, int, int],
        code: str,
        section: Section,
        stage: int,
        a: Feed | None,
        b: Feed | None,
        reset_of: int | None = None,
    ) -> int | None:
        if a is None or b is None:
            self.winner[key] = a if b is None else b
            self.loser[key] = None
            return None
        index = len(self.matches)
        self.matches.append(Match(index, code, section, key[1], (a, b), stage, reset_of))
        self.winner[key] = Feed(FeedKind.WINNER, index)
        self.loser[key] = Feed(FeedKind.LOSER, index)
        return index

    def winners_bracket(self, size: int, stage_per_round: int) -> None:
        positions = bracket_positions(size)
        for j in range(size // 2):
            a, b = self.seed(positions[2 * j]), self.seed(positions[2 * j + 1])
            self.add(("W", 1, j), f"W1.{j + 1}", Section.WINNERS, stage_per_round, a, b)
        rounds = size.bit_length() - 1
        for r in range(2, rounds + 1):
            for j in range(size >> r):
                a, b = self.winner[("W", r - 1, 2 * j)], self.winner[("W", r - 1, 2 * j + 1)]
                self.add(("W", r, j), f"W{r}.{j + 1}", Section.WINNERS, stage_per_round * r, a, b)

    def structure(
        self,
        kind: BracketKind,
        size: int,
        third_place: bool,
        winners_final: int,
        final: int,
        reset: int | None,
    ) -> Structure:
        dependents: list[list[int]] = [[] for _ in self.matches]
        for m in self.matches:
            refs = {f.ref for f in m.feeds if f.kind is not FeedKind.SEED}
            if m.reset_of is not None:
                refs.add(m.reset_of)
            for ref in sorted(refs):
                dependents[ref].append(m.index)
        return Structure(
            kind=kind,
            seeds=self.seeds,
            size=size,
            third_place=third_place,
            matches=tuple(self.matches),
            dependents=tuple(tuple(d) for d in dependents),
            seed_of={e: i for i, e in enumerate(self.seeds)},
            index_of={m.code: m.index for m in self.matches},
            winners_final=winners_final,
            final=final,
            reset=reset,
        )


def _drop_order(k: int, count: int) -> list[int]:
    """For losers' round 2k, which winners'-round-(k+1) match drops into each of its ``count`` matches.

    Reversed for odd k, each half reversed for even k: a dropped entrant lands away from the part of the
    losers' bracket that holds the entrants it beat on its way (of the simple orders tried on random
    brackets of 8 to 128, this one gave the fewest early losers'-bracket rematches).
    """
    if k % 2 == 1 or count < 2:
        return [count - 1 - j for j in range(count)]
    half = count // 2
    return [half - 1 - j if j < half else count - 1 - (j - half) for j in range(count)]


def single_elimination(seeds: Iterable[Entrant], *, third_place: bool = False) -> Bracket:
    """A single-elimination bracket for ``seeds`` (best first), with a third-place match if asked.

    The third-place match (between the semi-final losers) needs at least 4 entrants: with 3, the top
    seed's semi-final is a bye and the other semi-final's loser is third.
    """
    order = check_entrants(seeds, minimum=2, what="an elimination bracket")
    size = bracket_size(len(order))
    rounds = size.bit_length() - 1
    b = _Builder(order)
    b.winners_bracket(size, stage_per_round=2)
    final = b.winner[("W", rounds, 0)]
    assert final is not None and final.kind is FeedKind.WINNER
    if third_place and rounds >= 2:
        a, c = b.loser[("W", rounds - 1, 0)], b.loser[("W", rounds - 1, 1)]
        b.add(("3P", rounds, 0), "3P", Section.THIRD_PLACE, 2 * rounds - 1, a, c)
    structure = b.structure(BracketKind.SINGLE, size, third_place, final.ref, final.ref, None)
    return Bracket.start(structure)


def double_elimination(seeds: Iterable[Entrant], *, reset: bool = True) -> Bracket:
    """A double-elimination bracket for ``seeds`` (best first), with a grand final and, if ``reset``, a
    bracket reset (GF2) when the losers'-bracket champion wins it. Without the reset GF1 alone decides
    the champion (the winners'-bracket champion is then out after a single loss)."""
    order = check_entrants(seeds, minimum=2, what="an elimination bracket")
    size = bracket_size(len(order))
    rounds = size.bit_length() - 1
    b = _Builder(order)
    b.winners_bracket(size, stage_per_round=0)
    if rounds >= 2:
        for j in range(size // 4):
            a, c = b.loser[("W", 1, 2 * j)], b.loser[("W", 1, 2 * j + 1)]
            b.add(("L", 1, j), f"L1.{j + 1}", Section.LOSERS, 1, a, c)
        for k in range(1, rounds):
            count = size >> (k + 1)
            drops = _drop_order(k, count)
            for j in range(count):
                a, c = b.winner[("L", 2 * k - 1, j)], b.loser[("W", k + 1, drops[j])]
                b.add(("L", 2 * k, j), f"L{2 * k}.{j + 1}", Section.LOSERS, 2 * k, a, c)
            if k < rounds - 1:
                for j in range(count // 2):
                    a, c = b.winner[("L", 2 * k, 2 * j)], b.winner[("L", 2 * k, 2 * j + 1)]
                    b.add(("L", 2 * k + 1, j), f"L{2 * k + 1}.{j + 1}", Section.LOSERS, 2 * k + 1, a, c)
        losers_champion = b.winner[("L", 2 * rounds - 2, 0)]
    else:
        losers_champion = b.loser[("W", 1, 0)]
    winners_champion = b.winner[("W", rounds, 0)]
    assert winners_champion is not None and winners_champion.kind is FeedKind.WINNER
    gf1 = b.add(("GF", 1, 0), "GF1", Section.GRAND_FINAL, 2 * rounds - 1, winners_champion, losers_champion)
    assert gf1 is not None
    gf2 = None
    if reset:
        gf2 = b.add(
            ("GF", 2, 0), "GF2", Section.GRAND_FINAL, 2 * rounds, winners_champion, losers_champion, gf1
        )
    structure = b.structure(BracketKind.DOUBLE, size, False, winners_champion.ref, gf1, gf2)
    return Bracket.start(structure)
