"""Round robin by the circle method (issue 6): every pair meets exactly once (twice in a double round
robin, seats swapped), nobody plays twice in a round, a bye each round when the count is odd."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from tournaments.pairing import Pairing, PairingError, Round, round_robin
from tournaments.pairing.round_robin import walkovers

SIZES = range(2, 25)


def meetings(rounds: tuple[Round, ...]) -> Counter[frozenset[int]]:
    return Counter(frozenset(p.entrants) for r in rounds for p in r.pairings)


@pytest.mark.parametrize("n", SIZES)
def test_single_round_robin(n: int) -> None:
    players = [10 * i + 3 for i in range(n)]
    rounds = round_robin(players)

    # then: n - 1 rounds (n when odd), numbered from 1
    assert [r.number for r in rounds] == list(range(1, len(rounds) + 1))
    assert len(rounds) == (n if n % 2 else n - 1)

    # and: every pair meets exactly once
    assert meetings(rounds) == Counter(frozenset(pair) for pair in combinations(players, 2))

    # and: each round everyone plays at most once; the bye (odd n only) goes to whoever does not play
    for r in rounds:
        seated = [e for p in r.pairings for e in p.entrants]
        assert len(seated) == len(set(seated))
        if n % 2:
            assert r.bye is not None and r.bye not in seated
            assert sorted([*seated, r.bye]) == sorted(players)
        else:
            assert r.bye is None and sorted(seated) == sorted(players)

    # and: with an odd count, everyone has exactly one bye
    if n % 2:
        assert sorted(r.bye for r in rounds if r.bye is not None) == sorted(players)

    # and: the first seat is shared out evenly (at most one game apart)
    first = Counter(p.first for r in rounds for p in r.pairings)
    second = Counter(p.second for r in rounds for p in r.pairings)
    assert all(abs(first[e] - second[e]) <= 1 for e in players)


@pytest.mark.parametrize("n", SIZES)
def test_double_round_robin_swaps_the_seats(n: int) -> None:
    players = list(range(n))
    single = round_robin(players)
    double = round_robin(players, double=True)

    # then: twice the rounds; the second half repeats the first with the seats swapped
    legs = len(single)
    assert len(double) == 2 * legs
    assert double[:legs] == single
    for first_leg, second_leg in zip(double[:legs], double[legs:], strict=True):
        assert second_leg.number == first_leg.number + legs
        assert second_leg.pairings == tuple(Pairing(p.second, p.first) for p in first_leg.pairings)
        assert second_leg.bye == first_leg.bye

    # and: every pair meets twice, once in each seat order
    assert set(meetings(double).values()) == {2}
    ordered = Counter((p.first, p.second) for r in double for p in r.pairings)
    assert set(ordered.values()) == {1}
    assert len(ordered) == n * (n - 1)


def test_four_players_berger_table() -> None:
    assert round_robin([1, 2, 3, 4]) == (
        Round(1, (Pairing(1, 4), Pairing(2, 3))),
        Round(2, (Pairing(3, 1), Pairing(4, 2))),
        Round(3, (Pairing(1, 2), Pairing(3, 4))),
    )


def test_three_players_each_sit_out_once() -> None:
    rounds = round_robin([7, 8, 9])
    assert [r.bye for r in rounds] == [7, 8, 9]
    assert [r.pairings for r in rounds] == [(Pairing(8, 9),), (Pairing(9, 7),), (Pairing(7, 8),)]


def test_walkovers_split_a_round_by_withdrawals() -> None:
    r = Round(1, (Pairing(1, 4), Pairing(2, 3)))
    play, forfeited = walkovers(r, {3})
    assert play == (Pairing(1, 4),)
    assert forfeited == (Pairing(2, 3),)


def test_at_least_two_distinct_entrants() -> None:
    with pytest.raises(PairingError):
        round_robin([1])
    with pytest.raises(PairingError):
        round_robin([1, 1, 2])
