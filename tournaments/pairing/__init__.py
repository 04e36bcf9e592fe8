"""Pairing logic for club tournaments: pure Python, no Django, no I/O, no global random.

Entrants are opaque int ids, seeded best first; results come in as plain data and every schedule,
bracket and standing comes out as frozen dataclasses. The tournaments app stores them and turns them
into matches of the games app.

- ``seeding``: by rating, at random (a seeded rng), by hand; the standard bracket order.
- ``elimination``: single (optional third-place match) and double elimination (grand final, reset).
- ``round_robin``: single or double, circle method, a bye when the count is odd.
- ``swiss``: one round at a time: score groups, no avoidable rematch, one bye, club avoidance.
- ``pocha_tables``: rounds of tables of 3 to 6 seated by standings.
- ``standings``: points and tie-breaks (Buchholz, Sonneborn-Berger, head-to-head, games, card points).
"""

from .common import Entrant, Pairing, PairingError, Round
from .elimination import (
    Bracket,
    BracketError,
    BracketKind,
    CorrectionRefused,
    Match,
    MatchState,
    Result,
    Section,
    Status,
    double_elimination,
    single_elimination,
)
from .pocha_tables import TableRound, seat_tables, table_sizes
from .round_robin import round_robin
from .seeding import SeedingMethod, bracket_positions, bracket_size, seed
from .standings import Encounter, Scoring, Standing, TieBreak, standings
from .swiss import History, swiss_round

__all__ = [
    "Bracket",
    "BracketError",
    "BracketKind",
    "CorrectionRefused",
    "Encounter",
    "Entrant",
    "History",
    "Match",
    "MatchState",
    "Pairing",
    "PairingError",
    "Result",
    "Round",
    "Scoring",
    "Section",
    "SeedingMethod",
    "Standing",
    "Status",
    "TableRound",
    "TieBreak",
    "bracket_positions",
    "bracket_size",
    "double_elimination",
    "round_robin",
    "seat_tables",
    "seed",
    "single_elimination",
    "standings",
    "swiss_round",
    "table_sizes",
]
