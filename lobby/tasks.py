"""Celery adapters: take ids, call one service. Idempotent, so a redelivered task is harmless."""

from __future__ import annotations

from celery import shared_task

from lobby.services import seeks_pair


@shared_task(name="lobby.pair_seeks", acks_late=True, soft_time_limit=50, time_limit=60)
def pair_seeks() -> int:
    """Periodic (celery beat) and after each new seek: seat the tables the waiting seeks make."""
    return len(seeks_pair().matches)
