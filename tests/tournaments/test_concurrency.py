"""Results arriving at the same time, on PostgreSQL with real threads: each is recorded once and a round
is completed (and its next round queued) once, because every writer takes the tournament's row lock."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.db import connection

from games.models import Player
from games.services import match_resign
from tests.tournaments.conftest import entrants_in, playing
from tournaments.models import Entrant, Round, Tournament, TournamentMatch
from tournaments.services import match_result_record, tournament_start
from tute_site.celery import app

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture
def queued(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, tuple[Any, ...]]]:
    """What the services queue after commit, recorded instead of sent (no broker in these tests)."""
    calls: list[tuple[str, tuple[Any, ...]]] = []
    lock = threading.Lock()

    def fake(name: str, args: Any = (), **options: Any) -> None:
        with lock:
            calls.append((name, tuple(args)))

    monkeypatch.setattr(app, "send_task", fake)  # queue_on_commit queues by name through it
    return calls


def finished_round(
    make_tournament: Callable[..., Tournament], enter: Callable, organiser: Player
) -> list[TournamentMatch]:
    """Four players, round 1's two matches both over (resigned by the second seed), nothing recorded."""
    t = make_tournament(rated=False)
    enter(t, 4)
    tournament_start(tournament_id=t.pk, by=organiser)
    tms = playing(t)
    for tm in tms:
        loser = max(entrants_in(tm), key=lambda e: e.seed or 0)
        assert tm.match is not None and loser.player is not None
        match_resign(match_id=tm.match.pk, player=loser.player)
    return tms


def at_once(calls: list[Callable[[], Any]]) -> list[Any]:
    barrier = threading.Barrier(len(calls))

    def run(call: Callable[[], Any]) -> Any:
        barrier.wait()
        try:
            return call()
        finally:
            connection.close()

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(run, calls))


def test_the_last_two_results_of_a_round_complete_it_once(
    postgres_required: None,
    queued: list,
    make_tournament: Callable[..., Tournament],
    enter: Callable[..., list[Entrant]],
    organiser: Player,
) -> None:
    # given: both matches of round 1 finished, their results not recorded yet
    first, second = finished_round(make_tournament, enter, organiser)
    assert first.match is not None and second.match is not None
    queued.clear()

    # when: both results are recorded at the same moment
    a, b = first.match.pk, second.match.pk
    results = at_once([lambda: match_result_record(match_id=a), lambda: match_result_record(match_id=b)])

    # then: both recorded; the round completed once; the next round queued once
    assert all(r is not None for r in results)
    assert Round.objects.get(tournament=first.tournament_id, number=1).status == "complete"
    assert queued == [("tournaments.advance", (first.tournament_id, 1))]


def test_one_result_delivered_twice_at_once_is_recorded_once(
    postgres_required: None,
    queued: list,
    make_tournament: Callable[..., Tournament],
    enter: Callable[..., list[Entrant]],
    organiser: Player,
) -> None:
    first, _ = finished_round(make_tournament, enter, organiser)
    assert first.match is not None
    match_id = first.match.pk

    results = at_once([lambda: match_result_record(match_id=match_id)] * 2)

    assert sum(r is not None for r in results) == 1
    first.refresh_from_db()
    assert first.status == "done" and first.recorded_at is not None
