"""Standings and tie-breaks (issue 6), on hand-worked examples."""

from __future__ import annotations

import pytest

from tournaments.pairing import Encounter, PairingError, Scoring, TieBreak, standings

A, B, C, D = 1, 2, 3, 4


def four_player_event() -> list[Encounter]:
    """R1: A beats B, C draws D. R2: A beats C, B beats D. R3: D beats A, B draws C.

    Points: A 2, B 1.5, D 1.5, C 1.
    Buchholz (opponents' points): A 1.5+1+1.5 = 4; B 2+1.5+1 = 4.5; C 1.5+2+1.5 = 5; D 1+1.5+2 = 4.5.
    Sonneborn-Berger (beaten opponents' points, half the drawn ones'): A 1.5+1 = 2.5; B 1.5+0.5 = 2;
    C 0.75+0.75 = 1.5; D 0.5+2 = 2.5.
    """
    return [
        Encounter.match(1, A, B, A),
        Encounter.match(1, C, D, None),
        Encounter.match(2, A, C, A),
        Encounter.match(2, B, D, B),
        Encounter.match(3, D, A, D),
        Encounter.match(3, B, C, None),
    ]


def test_points_alone_leave_ties_sharing_a_rank_listed_by_seed() -> None:
    out = standings([A, B, C, D], four_player_event())
    assert [(s.rank, s.entrant, s.points, s.played, s.tie_breaks) for s in out] == [
        (1, A, 2.0, 3, ()),
        (2, B, 1.5, 3, ()),
        (2, D, 1.5, 3, ()),
        (4, C, 1.0, 3, ()),
    ]


def test_buchholz_then_sonneborn_berger() -> None:
    out = standings([A, B, C, D], four_player_event(), [TieBreak.BUCHHOLZ, TieBreak.SONNEBORN_BERGER])

    # then: B and D tie on Buchholz (4.5); D's Sonneborn-Berger (2.5) beats B's (2)
    assert [(s.rank, s.entrant, s.tie_breaks) for s in out] == [
        (1, A, (4.0, 2.5)),
        (2, D, (4.5, 2.5)),
        (3, B, (4.5, 2.0)),
        (4, C, (5.0, 1.5)),
    ]


def test_head_to_head_first() -> None:
    out = standings([A, B, C, D], four_player_event(), ["head_to_head", "sonneborn_berger"])

    # then: B beat D, so B is ahead although D has the better Sonneborn-Berger; alone in their group,
    # A and C score 0 head to head
    assert [(s.rank, s.entrant, s.tie_breaks) for s in out] == [
        (1, A, (0.0, 2.5)),
        (2, B, (1.0, 2.0)),
        (3, D, (0.0, 2.5)),
        (4, C, (0.0, 1.5)),
    ]


def test_the_order_of_tie_breaks_matters() -> None:
    by_sb = standings([A, B, C, D], four_player_event(), ["sonneborn_berger", "head_to_head"])
    assert [s.entrant for s in by_sb] == [A, D, B, C]
    by_h2h = standings([A, B, C, D], four_player_event(), ["head_to_head", "sonneborn_berger"])
    assert [s.entrant for s in by_h2h] == [A, B, D, C]


def best_of_three_event() -> list[Encounter]:
    """A cycle: 1 beats 2 (2-1 in games, 300-250 in card points), 2 beats 3 (2-0, 280-200), 3 beats 1
    (2-1, 260-270). One point each, equal Buchholz, Sonneborn-Berger and head-to-head.
    Games won: 1: 2+1 = 3, 2: 1+2 = 3, 3: 0+2 = 2.
    Card-point difference: 1: 50+10 = 60, 2: -50+80 = 30, 3: -80-10 = -90."""
    return [
        Encounter.match(1, 1, 2, 1, games=(2, 1), cards=(300, 250)),
        Encounter.match(2, 2, 3, 2, games=(2, 0), cards=(280, 200)),
        Encounter.match(3, 3, 1, 3, games=(2, 1), cards=(260, 270)),
    ]


def test_games_won_then_card_point_difference() -> None:
    out = standings(
        [3, 2, 1],
        best_of_three_event(),
        [TieBreak.HEAD_TO_HEAD, TieBreak.GAMES_WON, TieBreak.CARD_POINT_DIFFERENCE],
    )
    assert [(s.rank, s.entrant, s.tie_breaks) for s in out] == [
        (1, 1, (1.0, 3.0, 60.0)),
        (2, 2, (1.0, 3.0, 30.0)),
        (3, 3, (1.0, 2.0, -90.0)),
    ]


def test_a_cycle_stays_tied_on_head_to_head_and_is_listed_by_seed() -> None:
    out = standings([3, 2, 1], best_of_three_event(), [TieBreak.HEAD_TO_HEAD, TieBreak.BUCHHOLZ])
    assert [(s.rank, s.entrant) for s in out] == [(1, 3), (1, 2), (1, 1)]


