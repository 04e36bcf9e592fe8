"""The tournaments' Celery tasks: named, late-acknowledged, and the sweeper on celery beat's schedule."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from django.conf import settings

from games.models import Player
from games.services import match_resign
from tests.tournaments.conftest import entrants_in, playing, refreshed
from tournaments import tasks
from tournaments.models import Entrant, Round, Tournament
from tournaments.services import match_result_record, tournament_advance, tournament_start, tournaments_sweep
from tournaments.services.rounds import MAX_COUNTDOWN
from tute_site.celery import app
from tute_site.celery import app as celery_app


@pytest.mark.parametrize("name", ["tournaments.record_result", "tournaments.advance", "tournaments.sweep"])
def test_the_tasks_are_registered_by_name_and_acknowledged_late(name: str) -> None:
    app.loader.import_default_modules()
    task = app.tasks[name]
    assert task.acks_late is True
    assert task.name == name


def test_the_sweeper_runs_on_celery_beat() -> None:
    entry = next(e for e in settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == "tournaments.sweep")
    assert entry["schedule"] == settings.TUTE_TOURNAMENT_SWEEP_SECONDS > 0
    assert entry["options"]["expires"] >= entry["schedule"]


@pytest.mark.django_db
def test_the_sweep_task_records_a_lost_result_once(
    make_tournament: Callable[..., Tournament], enter: Callable[..., list[Entrant]], organiser: Player
) -> None:
    # given: a finished match whose record_result task never came
    t = make_tournament()
    _, loser = enter(t, 2)
    tournament_start(tournament_id=t.pk, by=organiser)
    (tm,) = playing(t)
    assert tm.match is not None and loser.player is not None
    match_resign(match_id=tm.match.pk, player=loser.player)

    # when / then: the beat task records it (and ends the tournament); the next sweep has nothing to do
    assert tasks.sweep() >= 1
    assert refreshed(t).status == "finished"
    assert tasks.sweep() == 0


# -- a round due at T is queued for T (issue 17) --------------------------------------------------------


def decide_round_one(t: Tournament) -> None:
    for tm in playing(t, 1):
        assert tm.match is not None
        loser = entrants_in(tm)[1]
        assert loser.player is not None
        match_resign(match_id=tm.match.pk, player=loser.player)
        match_result_record(match_id=tm.match.pk)


@pytest.mark.django_db
@pytest.mark.parametrize(("minutes", "countdown"), [(1, timedelta(minutes=1)), (30, MAX_COUNTDOWN)])
def test_a_complete_round_queues_the_next_one_for_when_it_is_due(
    make_tournament: Callable[..., Tournament],
    enter: Callable[..., list[Entrant]],
    organiser: Player,
    django_capture_on_commit_callbacks: Any,
    minutes: int,
    countdown: timedelta,
) -> None:
    # given: a Swiss of four with rounds at least `minutes` apart; round 1 started now
    t = make_tournament(format="swiss", swiss_rounds=2, round_interval_minutes=minutes)
    enter(t, 4)
    tournament_start(tournament_id=t.pk, by=organiser)
    started = Round.objects.get(tournament=t, number=1).started_at

    # when: its last result completes round 1
    with (
        mock.patch.object(celery_app, "send_task") as send,
        django_capture_on_commit_callbacks(execute=True),
    ):
        decide_round_one(refreshed(t))

    # then: the advance task is queued with an ETA: the due time, or at most MAX_COUNTDOWN ahead
    (kwargs,) = [c.kwargs for c in send.call_args_list if c.args == ("tournaments.advance",)]
    assert kwargs["args"] == (t.pk, 1) and kwargs["eta"] is not None
    assert (
        started + countdown - timedelta(seconds=5)
        <= kwargs["eta"]
        <= started + countdown + timedelta(seconds=5)
    )


@pytest.mark.django_db
def test_an_early_advance_queues_itself_again_and_the_sweeper_does_not(
    make_tournament: Callable[..., Tournament],
    enter: Callable[..., list[Entrant]],
    organiser: Player,
    django_capture_on_commit_callbacks: Any,
) -> None:
    # given: round 1 complete, round 2 due in 20 minutes
    t = make_tournament(format="swiss", swiss_rounds=2, round_interval_minutes=20)
    enter(t, 4)
    tournament_start(tournament_id=t.pk, by=organiser)
    decide_round_one(refreshed(t))
    due = Round.objects.get(tournament=t, number=1).started_at + timedelta(minutes=20)
    at = due - timedelta(minutes=2)

    # when: the task runs 2 minutes early; then the sweeper looks
    with (
        mock.patch.object(celery_app, "send_task") as send,
        django_capture_on_commit_callbacks(execute=True),
    ):
        assert tournament_advance(tournament_id=t.pk, after_round=1, now=at) is None
        tournaments_sweep(now=at)

    # then: one new message, for the due time; the sweep queued nothing
    assert [c.kwargs["eta"] for c in send.call_args_list if c.args == ("tournaments.advance",)] == [due]

    # when: it runs at the due time
    assert tournament_advance(tournament_id=t.pk, after_round=1, now=due) is not None
    assert refreshed(t).current_round == 2
