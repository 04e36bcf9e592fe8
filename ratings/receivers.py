"""Ratings listens to games: a finished match queues its rating task. No rules here."""

from __future__ import annotations

from typing import Any

from django.conf import settings

from games.models import Match
from tute_site.celery import queue_on_commit


def queue_match_ratings(sender: object, *, match: Match, **kwargs: Any) -> None:
    if match.rated:
        # A broker outage must not undo the finish; the rating task's backlog query and
        # ratings_recompute catch up.
        queue_on_commit("ratings.apply_match", match.pk)


def queue_ratings_recompute(sender: object, *, match: Match, **kwargs: Any) -> None:
    """A rated match's result was replaced (a table over the board): every rating after it may change, so
    the history is rated again, each match once (``ratings.recompute``)."""
    if match.rated:
        queue_on_commit("ratings.recompute", queue=settings.TUTE_BACKGROUND_QUEUE)
