"""The rating task (``ratings.apply_match``): queued after the finishing transaction commits, applied
exactly once however often it is delivered, in finishing order whatever order it arrives in.

The last test runs a real Celery worker on PostgreSQL and Redis (skipped without them, failed under
TUTE_REQUIRE_SERVICES=1), as house style asks of end-to-end paths.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from typing import Any
from unittest import mock

import pytest
from django.db import IntegrityError, OperationalError, transaction
from django.utils import timezone

from games.models import Match, Player
from games.services import SeatSpec, challenge_accept, match_abort, match_create, match_resign, match_spec
from games.signals import match_finished
from ratings.models import Pool, Rating, RatingChange
from ratings.services import match_ratings_apply, ratings_recompute
from ratings.services import matches as services
from ratings.tasks import apply_match_ratings
from tests.workers import (
    TEST_BROKER_DB,
    broker_backlog,
    broker_url_for_tests,
    wait_for,
    worker_running,
)
from tute_site.celery import app as celery_app

#: This process's broker for real workers (flushed before the module's worker starts).
RATINGS_BROKER_DB = TEST_BROKER_DB


def rows(match: Match) -> list[tuple[str, str, float, float]]:
    return sorted(RatingChange.objects.filter(match=match).values_list("pool", "subject", "before", "after"))


@pytest.fixture
def queued() -> Iterator[mock.MagicMock]:
    """The rating task's sends (called with its arguments), stubbed: what reached the broker, if anything."""
    apply = mock.MagicMock()

    def send_task(name: str, args: Any = (), kwargs: Any = None, **options: Any) -> None:
        if name == "ratings.apply_match":
            apply(*args)

    with mock.patch.object(celery_app, "send_task", side_effect=send_task):
        yield apply


# -- delivered twice, applied once ----------------------------------------------------------------------


@pytest.mark.django_db
def test_a_task_delivered_twice_applies_the_match_once(
    players: Callable[[int], list[Player]],
    resigned_match: Callable[..., Match],
    rating: Callable[..., Rating],
) -> None:
    # given: a finished Tute 4 match of four players (four individual and two pair ratings)
    p = players(4)
    match = resigned_match("tute4", p, loser=1)

    # when: the broker delivers its task twice
    first = apply_match_ratings(match.pk)
    once = rows(match)
    second = apply_match_ratings(match.pk)

    # then: applied by the first delivery only; one change per competitor; ratings moved once
    assert (first, second) == (6, 0)
    assert rows(match) == once and len(once) == 6
    assert [rating(Pool.TUTE4, x).rating for x in p] == [1520.0, 1480.0, 1520.0, 1480.0]
    assert {r.rated_matches for r in Rating.objects.all()} == {1}


@pytest.mark.django_db
def test_the_service_called_twice_applies_the_match_once(
    players: Callable[[int], list[Player]],
    resigned_match: Callable[..., Match],
    rating: Callable[..., Rating],
) -> None:
    # given
    p = players(3)
    match = resigned_match("pocha", p, loser=2, options={"pocha_sequence": [1]})

    # when
    results = [match_ratings_apply(match_id=match.pk) for _ in range(2)]

    # then
    assert results == [3, 0]
    assert RatingChange.objects.filter(match=match).count() == 3
    assert [rating(Pool.POCHA, x).rated_matches for x in p] == [1, 1, 1]
    assert rating(Pool.POCHA, p[2]).rating == -20.0 + 1500


@pytest.mark.django_db
def test_a_late_task_applies_the_earlier_matches_first(
    players: Callable[[int], list[Player]], resigned_match: Callable[..., Match]
) -> None:
    # given: three matches of the same players finish one after the other, none rated yet
    a, b = players(2)
    first = resigned_match("tute2", [a, b], loser=1)
    second = resigned_match("tute2", [a, b], loser=1)
    third = resigned_match("tute2", [a, b], loser=0)

    # when: the second match's task runs first, then the third's, then the first's
    applied = [apply_match_ratings(second.pk), apply_match_ratings(third.pk), apply_match_ratings(first.pk)]

    # then: the second's task rated the first and the second, in that order; the first's had nothing to do
    assert applied == [4, 2, 0]
    chain = list(RatingChange.objects.filter(subject=f"player:{a.pk}").order_by("played_at"))
    assert [c.match_id for c in chain] == [first.pk, second.pk, third.pk]
    assert [c.before for c in chain[1:]] == [c.after for c in chain[:-1]]
    # and: the same as rating the history from scratch
    incremental = sorted(RatingChange.objects.values_list("match_id", "subject", "before", "after"))
    ratings_recompute()
    assert sorted(RatingChange.objects.values_list("match_id", "subject", "before", "after")) == incremental


