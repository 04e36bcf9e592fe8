"""The ladder listens to games: a finished ladder or validation match queues its bookkeeping."""

from __future__ import annotations

from typing import Any

from games.models import LadderMatch, Match
from tute_site.celery import queue_on_commit


def queue_ladder_match_finished(sender: object, *, match: Match, **kwargs: Any) -> None:
    if LadderMatch.objects.filter(match=match, finished=False).exists():
        # A lost message is caught up by the matchmaker's tick (ladder_matches_settle).
        queue_on_commit("matchmaking.match_finished", match.pk)
