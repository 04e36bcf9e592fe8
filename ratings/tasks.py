"""Celery adapters for ratings."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from ratings.services import match_ratings_apply_pending


@shared_task(
    name="ratings.apply_match",
    acks_late=True,
    soft_time_limit=30,
    time_limit=60,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=8,
)
def apply_match_ratings(match_id: int) -> int:
    """Rate a finished match (and any earlier one still waiting); delivered twice, applied once."""
    return match_ratings_apply_pending(match_id=match_id)
