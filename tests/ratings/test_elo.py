"""Elo as pure functions (ratings/elo.py): values worked out by hand for each pool's formula.

The expected score of A against B is 1 / (1 + 10^((Rb - Ra) / 400)); a change is K x (score - expected).
Handy values: 200 points apart the stronger side expects 1 / (1 + 10^-0.5) = 0.759747, 400 apart
1 / (1 + 10^-1) = 10/11.
"""

from __future__ import annotations

import pytest

from ratings.elo import KPolicy, Standing, expected, multiplayer, pairs_seats, two_sided

POLICY = KPolicy()  # 40 for the first 30 rated matches, 20 after, 10 from 2400 up
NEW = 0  # rated matches of a newcomer
SEASONED = 40  # past the first 30 rated matches
E200 = 0.7597469266  # expected score 200 points above the opponent


def approx(value: float) -> object:
    return pytest.approx(value, abs=1e-6)


# -- expected score and K -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rating", "opponent", "score"),
    [(1500, 1500, 0.5), (1700, 1500, E200), (1500, 1700, 1 - E200), (2000, 1600, 10 / 11)],
)
def test_expected_score(rating: float, opponent: float, score: float) -> None:
    assert expected(rating, opponent) == approx(score)


@pytest.mark.parametrize(
    ("rating", "matches", "k"),
    [
        (1500, 0, 40),
        (1500, 29, 40),  # still in the first 30 rated matches
        (1500, 30, 20),
        (2399.9, 100, 20),
        (2400, 30, 10),  # from 2400 up
        (2600, 100, 10),
        (2400, 29, 40),  # a newcomer keeps K 40 even up there
    ],
)
def test_k_by_experience_and_rating(rating: float, matches: int, k: float) -> None:
    assert POLICY.k(rating, matches) == k


# -- Tute 2: head to head -------------------------------------------------------------------------------


def test_two_newcomers_at_1500_the_winner_gains_20() -> None:
    # when: A beats B, both new at 1500: 40 x (1 - 0.5)
    da, db = two_sided(Standing(1500, NEW), Standing(1500, NEW), 1.0, POLICY)

    # then
    assert (da, db) == (20.0, -20.0)


def test_a_draw_between_equals_changes_nothing() -> None:
    assert two_sided(Standing(1500, NEW), Standing(1500, NEW), 0.5, POLICY) == (0.0, 0.0)


def test_a_draw_moves_the_weaker_side_up() -> None:
    # when: 1700 and 1500 draw: 40 x (0.5 - 0.759747) = -10.3899
    da, db = two_sided(Standing(1700, NEW), Standing(1500, NEW), 0.5, POLICY)

    # then
    assert da == approx(-10.389877066)
    assert db == approx(10.389877066)


def test_the_favourite_wins_little_and_the_upset_wins_much() -> None:
    # when: 1700 beats 1500: 40 x (1 - 0.759747) = 9.6101
    favourite = two_sided(Standing(1700, NEW), Standing(1500, NEW), 1.0, POLICY)
    # when: 1500 beats 1700: 40 x (1 - 0.240253) = 30.3899
    upset = two_sided(Standing(1700, NEW), Standing(1500, NEW), 0.0, POLICY)

    # then
    assert favourite == (approx(9.610122934), approx(-9.610122934))
    assert upset == (approx(-30.389877066), approx(30.389877066))


def test_each_side_uses_its_own_k() -> None:
    # given: a seasoned 1500 (K 20) against a newcomer at 1500 (K 40)
    # when: the seasoned player wins
    da, db = two_sided(Standing(1500, SEASONED), Standing(1500, NEW), 1.0, POLICY)

    # then: 20 x 0.5 and 40 x -0.5
    assert (da, db) == (10.0, -20.0)


def test_k_10_from_2400_up() -> None:
    # when: a seasoned 2400 (K 10) beats a seasoned 2000 (K 20): expected 10/11
    da, db = two_sided(Standing(2400, SEASONED), Standing(2000, SEASONED), 1.0, POLICY)

    # then: 10 x 1/11 and 20 x -1/11
    assert da == approx(10 / 11)
    assert db == approx(-20 / 11)


