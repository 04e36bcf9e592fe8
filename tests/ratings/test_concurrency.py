"""Matches rated at the same moment, on PostgreSQL, with real threads (each its own connection).

Each thread waits at a barrier and then calls the service, as two workers would. The matches are made and
committed first (``transaction=True``), since another connection sees only committed rows. Every wait
is bounded: a deadlock that PostgreSQL detects surfaces as an error in a thread, a hang as a timeout.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from typing import Any

import pytest
from django.db import connection, connections

from games.models import Match, Player
from ratings.models import Pool, RatedMatch, Rating, RatingChange
from ratings.services import match_ratings_apply, ratings_recompute, recompute
from ratings.tasks import apply_match_ratings

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("postgres_required")]

JOIN_SECONDS = 30.0
ROUNDS = 5


def run_together(calls: Sequence[Callable[[], Any]]) -> list[Any]:
    """Run the calls in threads released together by a barrier; their results, or raise the first error."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)
    errors: list[BaseException] = []

    def run(i: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait(timeout=JOIN_SECONDS)
            results[i] = call()
        except BaseException as exc:
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, call), daemon=True) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(JOIN_SECONDS)
    assert not any(t.is_alive() for t in threads), f"a thread was still running after {JOIN_SECONDS} s"
    if errors:
        raise errors[0]
    return results


def state() -> tuple[dict[tuple[str, str], tuple[float, int]], list[tuple[Any, ...]]]:
    ratings = {(r.pool, r.subject): (r.rating, r.rated_matches) for r in Rating.objects.all()}
    changes = sorted(
        RatingChange.objects.values_list("match_id", "pool", "subject", "before", "after", "delta")
    )
    return ratings, changes


def applied_order() -> list[int]:
    """The matches in the order their changes were written."""
    order: list[int] = []
    for match_id in RatingChange.objects.order_by("id").values_list("match_id", flat=True):
        if match_id not in order:
            order.append(match_id)
    return order


def replay_sequentially(order: list[int], givens: Sequence[Rating]) -> None:
    """Forget every rating, restore the givens, and apply the matches one by one in ``order``."""
    RatingChange.objects.all().delete()
    Rating.objects.all().delete()
    RatedMatch.objects.all().delete()
    for given in givens:
        given.pk = None
        given.save(force_insert=True)
    for match_id in order:
        match_ratings_apply(match_id=match_id)


# -- two matches of one player --------------------------------------------------------------------------


@pytest.mark.parametrize("already_rated", [True, False], ids=["existing-ratings", "new-ratings"])
def test_two_matches_of_one_player_rated_together_lose_no_update(
    already_rated: bool,
    players: Callable[[int], list[Player]],
    given_rating: Callable[..., Rating],
    resigned_match: Callable[..., Match],
) -> None:
    # given: P plays Q and R at Tute 2 at the same time, round after round; both matches finish
    p, q, r = players(3)
    givens = (
        [given_rating(Pool.TUTE2, x, rating, 12) for x, rating in ((p, 1600.0), (q, 1550.0), (r, 1450.0))]
        if already_rated
        else []
    )
    played: list[Match] = []
    for round_ in range(ROUNDS):
        pair = (
            resigned_match("tute2", [p, q], loser=round_ % 2),
            resigned_match("tute2", [r, p], loser=0),
        )
        played.extend(pair)

        # when: each match is rated by its own thread at the same moment
        results = run_together([partial(match_ratings_apply, match_id=m.pk) for m in pair])

        # then: both applied, P's rating row went through both
        assert results == [2, 2]
    concurrent = state()
    assert (
        Rating.objects.get(pool=Pool.TUTE2, player=p).rated_matches
        == (12 if already_rated else 0) + 2 * ROUNDS
    )
    chain = list(RatingChange.objects.filter(subject=f"player:{p.pk}").order_by("id"))
    assert [c.before for c in chain[1:]] == [c.after for c in chain[:-1]], (
        "each change starts where one ended"
    )

    # then: the result is the sequential one, match by match in the order they were applied
    replay_sequentially(applied_order(), givens)
    assert state() == concurrent


def test_tasks_of_two_matches_of_one_player_together_give_the_finishing_order_result(
    players: Callable[[int], list[Player]], resigned_match: Callable[..., Match]
) -> None:
    # given: P's two matches finish one after the other, in every round
    p, q, r = players(3)
    for round_ in range(ROUNDS):
        first = resigned_match("tute2", [p, q], loser=round_ % 2)
        second = resigned_match("tute2", [r, p], loser=1)

        # when: their tasks run at the same moment, the later one's maybe first
        results = run_together([partial(apply_match_ratings, m.pk) for m in (second, first)])

        # then: four changes in all, each match once
        assert sum(results) == 4
        assert RatingChange.objects.filter(match__in=[first, second]).count() == 4
    concurrent = state()

    # then: what the recompute (finishing order) writes
    ratings_recompute()
    assert state() == concurrent


# -- the same match twice -------------------------------------------------------------------------------


