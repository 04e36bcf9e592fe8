"""Types shared by every format: entrants are opaque ids, a round is a tuple of pairings and a bye."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

#: An entrant (a player, a pair, a bot seat) is whatever int id the caller uses.
Entrant = int


class PairingError(ValueError):
    """Input that no schedule can be made from (too few entrants, duplicates, unknown ids ...)."""


@dataclass(frozen=True, slots=True)
class Pairing:
    """Two entrants to play each other; ``first`` takes the first seat (the colour, in chess terms)."""

    first: Entrant
    second: Entrant

    @property
    def entrants(self) -> tuple[Entrant, Entrant]:
        return (self.first, self.second)

    def swapped(self) -> Pairing:
        return Pairing(self.second, self.first)


@dataclass(frozen=True, slots=True)
class Round:
    """One round of a one-on-one format: its pairings (board order) and at most one bye."""

    number: int
    pairings: tuple[Pairing, ...]
    bye: Entrant | None = None

    def entrants(self) -> tuple[Entrant, ...]:
        """Everyone scheduled in this round, the bye included."""
        seated = tuple(e for p in self.pairings for e in p.entrants)
        return (*seated, self.bye) if self.bye is not None else seated


def check_entrants(entrants: Iterable[Entrant], *, minimum: int, what: str) -> tuple[Entrant, ...]:
    """The entrants as a tuple, refusing duplicates and fewer than ``minimum`` of them."""
    out = tuple(entrants)
    if len(set(out)) != len(out):
        duplicates = sorted({e for e in out if out.count(e) > 1})
        raise PairingError(f"{what}: entrants appear more than once: {duplicates}")
    if len(out) < minimum:
        raise PairingError(f"{what} needs at least {minimum} entrants, not {len(out)}")
    return out
