"""Who plays whom: the matchmaker's pure part (no database), so its rules are tested on their own.

Close ratings first, with variety: a bot never meets its last opponent again at once when anyone else
is there, and a random jitter (``VARIETY`` rating points) keeps equal neighbours from meeting forever.
The house-bot levels are fixed anchors, always available: a bot with no bot near it plays the nearest
anchor, and bots prefer each other over anchors by ``ANCHOR_PENALTY`` points.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

VARIETY = 100.0
ANCHOR_PENALTY = 50.0
REPEAT_PENALTY = 10_000.0


@dataclass(frozen=True, slots=True)
class Candidate:
    """An online ladder bot free to start a match: its player id, rating and last opponents."""

    player_id: int
    rating: float
    last_opponents: frozenset[str] = frozenset()  # "player:<id>" or "house:<level>"


@dataclass(frozen=True, slots=True)
class Table:
    """A match to make: per seat a player id (a ladder bot) or a house-bot level."""

    seats: tuple[int | str, ...]

    @property
    def bots(self) -> list[int]:
        return [s for s in self.seats if isinstance(s, int)]


def _subject(who: int | str) -> str:
    return f"player:{who}" if isinstance(who, int) else f"house:{who}"


def pair_two(
    candidates: list[Candidate], anchors: dict[str, float], rng: random.Random
) -> list[tuple[int, int | str]]:
    """Each candidate against one opponent: another candidate or an anchor level."""
    by_id = {c.player_id: c for c in candidates}
    free = sorted(candidates, key=lambda c: -c.rating)
    pairs: list[tuple[int, int | str]] = []
    while free:
        me = free.pop(0)
        options: list[tuple[float, int | str]] = []
        for other in free:
            options.append((_cost(me, _subject(other.player_id), other.rating, rng), other.player_id))
        for level, rating in anchors.items():
            options.append((_cost(me, _subject(level), rating, rng) + ANCHOR_PENALTY, level))
        if not options:
            break
        _, chosen = min(options, key=lambda o: o[0])
        if isinstance(chosen, int):
            free.remove(by_id[chosen])
        pairs.append((me.player_id, chosen))
    return pairs


def _cost(me: Candidate, subject: str, rating: float, rng: random.Random) -> float:
    cost = abs(me.rating - rating) + rng.uniform(0, VARIETY)
    if subject in me.last_opponents:
        cost += REPEAT_PENALTY
    return cost


def tables_tute2(candidates: list[Candidate], anchors: dict[str, float], rng: random.Random) -> list[Table]:
    return [Table(seats=(a, b)) for a, b in pair_two(candidates, anchors, rng)]


def tables_tute4(
    candidates: list[Candidate], anchors: dict[str, float], partner: str, rng: random.Random
) -> list[Table]:
    """Two bots, each with a house partner (seats 0 and 2, 1 and 3 are partners), or a bot and its house
    partner against a pair of one anchor level."""
    tables = []
    for a, b in pair_two(candidates, anchors, rng):
        tables.append(Table(seats=(a, b, partner, partner if isinstance(b, int) else b)))
    return tables


def tables_pocha(candidates: list[Candidate], anchors: dict[str, float], rng: random.Random) -> list[Table]:
    """Tables of four: neighbours in rating (with the jitter), the last seats filled with the anchors
    nearest the table's mean rating."""
    ordered = sorted(candidates, key=lambda c: -(c.rating + rng.uniform(0, VARIETY)))
    tables = []
    for start in range(0, len(ordered), 4):
        group = ordered[start : start + 4]
        seats: list[int | str] = [c.player_id for c in group]
        if len(seats) < 4:
            if not anchors:
                continue
            mean = sum(c.rating for c in group) / len(group)
            nearest = sorted(anchors, key=lambda level: abs(anchors[level] - mean))
            while len(seats) < 4:
                seats.append(nearest[(len(seats) - len(group)) % len(nearest)])
        tables.append(Table(seats=tuple(seats)))
    return tables
