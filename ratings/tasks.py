"""Celery adapters for ratings."""

from __future__ import annotations

from ratings.services import match_ratings_apply_pending, ratings_recompute
from tute_site.celery import retried_task


@retried_task(name="ratings.apply_match", soft_time_limit=30, time_limit=60, max_retries=8)
def apply_match_ratings(match_id: int) -> int:
    """Rate a finished match (and any earlier one still waiting); delivered twice, applied once."""
    return match_ratings_apply_pending(match_id=match_id)


@retried_task(name="ratings.recompute", soft_time_limit=600, time_limit=900, max_retries=3)
def recompute_ratings() -> int:
    """Rate the whole history again (a changed result); a redelivery only rebuilds the same ratings."""
    return ratings_recompute()[0]
