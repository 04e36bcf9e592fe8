"""The tournaments' Celery tasks: named, late-acknowledged, and the sweeper on celery beat's schedule."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.conf import settings

from games.models import Player
from games.services import match_resign
from tests.tournaments.conftest import playing, refreshed
from tournaments import tasks
from tournaments.models import Entrant, Tournament
from tournaments.services import tournament_start
from tute_site.celery import app


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