@pytest.mark.parametrize("already_rated", [True, False], ids=["existing-ratings", "new-ratings"])
def test_the_same_match_rated_by_two_threads_at_once_is_applied_once(
    already_rated: bool,
    players: Callable[[int], list[Player]],
    given_rating: Callable[..., Rating],
    resigned_match: Callable[..., Match],
) -> None:
    for round_ in range(ROUNDS):
        # given: a finished Tute 4 match of four players (six ratings: four players, two pairs)
        p = players(4)
        if already_rated:
            for x in p:
                given_rating(Pool.TUTE4, x, 1500.0, 3)
        match = resigned_match("tute4", p, loser=round_ % 4)

        # when: two deliveries of its task run at once
        results = run_together([partial(match_ratings_apply, match_id=match.pk)] * 2)

        # then: one applied it, the other found it done; every rating moved once
        assert sorted(results) == [0, 6]
        assert RatingChange.objects.filter(match=match).count() == 6
        assert {
            r.rated_matches - (3 if already_rated and r.pool == Pool.TUTE4 else 0)
            for r in Rating.objects.filter(changes__match=match)
        } == {1}


# -- rows created in one order --------------------------------------------------------------------------


@pytest.fixture
def slow_rating_inserts() -> Iterator[None]:
    """Each new rating row takes 20 ms to insert (a BEFORE INSERT trigger sleeps), so that two services
    inserting rows at once are sure to be mid-statement together, not just once in a while."""
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE FUNCTION test_slow_insert() RETURNS trigger LANGUAGE plpgsql AS "
            "$$ BEGIN PERFORM pg_sleep(0.02); RETURN NEW; END $$"
        )
        cursor.execute(
            "CREATE TRIGGER test_slow_insert BEFORE INSERT ON ratings_rating "
            "FOR EACH ROW EXECUTE FUNCTION test_slow_insert()"
        )
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("DROP TRIGGER IF EXISTS test_slow_insert ON ratings_rating")
            cursor.execute("DROP FUNCTION IF EXISTS test_slow_insert()")


def test_new_players_in_reversed_seats_rated_together_do_not_deadlock(
    players: Callable[[int], list[Player]], resigned_match: Callable[..., Match], slow_rating_inserts: None
) -> None:
    """Six new players in two Pocha matches, seated in opposite orders: both services insert the same six
    new rating rows at once. Inserted in one fixed order, one service waits behind the other; inserted
    in seat order, each holds rows the other waits for, and PostgreSQL aborts one ("deadlock detected").
    """
    # given: two finished matches of the same six new players, seated in opposite orders
    six = players(6)
    forward = resigned_match("pocha", six, loser=0, options={"pocha_sequence": [1]})
    backward = resigned_match("pocha", six[::-1], loser=0, options={"pocha_sequence": [1]})

    # when: both are rated at the same moment
    results = run_together([partial(match_ratings_apply, match_id=m.pk) for m in (forward, backward)])

    # then: both applied, no deadlock
    assert results == [6, 6]
    assert {r.rated_matches for r in Rating.objects.filter(pool=Pool.POCHA)} == {2}


# -- a recompute and an update at once ------------------------------------------------------------------


def in_thread(call: Callable[[], Any], results: list[Any], errors: list[BaseException]) -> threading.Thread:
    def run() -> None:
        try:
            results.append(call())
        except BaseException as exc:
            errors.append(exc)
        finally:
            connections.close_all()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def a_backend_waits_for_a_lock() -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND wait_event_type = 'Lock'"
        )
        row = cursor.fetchone()
    return bool(row and row[0])


def test_a_match_rated_while_a_recompute_runs_is_applied_after_it_on_top(
    players: Callable[[int], list[Player]],
    resigned_match: Callable[..., Match],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # given: P and Q have a rated history
    p, q, r = players(3)
    for loser in (0, 1, 1):
        match_ratings_apply(match_id=resigned_match("tute2", [p, q], loser=loser).pk)
    # and: a recompute that pauses once it has read and rated that history, before it writes
    has_read, go_on = threading.Event(), threading.Event()
    rate_history = recompute._rate_history

    def pausing() -> Any:
        rated = rate_history()
        has_read.set()
        assert go_on.wait(JOIN_SECONDS)
        return rated

    monkeypatch.setattr(recompute, "_rate_history", pausing)
    results: list[Any] = []
    errors: list[BaseException] = []
    recomputing = in_thread(ratings_recompute, results, errors)
    assert has_read.wait(JOIN_SECONDS)

    # when: a match of P (and a newcomer R) finishes now, which the recompute did not read, and is rated
    late = resigned_match("tute2", [p, r], loser=1)
    rating = in_thread(partial(match_ratings_apply, match_id=late.pk), results, errors)
    try:
        deadline = time.monotonic() + JOIN_SECONDS
        while rating.is_alive() and not a_backend_waits_for_a_lock() and time.monotonic() < deadline:
            time.sleep(0.01)
        # then: the update waits for the recompute, rather than write rows the recompute would delete
        assert rating.is_alive(), "the update did not wait for the recompute"
    finally:
        go_on.set()
    for thread in (recomputing, rating):
        thread.join(JOIN_SECONDS)
    assert not errors, errors
    assert sorted(results, key=str) == [(3, 6), 2]

    # then: the late match applied on top of the rebuilt ratings: what a recompute of all four writes
    concurrent = state()
    assert RatingChange.objects.filter(match=late).count() == 2
    monkeypatch.setattr(recompute, "_rate_history", rate_history)
    ratings_recompute()
    assert state() == concurrent
