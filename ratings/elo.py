"""Elo for the three games, as pure functions: the incremental task and the full recompute share them.

Both apply the same float operations in the same order, so a recompute reproduces the incremental
ratings exactly, not approximately.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from itertools import combinations

from games.engine.rules import side_of


@dataclass(frozen=True, slots=True)
class KPolicy:
    """K by experience: ``new`` for the first ``new_matches`` rated matches, ``master`` from
    ``master_rating`` up, ``regular`` otherwise."""

    new: float = 40.0
    regular: float = 20.0
    master: float = 10.0
    new_matches: int = 30
    master_rating: float = 2400.0

    def k(self, rating: float, matches: int) -> float:
        if matches < self.new_matches:
            return self.new
        if rating >= self.master_rating:
            return self.master
        return self.regular


@dataclass(frozen=True, slots=True)
class Standing:
    """A competitor's rating and rated matches before the match."""

    rating: float
    matches: int


def expected(rating: float, opponent: float) -> float:
    return 1.0 / (1.0 + 10.0 ** ((opponent - rating) / 400.0))


def two_sided(a: Standing, b: Standing, score_a: float, policy: KPolicy) -> tuple[float, float]:
    """Changes for a head-to-head result: ``score_a`` is 1 (a won), 0.5 (draw) or 0 (b won)."""
    e = expected(a.rating, b.rating)
    return policy.k(a.rating, a.matches) * (score_a - e), policy.k(b.rating, b.matches) * (
        (1.0 - score_a) - (1.0 - e)
    )


def pairs_seats(
    standings: Sequence[Standing], who: Sequence[Hashable], score_a: float, policy: KPolicy
) -> list[float | None]:
    """Tute 4, individual ratings, per seat (seats 0 and 2 against 1 and 3; ``score_a`` is side 0's).

    A seat's expectation comes from its side's average rating against the average of the opposing seats
    held by other competitors (``who`` names each seat's competitor: a seat is never compared with a seat
    of its own competitor), and it gets its own K times that surprise. None: every opposing seat is its
    own competitor's, so the seat is compared with nobody. With four different competitors this is the
    pairs' averages against each other, the same for both players of a side.
    """
    out: list[float | None] = []
    for seat, mine in enumerate(standings):
        side = side_of("tute4", seat)
        own = (standings[side].rating + standings[side + 2].rating) / 2.0
        opponents = [standings[o].rating for o in (1 - side, 3 - side) if who[o] != who[seat]]
        if not opponents:
            out.append(None)
            continue
        e = expected(own, sum(opponents) / len(opponents))
        score = score_a if side == 0 else 1.0 - score_a
        out.append(policy.k(mine.rating, mine.matches) * (score - e))
    return out


def multiplayer(
    standings: Sequence[Standing],
    totals: Sequence[float],
    policy: KPolicy,
    who: Sequence[Hashable] | None = None,
) -> list[float | None]:
    """Pocha: every two seats are compared by their totals (a tie counts 0.5), except two seats of one
    competitor (``who``; default: every seat its own). A seat moves by its K times the mean of its
    comparisons' surprises, ``K / (n - 1)`` times their sum when all n seats are different competitors;
    None for a seat compared with nobody."""
    n = len(standings)
    ids: Sequence[Hashable] = who if who is not None else range(n)
    sums = [0.0] * n
    met = [0] * n
    for i, j in combinations(range(n), 2):
        if ids[i] == ids[j]:
            continue
        score = 1.0 if totals[i] > totals[j] else 0.5 if totals[i] == totals[j] else 0.0
        e = expected(standings[i].rating, standings[j].rating)
        sums[i] += score - e
        sums[j] += (1.0 - score) - (1.0 - e)
        met[i] += 1
        met[j] += 1
    return [
        policy.k(s.rating, s.matches) / m * total if m else None
        for s, total, m in zip(standings, sums, met, strict=True)
    ]
