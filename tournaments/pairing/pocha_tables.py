"""Pocha rounds: tables of 3 to 6 players, seated by standings.

``table_sizes`` splits n players into tables whose sizes differ by at most one and lie within the
bounds, choosing the number of tables whose average size is closest to the preferred size (on a tie,
fewer, larger tables). ``seat_tables`` fills them in standings order: the top players at table 1, the
next at table 2, and so on (``snake`` deals the order across the tables instead, to spread the seeds).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .common import Entrant, PairingError, check_entrants

MIN_TABLE = 3
MAX_TABLE = 6


@dataclass(frozen=True, slots=True)
class TableRound:
    number: int
    #: Each table's players in seat order (seat 0 = the best placed), table 1 first.
    tables: tuple[tuple[Entrant, ...], ...]


def table_sizes(
    players: int, *, preferred: int = 4, min_size: int = MIN_TABLE, max_size: int = MAX_TABLE
) -> tuple[int, ...]:
    """Sizes (largest first) of the tables for ``players``: within [min_size, max_size], as even as
    possible, their average as close to ``preferred`` as that allows."""
    if not MIN_TABLE <= min_size <= max_size <= MAX_TABLE:
        raise PairingError(f"table bounds must satisfy {MIN_TABLE} <= min <= max <= {MAX_TABLE}")
    if not min_size <= preferred <= max_size:
        raise PairingError(f"the preferred table size {preferred} is outside [{min_size}, {max_size}]")
    if players < min_size:
        raise PairingError(f"{players} players cannot fill a table of at least {min_size}")
    best: tuple[float, int] | None = None
    for tables in range(-(-players // max_size), players // min_size + 1):
        low, extra = divmod(players, tables)
        if low < min_size or low + (1 if extra else 0) > max_size:
            continue
        score = (abs(players / tables - preferred), tables)
        if best is None or score < best:
            best = score
    if best is None:
        raise PairingError(f"{players} players cannot be split into tables of {min_size} to {max_size}")
    tables = best[1]
    low, extra = divmod(players, tables)
    return tuple(low + 1 if t < extra else low for t in range(tables))


def seat_tables(
    standings: Iterable[Entrant],
    number: int = 1,
    *,
    preferred: int = 4,
    min_size: int = MIN_TABLE,
    max_size: int = MAX_TABLE,
    snake: bool = False,
) -> TableRound:
    """Round ``number``'s tables for the players in ``standings`` order (best first)."""
    order = check_entrants(standings, minimum=min_size, what="a Pocha round")
    sizes = table_sizes(len(order), preferred=preferred, min_size=min_size, max_size=max_size)
    if not snake:
        tables: list[tuple[Entrant, ...]] = []
        start = 0
        for size in sizes:
            tables.append(order[start : start + size])
            start += size
        return TableRound(number, tuple(tables))
    seats: list[list[Entrant]] = [[] for _ in sizes]
    position = 0
    for row in range(max(sizes)):
        columns = [t for t in range(len(sizes)) if sizes[t] > row]
        for t in columns if row % 2 == 0 else reversed(columns):
            seats[t].append(order[position])
            position += 1
    return TableRound(number, tuple(tuple(t) for t in seats))