# -- Tute 4: pairs' averages, each player's own K -------------------------------------------------------

DISTINCT = ("a1", "b1", "a2", "b2")


def seated(side_a: tuple[Standing, Standing], side_b: tuple[Standing, Standing]) -> list[Standing]:
    """Seats 0 and 2 hold side A, seats 1 and 3 side B."""
    return [side_a[0], side_b[0], side_a[1], side_b[1]]


def test_tute4_the_expectation_comes_from_the_pairs_averages() -> None:
    # given: 1700 & 1500 (average 1600) against 1400 & 1400 (average 1400), all new
    side_a = (Standing(1700, NEW), Standing(1500, NEW))
    side_b = (Standing(1400, NEW), Standing(1400, NEW))

    # when: side A wins: expected 0.759747 from the averages, not from each player's own rating
    deltas = pairs_seats(seated(side_a, side_b), DISTINCT, 1.0, POLICY)

    # then: 40 x (1 - 0.759747) for each of A, 40 x (0 - 0.240253) for each of B (seats 0, 2 / 1, 3)
    assert deltas == [approx(9.610122934), approx(-9.610122934), approx(9.610122934), approx(-9.610122934)]


def test_tute4_each_player_gets_its_own_k_times_the_pairs_surprise() -> None:
    # given: equal averages (1600 & 1400 against 1500 & 1500); A's second player is seasoned (K 20)
    side_a = (Standing(1600, NEW), Standing(1400, SEASONED))
    side_b = (Standing(1500, NEW), Standing(1500, SEASONED))

    # when: side B wins
    deltas = pairs_seats(seated(side_a, side_b), DISTINCT, 0.0, POLICY)

    # then: expected 0.5 each; K 40 or 20 by the player's experience
    assert deltas == [-20.0, 20.0, -10.0, 10.0]


def test_tute4_a_drawn_match_between_equal_pairs_changes_nothing() -> None:
    side = (Standing(1500, NEW), Standing(1500, NEW))
    assert pairs_seats(seated(side, side), DISTINCT, 0.5, POLICY) == [0.0, 0.0, 0.0, 0.0]


# -- Pocha: every two players compared by totals, K / (n - 1) -------------------------------------------


def test_pocha_three_equals_one_winner_and_a_tie_below() -> None:
    # given: three new players at 1500 with totals 30, 20, 20
    standings = [Standing(1500, NEW)] * 3

    # when
    deltas = multiplayer(standings, [30, 20, 20], POLICY)

    # then: K / (n - 1) = 20; the winner beat both (+0.5 +0.5), the tied two lost to it (-0.5) and tied (0)
    assert deltas == [20.0, -10.0, -10.0]


def test_pocha_four_players_with_ties() -> None:
    # given: four at 1500 with totals 10, 10, 0, -5: K / (n - 1) = 40 / 3
    deltas = multiplayer([Standing(1500, NEW)] * 4, [10, 10, 0, -5], POLICY)

    # then: seat 0: tie, +0.5, +0.5 = 1; seat 2: -0.5 -0.5 +0.5; seat 3: -1.5
    assert deltas == [approx(40 / 3), approx(40 / 3), approx(-20 / 3), approx(-20.0)]
    assert sum(deltas) == approx(0.0)


def test_pocha_unequal_ratings_use_the_expected_score_of_each_pair() -> None:
    # given: 1700, 1500, 1500 with totals 0, 10, 5
    standings = [Standing(1700, NEW), Standing(1500, NEW), Standing(1500, NEW)]

    # when
    deltas = multiplayer(standings, [0, 10, 5], POLICY)

    # then (K / 2 = 20):
    #   seat 0 loses to both: (0 - 0.759747) x 2 = -1.519494 -> -30.3899
    #   seat 1 beats seat 0 (+0.759747) and seat 2 (+0.5) = 1.259747 -> +25.1949
    #   seat 2 beats seat 0 (+0.759747), loses to seat 1 (-0.5) = 0.259747 -> +5.1949
    assert deltas == [approx(-30.389877066), approx(25.194938533), approx(5.194938533)]


