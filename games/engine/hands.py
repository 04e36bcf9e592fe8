"""A hand's vocabulary shared by the table, its views and the bots: its phases, the events of its public
log, and a finished Pocha hand's result."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from .cards import CODE_OF, SUITS

# Phases
BIDDING: Final = 0
PLAYING: Final = 1
PARTNER_SINGING: Final = 2
OVER: Final = 3
PHASE_NAMES: Final = ("bid", "play", "partner_sing", "over")

# Events of the current hand's public log: (kind, seat, a, b)
EV_PLAY: Final = 0  # seat played card a
EV_TRICK: Final = 1  # seat won the trick, worth a card points
EV_EXCHANGE: Final = 2  # seat gave card a (to the face-up place) and took card b
EV_SING: Final = 3  # seat sang suit a (4 = tute) for b points
EV_BID: Final = 4  # seat bid a
EV_PASS: Final = 5  # seat (the winner's partner) passed its chance to sing

TUTE_SUIT: Final = 4


@dataclass(frozen=True, slots=True)
class HandResult:
    """One finished Pocha hand: what was dealt, bid, won and scored."""

    cards: int
    dealer: int
    trump: int
    trump_card: int
    bids: tuple[int, ...]
    tricks: tuple[int, ...]
    scores: tuple[int, ...]
    log: tuple[tuple[int, int, int, int], ...] = field(default=(), repr=False)  # the hand's public events
    # ``record()``, built the first time a view asks and kept: every later table and view shares this
    # hand, so a long Pocha's views do not rebuild every earlier hand's record (nor do playouts build any).
    _record: dict[str, object] | None = field(default=None, init=False, repr=False, compare=False)

    def to_dict(self) -> dict[str, object]:
        return {
            "cards": self.cards,
            "dealer": self.dealer,
            "trump": SUITS[self.trump],
            "trump_card": CODE_OF[self.trump_card],
            "bids": list(self.bids),
            "tricks": list(self.tricks),
            "scores": list(self.scores),
        }

    def record(self) -> dict[str, object]:
        """The hand as views show it: ``to_dict()`` and its tricks in play order (``played``). Built once
        and shared: read it, never change it."""
        if self._record is not None:
            return self._record
        played: list[dict[str, object]] = []
        current: list[list[object]] = []
        for kind, who, a, _ in self.log:
            if kind == EV_PLAY:
                current.append([who, CODE_OF[a]])
            elif kind == EV_TRICK:
                played.append({"leader": current[0][0], "cards": current, "winner": who, "points": a})
                current = []
        record: dict[str, object] = {**self.to_dict(), "played": played}
        object.__setattr__(self, "_record", record)  # a cache: the hand's value never changes
        return record
