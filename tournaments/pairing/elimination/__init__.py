"""Single and double elimination brackets: the structure, and its state as results come in.

A bracket is a DAG of matches. Each match has two slots, and each slot is fed by a seed, the winner of
an earlier match or (in a losers' bracket, a third-place match) the loser of one. The structure is
built once from the seeds (best first) at the next power of two; byes go to the top seeds, and a match
with an empty slot is folded away at build time, so ``matches`` holds only real matches and a bye is a
seed feeding a round-2 slot directly. Match indices are in play order: feeders come first.

The state (``Bracket``) is the structure plus the recorded results and the withdrawn entrants; every
match's entrants, status and winner are derived from them. A withdrawn entrant loses each pending match
by walkover (when both have withdrawn, the better seed goes through and forfeits the next one).
``record``, ``correct`` and ``withdraw`` return a new bracket. A service stores ``recorded()`` and
``forfeited`` and rebuilds the bracket with ``with_results`` in one pass. ``feeders``, ``upstream``,
``downstream`` and ``correction_effects`` say which matches a result reads or reaches, so a service can
refuse a correction whose effects reach a started match; ``correct`` itself refuses one that would
change a match that already has a result.

Double elimination: the winners' bracket (W1..WR), a losers' bracket of 2(R-1) rounds where odd rounds
pair the survivors and even rounds take the losers dropping from the next winners' round (in
alternating orders, so that a dropped entrant does not at once meet one it has just played), the grand
final (GF1) between the two bracket champions, and a bracket reset (GF2, the same two again) played only
if the losers'-bracket champion wins GF1. Everyone but the champion is out after exactly two losses.

The package: ``structure`` (the static part and the types), ``build`` (the two kinds of bracket),
``bracket`` (the state and how results propagate).
"""

from .bracket import Bracket
from .build import double_elimination, single_elimination
from .structure import (
    DECIDED,
    FINISHED,
    BracketError,
    BracketKind,
    CorrectionRefused,
    Feed,
    FeedKind,
    Match,
    MatchState,
    Result,
    Section,
    Status,
    Structure,
)

__all__ = [
    "DECIDED",
    "FINISHED",
    "Bracket",
    "BracketError",
    "BracketKind",
    "CorrectionRefused",
    "Feed",
    "FeedKind",
    "Match",
    "MatchState",
    "Result",
    "Section",
    "Status",
    "Structure",
    "double_elimination",
    "single_elimination",
]
