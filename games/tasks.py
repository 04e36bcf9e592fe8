"""Celery adapters: take ids, call one service. Idempotent, so a redelivered task is harmless."""

from __future__ import annotations

import logging

from celery import shared_task

from games.services import (
    bot_turn_play,
    house_bot_turns_requeue,
    open_tables_sweep,
    overdue_turns,
    turn_timeout,
)
from games.services.luck import game_luck_compute
from games.services.review import review_compute
from tute_site.celery import retried_task

log = logging.getLogger(__name__)


@retried_task(name="games.bot_play_turn", soft_time_limit=10, time_limit=20, max_retries=5)
def bot_play_turn(match_id: int, ply: int) -> None:
    """Play the house bot's move at ``ply``; a no-op when the match has moved on."""
    bot_turn_play(match_id=match_id, ply=ply)


@shared_task(name="games.sweep_overdue_turns", acks_late=True, soft_time_limit=50, time_limit=60)
def sweep_overdue_turns() -> int:
    """Periodic (celery beat): time out overdue seats and re-queue lost house-bot turns."""
    handled = 0
    for match_id, ply in overdue_turns():
        try:
            turn_timeout(match_id=match_id, ply=ply)
        except Exception:  # one broken match must not stop the sweep of the others
            log.exception("sweeping match %s at ply %s failed", match_id, ply)
        else:
            handled += 1
    if handled:  # every few seconds: a sweep that found nothing says nothing
        log.info("sweep: %d overdue turns played for their seats", handled)
    return handled


@shared_task(name="games.requeue_house_bot_turns", acks_late=True, soft_time_limit=50, time_limit=60)
def requeue_house_bot_turns() -> int:
    """Sent by a worker each time it connects to the broker (tute_site.celery): queue the waiting
    house-bot turns again, those whose task was lost with a worker or a broker restart."""
    return house_bot_turns_requeue()


@shared_task(name="games.game_luck", acks_late=True, soft_time_limit=50, time_limit=60)
def game_luck(game_id: int) -> None:
    """Work out a finished game's luck figure (house bots playing its deal); a no-op once stored."""
    game_luck_compute(game_id=game_id)


@retried_task(name="games.game_review", soft_time_limit=1200, time_limit=1260, max_retries=5)
def game_review(review_id: int) -> None:
    """Work out a game's review for one seat (the background queue); goes on from what is stored."""
    review_compute(review_id=review_id)


@shared_task(name="games.sweep_open_tables", acks_late=True, soft_time_limit=50, time_limit=60)
def sweep_open_tables() -> int:
    """Periodic (celery beat): call off expired open tables and challenges, free abandoned seats."""
    swept = open_tables_sweep()
    if swept.expired or swept.seats_freed:
        log.info("open tables: %d expired, %d seats given up", swept.expired, swept.seats_freed)
    return swept.expired + swept.seats_freed
