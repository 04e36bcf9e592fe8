"""Ratings listens to games: a finished match queues its rating task. No rules here."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from games.models import Match


def queue_match_ratings(sender: object, *, match: Match, **kwargs: Any) -> None:
    from ratings.tasks import apply_match_ratings

    if match.rated:
        # Robust: a broker outage must not undo the finish; ratings_recompute can always catch up.
        transaction.on_commit(lambda: apply_match_ratings.delay(match.pk), robust=True)
