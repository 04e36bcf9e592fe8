"""Ratings listens to games: a finished match queues its rating task. No rules here."""

from __future__ import annotations

from typing import Any

from games.models import Match


def queue_match_ratings(sender: object, *, match: Match, **kwargs: Any) -> None:
    from ratings.tasks import apply_match_ratings

    if match.rated:
        apply_match_ratings.delay_on_commit(match.pk)  # type: ignore[attr-defined]
