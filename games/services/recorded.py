"""Matches played away from the site, with real cards at a club's table (a tournament over the board):
recorded finished from their entered results, so that ratings count them as any match; no deals, no
actions, nothing to replay."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from games.engine import RULES_VERSION
from games.models import Game, Match, Seat
from games.services.specs import MatchSpec
from games.signals import match_finished, match_result_changed


@transaction.atomic
def match_record(*, spec: MatchSpec, games: list[dict[str, Any]], result: dict[str, Any]) -> Match:
    """A finished match of ``spec``'s seats (checked by ``match_spec``, with ``managed``) with its games'
    results (``scores`` and ``winners`` per side, as the engine's) and its result (``games_won``,
    ``winners``); rated on commit like any finished match (``match_finished``)."""
    now = timezone.now()
    rules = spec.rules
    match = Match.objects.create(
        game=rules.game,
        num_players=rules.players,
        options=rules.to_options(),
        rules_version=RULES_VERSION,
        format=spec.format,
        format_target=spec.format_target,
        rated=spec.rated,
        managed=spec.managed,
        created_by_id=spec.created_by.user_id,
        status=Match.Status.FINISHED,
        started_at=now,
        finished_at=now,
        result=result,
        finish_reason="completed",
        over_the_board=True,
    )
    Seat.objects.bulk_create(
        [
            Seat(match=match, index=i, player=plan.player, bot_level=plan.bot_level, accepted=True)
            for i, plan in enumerate(spec.seats)
        ]
    )
    _games_create(match, games)
    transaction.on_commit(lambda: match_finished.send(sender=Match, match=match))
    return match


@transaction.atomic
def match_record_change(*, match_id: int, games: list[dict[str, Any]], result: dict[str, Any]) -> Match:
    """The entered result of a match played over the board, replaced (an organiser's change); ratings
    hear of it on commit (``match_result_changed``) and recompute."""
    match = Match.objects.select_for_update().get(pk=match_id, over_the_board=True)
    match.result = result
    match.save(update_fields=["result"])
    match.games.all().delete()
    _games_create(match, games)
    transaction.on_commit(lambda: match_result_changed.send(sender=Match, match=match))
    return match


def _games_create(match: Match, games: list[dict[str, Any]]) -> None:
    now = timezone.now()
    Game.objects.bulk_create(
        [
            Game(
                match=match,
                number=number,
                seed="",
                decks=[],
                dealer=0,
                first_ply=0,
                status=Game.Status.FINISHED,
                result=game,
                finished_at=now,
            )
            for number, game in enumerate(games)
        ]
    )
