"""Results reported by the players of a table over the board (``self_report``): one player reports it
from their phone, a player of another position confirms it, and it counts as if the organiser had
entered it; one who disagrees disputes it, and it waits for the organiser (``result_enter``)."""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.models import Player
from tournaments.errors import NoReportWaiting, NotAtTable, SelfReportOff, WrongStatus
from tournaments.models import Entrant, ResultReport, Tournament, TournamentMatch
from tournaments.services.common import lock_tournament
from tournaments.services.results import open_table, record_entry, score_entry

log = logging.getLogger(__name__)


def _position(order: list[Entrant], player: Player) -> int:
    for position, entrant in enumerate(order):
        if player.pk in (entrant.player_id, entrant.partner_id):
            return position
    raise NotAtTable()


def _players_table(
    tournament_id: int, tournament_match_id: int, player: Player
) -> tuple[Tournament, TournamentMatch, list[Entrant], int]:
    tournament = lock_tournament(tournament_id)
    if not tournament.self_report:
        raise SelfReportOff()
    tm, order = open_table(tournament, tournament_match_id)
    return tournament, tm, order, _position(order, player)


@transaction.atomic
def result_report(
    *, tournament_id: int, tournament_match_id: int, by: Player, entered: dict[str, Any]
) -> ResultReport:
    """A player of the table reports its result (checked as the organiser's entry is); it waits for a
    player of another position. A later report replaces one still waiting."""
    tournament, tm, order, position = _players_table(tournament_id, tournament_match_id, by)
    if tm.status == TournamentMatch.Status.DONE:
        raise WrongStatus("This table has its result: ask the organiser to change it.")
    score_entry(tournament, len(order), entered)  # refused now, not when the other side answers
    ResultReport.objects.filter(tournament_match=tm, status=ResultReport.Status.PENDING).update(
        status=ResultReport.Status.SUPERSEDED
    )
    report = ResultReport.objects.create(tournament_match=tm, by=by, position=position, entered=entered)
    log.info("tournament %s: table %s result reported by %s", tournament.pk, tm.board, by.handle)
    return report


@transaction.atomic
def result_confirm(*, tournament_id: int, tournament_match_id: int, by: Player, agree: bool) -> ResultReport:
    """A player of another position than the reporter's answers the report waiting: agreeing records
    it as the table's result (logged as the reporter's entry); disagreeing disputes it for the organiser."""
    tournament, tm, order, position = _players_table(tournament_id, tournament_match_id, by)
    report = ResultReport.objects.filter(tournament_match=tm, status=ResultReport.Status.PENDING).first()
    if report is None:
        raise NoReportWaiting()
    if position == report.position:
        raise NotAtTable("The other side confirms a report: not the reporter's own side.")
    report.status = ResultReport.Status.CONFIRMED if agree else ResultReport.Status.DISPUTED
    report.answered_by, report.answered_at = by, timezone.now()
    report.save(update_fields=["status", "answered_by", "answered_at"])
    if agree:
        record_entry(tournament, tm, order, by=report.by, entered=report.entered)
    else:
        log.info("tournament %s: table %s result disputed by %s", tournament.pk, tm.board, by.handle)
    return report
