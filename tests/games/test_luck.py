"""The luck figure: what a finished game's cards score on average with house bots playing the deal from
every seat, worked out by a task after the game, stored once, served with the record and shown on the
finished match's page ("you scored 72; these cards average 58")."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from rest_framework.test import APIClient

import games.tasks
from games.bots import get_bot
from games.bots.arena import play_game
from games.engine import Rules
from games.models import Game, Match, Player
from games.services.luck import LUCK_PLAYS, game_luck_compute
from tests.factories import PlayerFactory
from tute_site.celery import app

pytestmark = pytest.mark.django_db


def test_finishing_a_game_queues_its_luck_and_the_task_stores_it_once(
    started_match: Callable[..., Match],
    play_random: Callable[..., Match],
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    queued: list[int] = []
    queues: set[str | None] = set()

    def send_task(name: str, args: Any = None, **options: Any) -> None:  # queue_on_commit queues by name
        if name == "games.game_luck":
            queued.append(args[0])
            queues.add(options.get("queue"))

    monkeypatch.setattr(app, "send_task", send_task)
    match = started_match("tute2", format=Match.Format.BEST_OF, games=3)
    with django_capture_on_commit_callbacks(execute=True):
        play_random(match, seed=2)
    games_played = list(Game.objects.filter(match=match).order_by("number"))
    assert queued == [g.pk for g in games_played]
    # on the background queue: a burst of these never holds up house-bot turns, clocks or the ladder
    assert queues == {settings.TUTE_BACKGROUND_QUEUE}
    assert settings.TUTE_BACKGROUND_QUEUE in [q.name for q in settings.CELERY_TASK_QUEUES]
    assert all(g.luck is None for g in games_played)

    # when: the task runs (twice: a redelivery)
    games.tasks.game_luck(queued[0])
    games.tasks.game_luck(queued[0])

    # then: the average over the house bot's plays of the same deal, by side, stored once
    game = Game.objects.get(pk=queued[0])
    rules = Rules.build("tute2")
    bot = get_bot("rule")
    totals = [0, 0]
    for play in range(LUCK_PLAYS):
        state = play_game(
            rules, [bot, bot], seed=game.seed, dealer=game.dealer, rng_seed=f"{game.seed}:luck:{play}"
        )
        result = state.result()
        assert result is not None
        totals = [t + s for t, s in zip(totals, result.scores, strict=True)]
    assert game.luck == {
        "expected": [round(t / LUCK_PLAYS, 1) for t in totals],
        "plays": LUCK_PLAYS,
        "bot": "rule",
    }
    assert game_luck_compute(game_id=game.pk) == game.luck


def test_no_luck_for_a_game_in_progress(started_match: Callable[..., Match]) -> None:
    match = started_match("tute2")
    game = Game.objects.get(match=match)
    assert game_luck_compute(game_id=game.pk) is None
    assert Game.objects.get(pk=game.pk).luck is None


def test_the_record_serves_the_luck(
    started_match: Callable[..., Match], play_random: Callable[..., Match]
) -> None:
    alice: Player = PlayerFactory()
    match = started_match("tute4", seats=[alice, "rule", "random", "rule"])
    match = play_random(match, seed=5)
    game = Game.objects.get(match=match)
    assert game.result is not None
    record = APIClient().get(f"/api/v1/matches/{match.pk}/record/").json()
    assert record["games"][0]["luck"] is None  # not worked out yet
    luck = game_luck_compute(game_id=game.pk)
    assert luck is not None and len(luck["expected"]) == 2
    assert APIClient().get(f"/api/v1/matches/{match.pk}/record/").json()["games"][0]["luck"] == luck
