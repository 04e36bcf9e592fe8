"""Seeding (issue 6): by rating, at random from a seeded rng, by hand; the standard bracket order."""

from __future__ import annotations

import random

import pytest

from tournaments.pairing import PairingError, SeedingMethod, bracket_positions, bracket_size, seed
from tournaments.pairing.seeding import seed_at_random, seed_by_hand, seed_by_rating


def test_by_rating_puts_the_highest_first_and_keeps_ties_in_the_given_order() -> None:
    # given: four entrants, two of them on the same rating
    ratings = {10: 1500.0, 11: 1720.0, 12: 1500.0, 13: 1610.0}

    # then: highest first; 10 before 12 because it was listed first
    assert seed([10, 11, 12, 13], ratings=ratings) == (11, 13, 10, 12)


def test_by_rating_refuses_a_missing_rating_unless_a_default_is_given() -> None:
    with pytest.raises(PairingError, match="no rating"):
        seed_by_rating([1, 2], {1: 1500.0})
    assert seed_by_rating([1, 2], {1: 1500.0}, default=1600.0) == (2, 1)


def test_random_seeding_is_a_permutation_that_depends_only_on_the_seed() -> None:
    entrants = list(range(20))

    # when: seeded twice alike, and once differently
    first = seed(entrants, SeedingMethod.RANDOM, rng=42)
    again = seed_at_random(entrants, random.Random(42))
    other = seed(entrants, "random", rng="another seed")

    # then
    assert sorted(first) == entrants
    assert first == again
    assert first != other
    assert first != tuple(entrants)


def test_random_seeding_leaves_the_global_generator_alone() -> None:
    random.seed(7)
    expected = random.random()
    random.seed(7)
    seed(range(50), SeedingMethod.RANDOM, rng=1)
    assert random.random() == expected


def test_hand_seeding_takes_the_order_given_and_checks_it_lists_everyone_once() -> None:
    assert seed([1, 2, 3], SeedingMethod.MANUAL, order=[3, 1, 2]) == (3, 1, 2)
    with pytest.raises(PairingError, match="missing \\[2\\]"):
        seed_by_hand([1, 2, 3], [3, 1])
    with pytest.raises(PairingError, match="more than once"):
        seed_by_hand([1, 2, 3], [3, 1, 1, 2])


def test_each_method_needs_its_input() -> None:
    with pytest.raises(PairingError, match="ratings"):
        seed([1, 2])
    with pytest.raises(PairingError, match="rng"):
        seed([1, 2], "random")
    with pytest.raises(PairingError, match="order"):
        seed([1, 2], "manual")
    with pytest.raises(ValueError):
        seed([1, 2], "alphabetical")


def test_bracket_positions_are_the_standard_order() -> None:
    assert bracket_positions(2) == (1, 2)
    assert bracket_positions(4) == (1, 4, 2, 3)
    assert bracket_positions(8) == (1, 8, 4, 5, 2, 7, 3, 6)
    assert bracket_positions(16) == (1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11)
    with pytest.raises(PairingError):
        bracket_positions(12)


@pytest.mark.parametrize("size", [2, 4, 8, 16, 32, 64, 128])
def test_round_one_pairs_seeds_that_add_up_to_size_plus_one(size: int) -> None:
    positions = bracket_positions(size)
    assert sorted(positions) == list(range(1, size + 1))
    assert all(positions[i] + positions[i + 1] == size + 1 for i in range(0, size, 2))


def test_bracket_size_is_the_next_power_of_two() -> None:
    assert [bracket_size(n) for n in (1, 2, 3, 4, 5, 8, 9, 64, 65)] == [2, 2, 4, 4, 8, 8, 16, 64, 128]
