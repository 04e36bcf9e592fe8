"""Celery adapters for tournaments: take ids, call one service. Idempotent: a task delivered twice, or
for something already done, does nothing the second time."""

from __future__ import annotations

import logging

from celery import shared_task

from tournaments.services import match_result_record, tournament_advance, tournaments_sweep
from tute_site.celery import retried_task

log = logging.getLogger(__name__)


@retried_task(name="tournaments.record_result", soft_time_limit=30, time_limit=60, max_retries=8)
def record_result(match_id: int) -> bool:
    """Record a finished games match in its tournament; True when this delivery recorded it."""
    return match_result_record(match_id=match_id) is not None


@retried_task(name="tournaments.advance", soft_time_limit=60, time_limit=120, max_retries=8)
def advance(tournament_id: int, after_round: int) -> bool:
    """Generate the round after ``after_round`` (or the final standings); True when this delivery did."""
    return tournament_advance(tournament_id=tournament_id, after_round=after_round) is not None


@shared_task(name="tournaments.sweep", acks_late=True, soft_time_limit=50, time_limit=60)
def sweep() -> int:
    """Periodic (celery beat): start due tournaments, record lost results, generate stalled rounds."""
    done = tournaments_sweep()
    if done:  # every half minute: a sweep that found nothing says nothing
        log.info("tournament sweep: %d tournaments started, results recorded or rounds generated", done)
    return done
