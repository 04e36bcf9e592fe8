"""The ladder listens to games: a finished ladder or validation match queues its bookkeeping."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from games.models import LadderMatch, Match


def queue_ladder_match_finished(sender: object, *, match: Match, **kwargs: Any) -> None:
    from matchmaking.tasks import ladder_match_finished_task

    if LadderMatch.objects.filter(match=match, finished=False).exists():
        # Robust: a lost message is caught up by the matchmaker's tick (ladder_matches_settle).
        transaction.on_commit(lambda: ladder_match_finished_task.delay(match.pk), robust=True)
