"""Seeding: the order of entrants, best first, that every format starts from.

Three ways, as the organiser chooses: by rating (the default; the caller passes the ratings), at random
(from a seeded ``random.Random`` or a seed, never the global generator) or by hand (an explicit order).
``bracket_positions`` is the standard bracket order that keeps the top seeds apart.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from enum import StrEnum

from .common import Entrant, PairingError, check_entrants


class SeedingMethod(StrEnum):
    RATING = "rating"
    RANDOM = "random"
    MANUAL = "manual"


def seed_by_rating(
    entrants: Iterable[Entrant], ratings: Mapping[Entrant, float], *, default: float | None = None
) -> tuple[Entrant, ...]:
    """Highest rating first; equal ratings keep the order given (registration order, say).

    An entrant without a rating takes ``default``, or is refused when there is none.
    """
    order = check_entrants(entrants, minimum=0, what="seeding")
    missing = [e for e in order if e not in ratings]
    if missing and default is None:
        raise PairingError(f"no rating for entrants {missing}: pass a default rating for them")

    def rating(e: Entrant) -> float:
        value = ratings.get(e)
        if value is None:
            assert default is not None
            return default
        return value

    return tuple(sorted(order, key=lambda e: -rating(e)))


def seed_at_random(entrants: Iterable[Entrant], rng: random.Random | int | str) -> tuple[Entrant, ...]:
    """A uniform random order from ``rng`` (a ``random.Random``, or a seed to make one from)."""
    order = list(check_entrants(entrants, minimum=0, what="seeding"))
    generator = rng if isinstance(rng, random.Random) else random.Random(rng)
    generator.shuffle(order)
    return tuple(order)


def seed_by_hand(entrants: Iterable[Entrant], order: Sequence[Entrant]) -> tuple[Entrant, ...]:
    """The organiser's ``order``, which must hold every entrant exactly once."""
    expected = check_entrants(entrants, minimum=0, what="seeding")
    given = check_entrants(order, minimum=0, what="hand seeding")
    if set(given) != set(expected):
        missing = sorted(set(expected) - set(given))
        unknown = sorted(set(given) - set(expected))
        raise PairingError(f"hand seeding must list every entrant once: missing {missing}, unknown {unknown}")
    return given


def seed(
    entrants: Iterable[Entrant],
    method: SeedingMethod | str = SeedingMethod.RATING,
    *,
    ratings: Mapping[Entrant, float] | None = None,
    default_rating: float | None = None,
    rng: random.Random | int | str | None = None,
    order: Sequence[Entrant] | None = None,
) -> tuple[Entrant, ...]:
    """Seed ``entrants`` by ``method``, with what that method needs (ratings, an rng, or an order)."""
    chosen = SeedingMethod(method)
    if chosen is SeedingMethod.RATING:
        if ratings is None:
            raise PairingError("seeding by rating needs the ratings")
        return seed_by_rating(entrants, ratings, default=default_rating)
    if chosen is SeedingMethod.RANDOM:
        if rng is None:
            raise PairingError("random seeding needs an rng or a seed")
        return seed_at_random(entrants, rng)
    if order is None:
        raise PairingError("seeding by hand needs the order")
    return seed_by_hand(entrants, order)


def bracket_positions(size: int) -> tuple[int, ...]:
    """Seed numbers (1-based) in bracket order for a bracket of ``size`` (a power of two).

    Slots 2k and 2k+1 meet in round 1: for 8, ``(1, 8, 4, 5, 2, 7, 3, 6)``. If the better seed always
    wins, round r pairs seed s with seed ``size / 2**(r-1) + 1 - s``, so seeds 1 and 2 can only meet in
    the final and the top 4 no earlier than the semi-finals.
    """
    if size < 1 or size & (size - 1):
        raise PairingError(f"a bracket size is a power of two, not {size}")
    positions = [1]
    width = 1
    while width < size:
        width *= 2
        positions = [s for p in positions for s in (p, width + 1 - p)]
    return tuple(positions)


def bracket_size(entrants: int) -> int:
    """The smallest power of two that holds ``entrants`` (at least 2)."""
    size = 2
    while size < entrants:
        size *= 2
    return size