def test_a_bye_gives_points_and_nothing_else() -> None:
    # given: 3 players; 1 beats 2, 3 has the bye; then 3 beats 1, 2 has the bye
    encounters = [
        Encounter.match(1, 1, 2, 1),
        Encounter.bye(1, 3),
        Encounter.match(2, 3, 1, 3),
        Encounter.bye(2, 2, scoring=Scoring(bye=0.5)),
    ]
    out = standings([1, 2, 3], encounters, [TieBreak.BUCHHOLZ])

    # then: 3 has 2 points from one game; Buchholz counts only real opponents
    assert [(s.entrant, s.points, s.played, s.tie_breaks) for s in out] == [
        (3, 2.0, 1, (1.0,)),
        (1, 1.0, 2, (2.5,)),
        (2, 0.5, 1, (1.0,)),
    ]


def pocha_event() -> list[Encounter]:
    """One table of four, two rounds: (5, 3, 3, 0) then (0, 4, 2, 3). Totals: 1: 5, 2: 7, 3: 5, 4: 3.

    Buchholz (table mates' totals, each round): 2 * (20 - own): 1: 30, 2: 26, 3: 30, 4: 34.
    Sonneborn-Berger (those finished ahead of, half those level with):
      1: round 1 ahead of all: 7 + 5 + 3 = 15; round 2 behind all: 0.  -> 15
      2: round 1 level with 3 (2.5), ahead of 4 (3); round 2 ahead of all (5 + 5 + 3).  -> 18.5
      3: round 1 level with 2 (3.5), ahead of 4 (3); round 2 ahead of 1 (5).  -> 11.5
      4: round 1 behind all; round 2 ahead of 1 (5) and 3 (5).  -> 10
    Head to head, 1 v 3: one round each."""
    return [
        Encounter.table(1, [1, 2, 3, 4], [5, 3, 3, 0]),
        Encounter.table(2, [1, 2, 3, 4], [0, 4, 2, 3]),
    ]


def test_pocha_tables_count_every_table_mate() -> None:
    out = standings([1, 2, 3, 4], pocha_event(), ["buchholz", "head_to_head", "sonneborn_berger"])
    assert [(s.rank, s.entrant, s.points, s.tie_breaks) for s in out] == [
        (1, 2, 7.0, (26.0, 0.0, 18.5)),
        (2, 1, 5.0, (30.0, 1.0, 15.0)),
        (3, 3, 5.0, (30.0, 1.0, 11.5)),
        (4, 4, 3.0, (34.0, 0.0, 10.0)),
    ]


def test_card_point_difference_at_a_table_is_against_the_mean_of_the_others() -> None:
    enc = Encounter(1, (1, 2, 3), (2.0, 1.0, 0.0), card_points=(90, 60, 30))
    out = standings([1, 2, 3], [enc], [TieBreak.CARD_POINT_DIFFERENCE])
    assert [s.tie_breaks for s in out] == [(45.0,), (0.0,), (-45.0,)]


def test_bad_input_is_refused() -> None:
    with pytest.raises(PairingError):
        standings([1, 2], [Encounter.match(1, 1, 3, 1)])
    with pytest.raises(PairingError):
        standings([1, 2], [], ["buchholz", "buchholz"])
    with pytest.raises(ValueError):
        standings([1, 2], [], ["median"])
    with pytest.raises(PairingError):
        Encounter.match(1, 1, 2, 3)
    with pytest.raises(PairingError):
        Encounter(1, (1, 1), (1.0, 0.0))
    with pytest.raises(PairingError):
        Encounter(1, (1, 2), (1.0,))
    with pytest.raises(PairingError):
        Encounter(1, (1, 2), (1.0, 0.0), games_won=(1,))


def test_pocha_table_points_are_exact_and_equal_totals_tie() -> None:
    """Issue 17: 1/3 + 5/6 + 1 and 1 + 2/3 + 1/2 are both 13/6; rounded per table they were not."""
    from fractions import Fraction

    from tournaments.state import table_points

    a, b, c, d, e, f, g, h = range(1, 9)
    encounters = [
        # round 1: A third of four (1/3), B first (1)
        Encounter.table(1, [a, b, c, d], table_points([10, 30, 20, 0])),
        # round 2: A level with one and ahead of two (5/6); B ahead of two of three (2/3)
        Encounter.table(2, [a, c, d, e], table_points([30, 30, 10, 0])),
        Encounter.table(2, [b, f, g, h], table_points([20, 30, 10, 0])),
        # round 3: A first (1); B level with one, ahead of one (1/2)
        Encounter.table(3, [a, f, g, h], table_points([40, 0, 0, 0])),
        Encounter.table(3, [b, c, d, e], table_points([10, 20, 10, 0])),
    ]
    assert [enc.points[0] for enc in encounters] == [
        Fraction(1, 3),
        Fraction(5, 6),
        Fraction(2, 3),
        Fraction(1),
        Fraction(1, 2),
    ]

    # then: equal points, a shared rank without tie-breaks, and head-to-head (B ahead in round 1) decides
    plain = {s.entrant: s for s in standings(range(1, 9), encounters)}
    assert plain[a].points == plain[b].points == Fraction(13, 6)
    assert plain[a].rank == plain[b].rank
    ranked = {s.entrant: s.rank for s in standings(range(1, 9), encounters, ["head_to_head"])}
    assert ranked[b] < ranked[a]
