"""Celery adapters for the ladder: take ids, call one service."""

from __future__ import annotations

import logging

from celery import shared_task

from ladder.services import ladder_match_finished, push_turn
from ladder.tick import ladder_tick
from tute_site.celery import retried_task

log = logging.getLogger(__name__)


@retried_task(name="ladder.match_finished", soft_time_limit=20, time_limit=40, max_retries=5)
def ladder_match_finished_task(match_id: int) -> None:
    """Count a finished validation match, free the bots of a finished ladder match; once per match."""
    ladder_match_finished(match_id=match_id)


@shared_task(name="ladder.tick", acks_late=True, soft_time_limit=50, time_limit=60)
def matchmaker_tick() -> int:
    """Periodic (celery beat): start due validation matches, pair the online ladder bots."""
    report = ladder_tick()
    if report.matches or report.validations or report.settled:  # a tick that did nothing says nothing
        log.info(
            "ladder tick: %d matches, %d validation matches, %d settled in %.4f s",
            report.matches,
            report.validations,
            report.settled,
            report.seconds,
        )
    return report.matches


@retried_task(name="games.push_turn", soft_time_limit=30, time_limit=40, max_retries=3)
def push_turn_task(match_id: int, ply: int) -> str | None:
    """POST a push bot's turn to its endpoint and play its answer; a no-op once the match moved on."""
    return push_turn(match_id=match_id, ply=ply)
