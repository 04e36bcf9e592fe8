"""Celery adapters: take ids, call one service. Idempotent, so a redelivered task is harmless."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from games.services import bot_turn_play


@shared_task(
    name="games.bot_play_turn",
    acks_late=True,
    soft_time_limit=10,
    time_limit=20,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=5,
)
def bot_play_turn(match_id: int, ply: int) -> None:
    """Play the house bot's move at ``ply``; a no-op when the match has moved on."""
    bot_turn_play(match_id=match_id, ply=ply)
