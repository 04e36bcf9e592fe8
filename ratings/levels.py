"""House levels rated by play: each level against the level below it on duplicate deals, each share
turned into an Elo difference, the differences chained into ratings and the scale anchored.

Pure Python over the bots' arena (``games.bots.arena``), no database: ``manage.py rate_levels`` runs it
and stores what it finds with ``ratings.services.level_ratings_record``.

- Tute 2: ``deals`` deals, each played twice, the lower level at seat 0 then at seat 1; the share is
  the games the higher level won (a game is what a Tute match's rating counts). Tute 4 the same with a
  pair of each level (seats 0+2 against 1+3). The share of the points is printed beside it.
- Pocha: ``pocha_games`` whole games of four, each played twice, two seats of each level alternating,
  then swapped; the share is the pairwise comparisons of final totals the higher level won (the
  comparisons the Pocha pool rates).
- A share ``s`` is worth ``d = 400 log10(s / (1 - s))`` Elo points (the rating pools' expectation,
  docs/RATINGS.md, solved for the difference); ``s`` is kept within half a result of 0 and 1
  (``1 / (2 n)``), so a level that never loses is rated finitely. With each level measured against its
  neighbour only, the least-squares fit of the differences is their chain.
- The anchor: ``anchor_level`` (the rule bot) stands at ``anchor_rating`` (its ladder rating in the pool
  when it has one, else the starting 1500), every other level at its chained difference from it.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from games.bots import get_bot
from games.bots.arena import duel, pocha_duel

#: The pools a house level plays in (Tute 4 pairs rate pairs of players only).
LEVEL_POOLS: Final[tuple[str, ...]] = ("tute2", "tute4", "pocha")
ANCHOR_LEVEL: Final = "rule"


@dataclass(frozen=True, slots=True)
class PairResult:
    """``upper``'s results against ``lower``, the level below it."""

    pool: str
    lower: str
    upper: str
    deals: int  # deals (Tute) or games (Pocha), each played from both sides
    results: int  # games (Tute) or comparisons (Pocha) counted
    share: float  # the upper level's share of them
    points_share: float | None  # Tute: the upper level's share of the points
    seconds: float

    @property
    def elo(self) -> float:
        return elo_difference(self.share, self.results)


@dataclass(frozen=True, slots=True)
class PoolRatings:
    pool: str
    deals: int
    anchor: str
    anchor_rating: float
    pairs: tuple[PairResult, ...]
    ratings: dict[str, float]  # level -> rating, weakest first


def elo_difference(share: float, results: int) -> float:
    """The Elo difference a share of ``results`` results implies, the share kept half a result off 0 and 1."""
    if results <= 0:
        return 0.0
    margin = 0.5 / results
    s = min(max(share, margin), 1.0 - margin)
    return 400.0 * math.log10(s / (1.0 - s))


def play_pair(pool: str, lower: str, upper: str, *, deals: int, seed: str) -> PairResult:
    """``upper`` against ``lower`` on ``deals`` duplicate deals (Pocha: whole games) of ``pool``."""
    started = time.perf_counter()
    points_share: float | None
    if pool == "pocha":
        table = pocha_duel(get_bot(upper), get_bot(lower), games=deals, seed=seed)
        results, share, points_share = table.comparisons, table.share, None
    elif pool in ("tute2", "tute4"):
        result = duel(pool, get_bot(upper), get_bot(lower), deals=deals, seed=seed)
        results, share, points_share = result.games, result.share, result.points_share
    else:
        raise ValueError(f"a house level plays {', '.join(LEVEL_POOLS)}, not {pool!r}")
    return PairResult(
        pool=pool,
        lower=lower,
        upper=upper,
        deals=deals,
        results=results,
        share=share,
        points_share=points_share,
        seconds=time.perf_counter() - started,
    )


def chain(
    levels: Sequence[str], pairs: Sequence[PairResult], *, anchor: str, anchor_rating: float
) -> dict[str, float]:
    """Ratings from neighbours' differences: the first level at 0, each next one its pair's difference
    higher, then all shifted so ``anchor`` sits at ``anchor_rating``."""
    by_upper = {p.upper: p for p in pairs}
    raw = {levels[0]: 0.0}
    for lower, upper in itertools.pairwise(levels):
        raw[upper] = raw[lower] + by_upper[upper].elo
    shift = anchor_rating - raw[anchor] if anchor in raw else anchor_rating - raw[levels[0]]
    return {level: round(raw[level] + shift, 1) for level in levels}


def rate_pool(
    pool: str,
    levels: Sequence[str],
    *,
    deals: int,
    seed: str,
    anchor_rating: float,
    anchor: str = ANCHOR_LEVEL,
    progress: Callable[[PairResult], None] | None = None,
) -> PoolRatings:
    """Every neighbouring pair of ``levels`` (weakest first) played in ``pool``, and the ratings."""
    if len(levels) < 2:
        raise ValueError("rating levels takes two of them at least")
    pairs = []
    for lower, upper in itertools.pairwise(levels):
        pair = play_pair(pool, lower, upper, deals=deals, seed=f"{seed}:{lower}:{upper}")
        pairs.append(pair)
        if progress is not None:
            progress(pair)
    ratings = chain(levels, pairs, anchor=anchor, anchor_rating=anchor_rating)
    return PoolRatings(
        pool=pool,
        deals=deals,
        anchor=anchor,
        anchor_rating=anchor_rating,
        pairs=tuple(pairs),
        ratings=ratings,
    )
