"""The matchmaker's pure part: close ratings first, variety, anchors, table shapes."""

from __future__ import annotations

import random

from ladder.pairing import Candidate, tables_pocha, tables_tute2, tables_tute4

ANCHORS = {"random": 1200.0, "rule": 1600.0}


def test_close_ratings_meet_and_a_lone_bot_plays_the_nearest_anchor() -> None:
    bots = [
        Candidate(1, 2000),
        Candidate(2, 1990),
        Candidate(3, 1500),
        Candidate(4, 1510),
        Candidate(5, 1190),
    ]

    tables = tables_tute2(bots, ANCHORS, random.Random(0))

    assert sorted(t.seats for t in tables) == [(1, 2), (4, 3), (5, "random")]


def test_a_bot_does_not_meet_its_last_opponent_again_when_another_is_there() -> None:
    bots = [Candidate(1, 1500, frozenset({"player:2"})), Candidate(2, 1500, frozenset({"player:1"}))]

    tables = tables_tute2(bots, ANCHORS, random.Random(0))

    assert all("rule" in t.seats or "random" in t.seats for t in tables)
    assert len(tables) == 2


def test_tute4_gives_each_bot_a_house_partner() -> None:
    two = tables_tute4([Candidate(1, 1500), Candidate(2, 1500)], ANCHORS, "rule", random.Random(0))
    one = tables_tute4([Candidate(1, 1250)], ANCHORS, "rule", random.Random(0))

    assert [t.seats for t in two] == [(1, 2, "rule", "rule")]
    assert [t.seats for t in one] == [(1, "random", "rule", "random")]


def test_pocha_tables_hold_four_filled_by_the_nearest_anchors() -> None:
    bots = [Candidate(i, 1500 + 300 * (i % 2)) for i in range(1, 7)]

    tables = tables_pocha(bots, ANCHORS, random.Random(0))

    assert [len(t.seats) for t in tables] == [4, 4]
    assert sorted(b for t in tables for b in t.bots) == [1, 2, 3, 4, 5, 6]
    assert sum(isinstance(s, str) for t in tables for s in t.seats) == 2
