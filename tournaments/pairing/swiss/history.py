"""What a Swiss pairing needs to know of the rounds played: opponents, byes, seats."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ..common import Entrant, Round


@dataclass(frozen=True, slots=True)
class History:
    """What a Swiss pairing needs to know of the rounds played."""

    opponents: Mapping[Entrant, frozenset[Entrant]]
    byes: Mapping[Entrant, int]
    firsts: Mapping[Entrant, int]  # games in the first seat
    seconds: Mapping[Entrant, int]
    rounds: int

    @classmethod
    def of(cls, rounds: Iterable[Round]) -> History:
        opponents: dict[Entrant, set[Entrant]] = defaultdict(set)
        byes: dict[Entrant, int] = defaultdict(int)
        firsts: dict[Entrant, int] = defaultdict(int)
        seconds: dict[Entrant, int] = defaultdict(int)
        count = 0
        for r in rounds:
            count += 1
            for p in r.pairings:
                opponents[p.first].add(p.second)
                opponents[p.second].add(p.first)
                firsts[p.first] += 1
                seconds[p.second] += 1
            if r.bye is not None:
                byes[r.bye] += 1
        return cls(
            opponents={e: frozenset(o) for e, o in opponents.items()},
            byes=dict(byes),
            firsts=dict(firsts),
            seconds=dict(seconds),
            rounds=count,
        )
