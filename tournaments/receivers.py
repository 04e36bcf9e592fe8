"""Tournaments listen to games: a finished tournament match queues the task that records it."""

from __future__ import annotations

from typing import Any

from games.models import Match
from tournaments.models import TournamentMatch
from tute_site.celery import queue_on_commit


def queue_tournament_result(sender: object, *, match: Match, **kwargs: Any) -> None:
    if TournamentMatch.objects.filter(match_id=match.pk).exists():
        queue_on_commit("tournaments.record_result", match.pk)