def test_pocha_each_player_gets_its_own_k() -> None:
    # given: three at 1500, seat 0 seasoned (K 20 / 2 = 10), the others new (K 40 / 2 = 20)
    standings = [Standing(1500, SEASONED), Standing(1500, NEW), Standing(1500, NEW)]

    # when: seat 0 finishes first, seat 1 second, seat 2 last
    deltas = multiplayer(standings, [50, 20, -10], POLICY)

    # then: seat 0: +1 x 10; seat 1: 0 x 20; seat 2: -1 x 20
    assert deltas == [10.0, 0.0, -20.0]


def test_pocha_two_players_is_head_to_head() -> None:
    # n = 2: K / (n - 1) is the full K, as in Tute 2
    assert multiplayer([Standing(1500, NEW)] * 2, [15, 5], POLICY) == [20.0, -20.0]


# -- one competitor in several seats: never compared with itself ---------------------------------------


def test_tute4_a_house_pair_is_compared_with_the_other_side_only_once_per_seat() -> None:
    # given: a house bot level holding both seats of side A (1500, new) against two new players
    standings = [Standing(1500, NEW)] * 4

    # when: side A wins
    deltas = pairs_seats(standings, ("rule", "p", "rule", "q"), 1.0, POLICY)

    # then: each seat gets K x (1 - 0.5): the seats' mean is +20, the competitor moves once by K
    assert deltas == [20.0, -20.0, 20.0, -20.0]


def test_tute4_a_level_on_both_sides_is_compared_only_with_the_other_competitors() -> None:
    # given: rule at seats 1 and 2 (one on each side), new players at 0 (1700) and 3 (1300)
    standings = [Standing(1700, NEW), Standing(1500, NEW), Standing(1500, NEW), Standing(1300, NEW)]
    who = ("p", "rule", "rule", "q")

    # when: side A (seats 0 and 2) wins
    deltas = pairs_seats(standings, who, 1.0, POLICY)

    # then: seat 2 (rule, side A: average 1600) is compared with seat 3 only (1300); seat 1 (rule, side B:
    # average 1400) with seat 0 only (1700); the players with both opposing seats, as usual
    assert deltas[2] == approx(40 * (1 - expected(1600, 1300)))
    assert deltas[1] == approx(40 * (0 - expected(1400, 1700)))
    assert deltas[0] == approx(40 * (1 - expected(1600, 1400)))
    assert deltas[3] == approx(40 * (0 - expected(1400, 1600)))


def test_tute4_a_seat_facing_only_its_own_competitor_is_compared_with_nobody() -> None:
    # given: a player and rule against two rule seats
    deltas = pairs_seats([Standing(1500, NEW)] * 4, ("p", "rule", "rule", "rule"), 1.0, POLICY)

    # then: seat 2 (rule) faces only rule: no change of its own; seats 1 and 3 face the player only
    assert deltas[2] is None
    assert deltas == [20.0, -20.0, None, -20.0]


def test_pocha_seats_of_one_competitor_are_not_compared_with_each_other() -> None:
    # given: rule in seats 0, 1 and 3, a new player in seat 2; totals 30, 20, 10, 0
    standings = [Standing(1500, NEW)] * 4

    # when
    deltas = multiplayer(standings, [30, 20, 10, 0], POLICY, ("rule", "rule", "p", "rule"))

    # then: each rule seat is compared with the player only (K times the mean over one comparison);
    # the player with the three rule seats (K / 3 x (-0.5 - 0.5 + 0.5))
    assert deltas == [20.0, 20.0, approx(40 / 3 * -0.5), -20.0]


def test_pocha_with_every_seat_a_different_competitor_is_k_over_n_minus_1() -> None:
    standings = [Standing(1500, NEW)] * 4
    totals = [10, 10, 0, -5]
    assert multiplayer(standings, totals, POLICY, ("a", "b", "c", "d")) == multiplayer(
        standings, totals, POLICY
    )


def test_pocha_a_table_of_one_competitor_compares_nobody() -> None:
    assert multiplayer([Standing(1500, NEW)] * 3, [5, 0, -5], POLICY, ("rule",) * 3) == [None, None, None]