@pytest.mark.django_db
def test_a_match_that_fails_to_rate_does_not_hold_up_the_later_ones(
    players: Callable[[int], list[Player]],
    resigned_match: Callable[..., Match],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # given: two matches; rating the earlier one fails for good (bad data: an IntegrityError, as two
    # house bots of one level once caused, see test_services.py)
    a, b, c, d = players(4)
    stuck = resigned_match("tute2", [a, b], loser=1)
    later = resigned_match("tute2", [c, d], loser=1)
    apply = services.match_ratings_apply

    def broken(*, match_id: int) -> int:
        if match_id == stuck.pk:
            raise IntegrityError("duplicate key value violates unique constraint")
        return apply(match_id=match_id)

    monkeypatch.setattr(services, "match_ratings_apply", broken)

    # when: the later match's task runs (it first tries the earlier unrated match)
    applied = apply_match_ratings(later.pk)

    # then: the later match is rated all the same
    assert applied == 2
    assert RatingChange.objects.filter(match=later).count() == 2
    assert not RatingChange.objects.filter(match=stuck).exists()


@pytest.mark.django_db
def test_a_transient_database_error_on_an_earlier_match_retries_the_task_rather_than_skip_it(
    players: Callable[[int], list[Player]],
    resigned_match: Callable[..., Match],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # given: two matches of the same players, neither rated yet
    a, b = players(2)
    first = resigned_match("tute2", [a, b], loser=1)
    second = resigned_match("tute2", [a, b], loser=0)
    # and: rating the first one meets a transient database error (a lock timeout, a dropped connection)
    apply = services.match_ratings_apply

    def flaky(*, match_id: int) -> int:
        if match_id == first.pk:
            raise OperationalError("canceling statement due to lock timeout")
        return apply(match_id=match_id)

    monkeypatch.setattr(services, "match_ratings_apply", flaky)

    # when: the second match's task runs (called directly, Celery's autoretry re-raises the error)
    with pytest.raises(OperationalError):
        apply_match_ratings(second.pk)

    # then: the second match waits for the retry; rated now, it would come before the first
    assert not RatingChange.objects.filter(match=second).exists()


# -- how far back the backlog looks ---------------------------------------------------------------------


def finished_at(match: Match, when: datetime) -> Match:
    """The match as if it had finished at ``when``."""
    Match.objects.filter(pk=match.pk).update(finished_at=when)
    match.refresh_from_db()
    return match


@pytest.mark.django_db
def test_a_lost_task_is_made_good_by_the_next_matchs_task_however_late_it_comes(
    players: Callable[[int], list[Player]], resigned_match: Callable[..., Match]
) -> None:
    # given: a rated match; then another of the same players whose task was lost; then, three days later
    # (a quiet server), a third
    a, b = players(2)
    start = timezone.now() - timedelta(days=4)
    rated = finished_at(resigned_match("tute2", [a, b], loser=1), start)
    apply_match_ratings(rated.pk)
    lost = finished_at(resigned_match("tute2", [a, b], loser=1), start + timedelta(hours=1))
    late = finished_at(resigned_match("tute2", [a, b], loser=0), start + timedelta(days=3))

    # when: the third match's task runs
    applied = apply_match_ratings(late.pk)

    # then: the lost one was rated first, then the third: the finishing order
    assert applied == 4
    chain = list(RatingChange.objects.filter(subject=f"player:{a.pk}").order_by("id"))
    assert [c.match_id for c in chain] == [rated.pk, lost.pk, late.pk]
    assert [c.before for c in chain[1:]] == [c.after for c in chain[:-1]]


@pytest.mark.django_db
def test_a_match_that_committed_after_a_later_one_was_rated_is_still_picked_up(
    players: Callable[[int], list[Player]], resigned_match: Callable[..., Match]
) -> None:
    # given: match B is rated; match A finished 30 s before B but committed after B's task ran, and its
    # own task was lost
    a, b, c, d = players(4)
    start = timezone.now() - timedelta(hours=2)
    later = finished_at(resigned_match("tute2", [c, d], loser=1), start)
    apply_match_ratings(later.pk)
    earlier = finished_at(resigned_match("tute2", [a, b], loser=1), start - timedelta(seconds=30))
    assert timedelta(seconds=30) < services.BACKLOG_SLACK
    # and: an hour later, another match finishes
    last = finished_at(resigned_match("tute2", [a, c], loser=1), start + timedelta(hours=1))

    # when: its task runs
    applied = apply_match_ratings(last.pk)

    # then: A, within the slack before the latest rated match, was rated first
    assert applied == 4
    assert RatingChange.objects.filter(match=earlier).count() == 2


@pytest.mark.django_db
def test_a_match_that_fails_for_good_is_retried_only_within_the_slack_of_the_latest_rated_one(
    players: Callable[[int], list[Player]],
    resigned_match: Callable[..., Match],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # given: three matches, each finished more than the slack after the one before; rating the first
    # always fails (bad data)
    p = players(6)
    start = timezone.now() - timedelta(days=1)
    gap = 2 * services.BACKLOG_SLACK
    stuck = finished_at(resigned_match("tute2", p[0:2], loser=1), start)
    second = finished_at(resigned_match("tute2", p[2:4], loser=1), start + gap)
    third = finished_at(resigned_match("tute2", p[4:6], loser=1), start + 2 * gap)
    apply = services.match_ratings_apply
    tried: list[int] = []

    def broken(*, match_id: int) -> int:
        tried.append(match_id)
        if match_id == stuck.pk:
            raise IntegrityError("duplicate key value violates unique constraint")
        return apply(match_id=match_id)

    monkeypatch.setattr(services, "match_ratings_apply", broken)

    # when: the second match's task runs, then the third's
    apply_match_ratings(second.pk)
    apply_match_ratings(third.pk)

    # then: the second's task tried the stuck match first; the third's, which finished long after the
    # second was rated, did not look back that far (the recompute is what rates such a match)
    assert tried == [stuck.pk, second.pk, third.pk]
    assert RatingChange.objects.filter(match__in=[second, third]).count() == 4
    assert not RatingChange.objects.filter(match=stuck).exists()


def test_the_task_is_named_bounded_and_retried_on_database_errors() -> None:
    task = apply_match_ratings._get_current_object()  # type: ignore[attr-defined]
    assert task.name == "ratings.apply_match"
    assert task.acks_late is True
    assert OperationalError in task.autoretry_for
    assert task.soft_time_limit and task.time_limit and task.max_retries


# -- queued after commit --------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_task_is_queued_only_after_the_finishing_transaction_commits(
    players: Callable[[int], list[Player]],
    started_match: Callable[..., Match],
    queued: mock.MagicMock,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    # given: a match in progress
    a, b = players(2)
    match = started_match("tute2", [a, b])

    # when: a player resigns; the games service sends match_finished on commit
    with django_capture_on_commit_callbacks(execute=True):
        match_resign(match_id=match.pk, player=b)
        # then: nothing is queued while the transaction is open
        assert not queued.called

    # then: once it commits, one task for the match
    queued.assert_called_once_with(match.pk)
    assert not RatingChange.objects.exists(), "the task, not the signal, applies the ratings"


@pytest.mark.django_db
def test_the_receiver_defers_the_task_to_the_commit_of_an_open_transaction(
    players: Callable[[int], list[Player]],
    resigned_match: Callable[..., Match],
    queued: mock.MagicMock,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    # given: a finished match
    match = resigned_match("tute2", players(2), loser=0)

    # when: match_finished reaches the receiver inside a transaction (a sender that does not wait for
    # its commit, say)
    with django_capture_on_commit_callbacks(execute=True):
        with transaction.atomic():
            match_finished.send(sender=Match, match=match)
        # then: not queued while the outermost transaction is open
        assert not queued.called

    # then: queued at its commit
    queued.assert_called_once_with(match.pk)


@pytest.mark.django_db
def test_an_unrated_or_aborted_match_queues_no_task(
    players: Callable[[int], list[Player]],
    started_match: Callable[..., Match],
    queued: mock.MagicMock,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    # given: an unrated match and a rated one
    a, b, c, d = players(4)
    unrated = started_match("tute2", [a, b], rated=False)
    rated = started_match("tute2", [c, d])

    # when: the unrated one finishes and the other is aborted
    with django_capture_on_commit_callbacks(execute=True):
        match_resign(match_id=unrated.pk, player=a)
        match_abort(match_id=rated.pk, by=c)

    # then
    assert not queued.called


# -- a real worker --------------------------------------------------------------------------------------


@pytest.fixture
def ratings_worker(postgres_required: None, redis_url: str, transactional_db: None) -> Iterator[str]:
    """A real Celery worker on the test database and a Redis database of its own; yields the broker URL."""
    broker = broker_url_for_tests(redis_url, RATINGS_BROKER_DB)
    with worker_running(broker, drain_timeout=20.0):
        yield broker


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_rates_a_match_once_after_it_finishes(
    ratings_worker: str, players: Callable[[int], list[Player]]
) -> None:
    # given: two players start a Tute 2 match (committed)
    a, b = players(2)
    match = match_create(
        spec=match_spec(
            created_by=a, game="tute2", seats=[SeatSpec(player=a.handle), SeatSpec(player=b.handle)]
        )
    )
    challenge_accept(match_id=match.pk, player=b)

    # when: one resigns; the commit sends match_finished, which queues the task to the worker
    match_resign(match_id=match.pk, player=b)

    # then: the worker applies it
    wait_for(
        "the worker to rate the match",
        lambda: RatingChange.objects.filter(match=match).count() == 2,
        timeout=30,
    )
    assert Rating.objects.get(pool=Pool.TUTE2, player=a).rating == 1520.0
    # and: a second delivery of the same task changes nothing
    apply_match_ratings.delay(match.pk)
    wait_for("the broker to drain", lambda: broker_backlog(ratings_worker) == (0, 0), timeout=20)
    assert RatingChange.objects.filter(match=match).count() == 2
    assert Rating.objects.get(pool=Pool.TUTE2, player=a).rated_matches == 1
