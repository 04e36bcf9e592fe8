"""Celery adapters for ratings."""

from __future__ import annotations

from ratings.services import match_ratings_apply_pending
from tute_site.celery import retried_task


@retried_task(name="ratings.apply_match", soft_time_limit=30, time_limit=60, max_retries=8)
def apply_match_ratings(match_id: int) -> int:
    """Rate a finished match (and any earlier one still waiting); delivered twice, applied once."""
    return match_ratings_apply_pending(match_id=match_id)
