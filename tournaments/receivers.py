"""Tournaments listen to games: a finished tournament match queues the task that records it."""

from __future__ import annotations

from typing import Any

from games.models import Match
from tournaments.models import TournamentMatch
from tournaments.services.common import queue


def queue_tournament_result(sender: object, *, match: Match, **kwargs: Any) -> None:
    from tournaments.tasks import record_result

    if TournamentMatch.objects.filter(match_id=match.pk).exists():
        queue(record_result, match.pk)
