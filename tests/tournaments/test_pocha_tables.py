"""Pocha rounds (issue 6): tables of 3 to 6 players, as even as possible, seated by standings."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.pairing import PairingError, seat_tables, table_sizes


def brute_force_best(n: int, preferred: int) -> tuple[float, int]:
    """The best (distance to the preferred size, tables) over every even split into sizes 3..6."""
    options = []
    for t in range(1, n + 1):
        low, extra = divmod(n, t)
        if low >= 3 and low + (1 if extra else 0) <= 6:
            options.append((abs(n / t - preferred), t))
    return min(options)


@pytest.mark.parametrize("preferred", [3, 4, 5, 6])
@pytest.mark.parametrize("n", range(3, 101))
def test_sizes_within_bounds_as_even_as_possible_close_to_the_preferred(n: int, preferred: int) -> None:
    sizes = table_sizes(n, preferred=preferred)

    assert sum(sizes) == n
    assert all(3 <= s <= 6 for s in sizes)
    assert max(sizes) - min(sizes) <= 1
    assert list(sizes) == sorted(sizes, reverse=True)
    assert (abs(n / len(sizes) - preferred), len(sizes)) == brute_force_best(n, preferred)


def test_worked_examples() -> None:
    assert table_sizes(3) == (3,)
    assert table_sizes(6) == (3, 3)
    assert table_sizes(6, preferred=6) == (6,)
    assert table_sizes(7) == (4, 3)
    assert table_sizes(10) == (4, 3, 3)
    assert table_sizes(10, preferred=5) == (5, 5)
    assert table_sizes(16) == (4, 4, 4, 4)
    assert table_sizes(17, preferred=6) == (6, 6, 5)
    assert table_sizes(12, preferred=5, min_size=3, max_size=5) == (4, 4, 4)


def test_too_few_players_or_bad_bounds_are_refused() -> None:
    with pytest.raises(PairingError):
        table_sizes(2)
    with pytest.raises(PairingError):
        table_sizes(10, preferred=7)
    with pytest.raises(PairingError):
        table_sizes(10, min_size=2)
    with pytest.raises(PairingError):
        seat_tables([1, 2])


@given(n=st.integers(3, 200), preferred=st.integers(3, 6), number=st.integers(1, 20))
def test_everyone_is_seated_once_in_standings_order(n: int, preferred: int, number: int) -> None:
    standings = [1000 - 3 * i for i in range(n)]

    r = seat_tables(standings, number, preferred=preferred)

    # then: the tables have the sizes of table_sizes, and are consecutive slices of the standings
    assert r.number == number
    assert tuple(len(t) for t in r.tables) == table_sizes(n, preferred=preferred)
    assert [e for t in r.tables for e in t] == standings


@given(n=st.integers(3, 200), preferred=st.integers(3, 6))
def test_snake_seating_spreads_the_top_players(n: int, preferred: int) -> None:
    standings = list(range(n))

    r = seat_tables(standings, preferred=preferred, snake=True)

    # then: everyone once, same sizes, and each table's best player is among the top len(tables)
    assert sorted(e for t in r.tables for e in t) == standings
    assert tuple(len(t) for t in r.tables) == table_sizes(n, preferred=preferred)
    assert sorted(t[0] for t in r.tables) == list(range(len(r.tables)))
    assert all(list(t) == sorted(t) for t in r.tables)


def test_snake_example() -> None:
    assert seat_tables(range(10), snake=True).tables == ((0, 5, 6, 9), (1, 4, 7), (2, 3, 8))
