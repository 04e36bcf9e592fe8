"""Elo for the three games, as pure functions: the incremental task and the full recompute share them.

Both apply the same float operations in the same order, so a recompute reproduces the incremental
ratings exactly, not approximately.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations


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


def pairs_match(
    side_a: tuple[Standing, Standing], side_b: tuple[Standing, Standing], score_a: float, policy: KPolicy
) -> tuple[list[float], list[float]]:
    """Tute 4, individual ratings: the expectation comes from the pairs' average ratings, and each player
    gets its own K times the pair's surprise."""
    avg_a = (side_a[0].rating + side_a[1].rating) / 2.0
    avg_b = (side_b[0].rating + side_b[1].rating) / 2.0
    e_a = expected(avg_a, avg_b)
    e_b = 1.0 - e_a
    score_b = 1.0 - score_a
    return (
        [policy.k(s.rating, s.matches) * (score_a - e_a) for s in side_a],
        [policy.k(s.rating, s.matches) * (score_b - e_b) for s in side_b],
    )


def multiplayer(standings: list[Standing], totals: list[float], policy: KPolicy) -> list[float]:
    """Pocha: every two players are compared by their totals (a tie counts 0.5); K is divided by n - 1."""
    n = len(standings)
    sums = [0.0] * n
    for i, j in combinations(range(n), 2):
        score = 1.0 if totals[i] > totals[j] else 0.5 if totals[i] == totals[j] else 0.0
        e = expected(standings[i].rating, standings[j].rating)
        sums[i] += score - e
        sums[j] += (1.0 - score) - (1.0 - e)
    return [policy.k(s.rating, s.matches) / (n - 1) * total for s, total in zip(standings, sums, strict=True)]
