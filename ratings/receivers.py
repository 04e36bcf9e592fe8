"""Ratings listens to games: a finished match queues its rating task. No rules here."""

from __future__ import annotations

from typing import Any

from games.models import Match
from tute_site.celery import queue_on_commit


def queue_match_ratings(sender: object, *, match: Match, **kwargs: Any) -> None:
    if match.rated:
        # A broker outage must not undo the finish; the rating task's backlog query and
        # ratings_recompute catch up.
        queue_on_commit("ratings.apply_match", match.pk)
