"""A bracket's static part: its matches, what feeds each slot, and the types its state is made of."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from ..common import Entrant, PairingError


class BracketError(PairingError):
    """A result or a change the bracket cannot take (unknown match, not ready, wrong winner ...)."""


class CorrectionRefused(BracketError):
    """A correction whose effects reach matches that already have results: ``blocking`` names them."""

    def __init__(self, message: str, blocking: tuple[str, ...]) -> None:
        super().__init__(message)
        self.blocking = blocking


class BracketKind(StrEnum):
    SINGLE = "single"
    DOUBLE = "double"


class Section(StrEnum):
    WINNERS = "W"
    LOSERS = "L"
    GRAND_FINAL = "GF"
    THIRD_PLACE = "3P"


class FeedKind(StrEnum):
    SEED = "seed"
    WINNER = "winner"
    LOSER = "loser"


class Status(StrEnum):
    WAITING = "waiting"  # an entrant is not known yet (or, for a reset, whether it is needed)
    READY = "ready"  # both entrants known: to be played
    PLAYED = "played"
    WALKOVER = "walkover"  # decided by a forfeit: recorded (a no-show) or automatic (a withdrawal)
    SKIPPED = "skipped"  # a bracket reset that is not needed


DECIDED = frozenset({Status.PLAYED, Status.WALKOVER})


FINISHED = frozenset({Status.PLAYED, Status.WALKOVER, Status.SKIPPED})


@dataclass(frozen=True, slots=True)
class Feed:
    """Where a slot's entrant comes from: seed number ``ref`` (0 = top seed) or match ``ref``."""

    kind: FeedKind
    ref: int


@dataclass(frozen=True, slots=True)
class Match:
    index: int
    code: str  # "W1.3", "L2.1", "GF1", "GF2", "3P": section, round, position in the full-size round
    section: Section
    round: int
    feeds: tuple[Feed, Feed]
    #: Orders eliminations for the final placings: who lost a later stage places higher.
    stage: int
    #: A bracket reset: played only if the second slot's entrant won match ``reset_of``.
    reset_of: int | None = None


@dataclass(frozen=True, slots=True)
class Result:
    winner: Entrant
    walkover: bool = False


@dataclass(frozen=True, slots=True)
class MatchState:
    match: Match
    entrants: tuple[Entrant | None, Entrant | None]
    status: Status
    winner: Entrant | None = None
    recorded: bool = False  # the result is in ``Bracket.results`` (not derived from a withdrawal)

    @property
    def loser(self) -> Entrant | None:
        if self.winner is None:
            return None
        a, b = self.entrants
        return b if self.winner == a else a


@dataclass(frozen=True, slots=True)
class Structure:
    """The static part of a bracket, shared by all its states."""

    kind: BracketKind
    seeds: tuple[Entrant, ...]
    size: int
    third_place: bool
    matches: tuple[Match, ...] = field(repr=False)
    #: Matches that read each match's result (its winner, its loser, or whether a reset is needed).
    dependents: tuple[tuple[int, ...], ...] = field(repr=False, compare=False)
    seed_of: Mapping[Entrant, int] = field(repr=False, compare=False)
    index_of: Mapping[str, int] = field(repr=False, compare=False)
    #: The last match of the winners' bracket (single: the final; double: the winners' final).
    winners_final: int
    #: The match that decides the champion when it is not reset (single: the final; double: GF1).
    final: int
    reset: int | None

    @property
    def rounds(self) -> int:
        """Rounds of the winners' bracket (log2 of the bracket size)."""
        return self.size.bit_length() - 1

    @property
    def byes(self) -> tuple[Entrant, ...]:
        """Entrants who skip round 1: the top ``size - n`` seeds."""
        out = [
            self.seeds[feed.ref]
            for m in self.matches
            if m.section is Section.WINNERS and m.round > 1
            for feed in m.feeds
            if feed.kind is FeedKind.SEED
        ]
        return tuple(sorted(out, key=self.seed_of.__getitem__))
