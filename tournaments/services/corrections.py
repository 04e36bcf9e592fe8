"""Corrections: an organiser changes a recorded result; the change flows on to what has not started.

Elimination: the bracket says which later matches the new winner reaches (``correction_effects``);
if any of them has started (it has a tournament match: playing or played) the correction is refused
with ``correction_blocked`` naming them, otherwise the later matches simply get the new entrant when
they are generated. Swiss and Pocha pair each round from the standings, so a correction is refused once
a later round exists. Round robin schedules never depend on results: a correction only moves the
standings. Every correction is logged with the result before and after.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from games.models import Player
from tournaments.errors import CorrectionBlocked, InvalidCorrection, TournamentMatchNotFound
from tournaments.models import Correction, Round, Tournament, TournamentMatch
from tournaments.pairing import BracketError
from tournaments.services.common import lock_tournament, require_organiser
from tournaments.services.rounds import advance_rounds, final_rows
from tournaments.state import DRAW, LOSS, WIN, bracket_of, slot_entrants


def _result(tm: TournamentMatch) -> dict[str, Any]:
    return {"winner": tm.winner_id, "points": tm.points, "forfeit": tm.forfeit}


@transaction.atomic
def result_correct(
    *,
    tournament_id: int,
    tournament_match_id: int,
    by: Player,
    winner: int | None = None,
    points: list[float] | None = None,
    reason: str = "",
) -> TournamentMatch:
    """Change a recorded result: ``winner`` (an entrant id; None: a draw, outside elimination) for a
    match of two, ``points`` (each between 0 and 1, by position) for a Pocha table."""
    tournament = lock_tournament(tournament_id)
    require_organiser(tournament.club, by)
    tm = (
        TournamentMatch.objects.select_related("round")
        .prefetch_related("slots")
        .filter(tournament=tournament, pk=tournament_match_id)
        .first()
    )
    if tm is None:
        raise TournamentMatchNotFound()
    if tm.status != TournamentMatch.Status.DONE:
        raise InvalidCorrection("The match has no result yet.")
    if tm.kind == TournamentMatch.Kind.BYE:
        raise InvalidCorrection("A bye has no result to correct.")
    entrants = slot_entrants(tm)
    new_points, position = _new_result(tournament, entrants, winner, points)
    new_winner = entrants[position] if position is not None else None
    if tournament.is_elimination:
        assert new_winner is not None
        bracket = bracket_of(tournament)
        try:
            effects = bracket.correction_effects(tm.code, new_winner)
        except BracketError as exc:
            raise InvalidCorrection(str(exc)) from None
        codes = {bracket.matches[i].code for i in effects}
        started = sorted(
            TournamentMatch.objects.filter(tournament=tournament, code__in=codes).values_list(
                "code", flat=True
            )
        )
        if started:
            raise CorrectionBlocked(
                f"Later matches that this result decides have started: {', '.join(started)}.",
                detail={"blocking": started},
            )
    elif tournament.format in (Tournament.Format.SWISS, Tournament.Format.POCHA_TABLES):
        later = list(
            Round.objects.filter(tournament=tournament, number__gt=tm.round.number).values_list(
                "number", flat=True
            )
        )
        if later:
            raise CorrectionBlocked(
                "Later rounds were paired from this result and have started.", detail={"later_rounds": later}
            )
    before = _result(tm)
    tm.points = new_points
    tm.winner_id = new_winner
    tm.forfeit = False
    tm.save(update_fields=["points", "winner", "forfeit"])
    Correction.objects.create(
        tournament=tournament,
        tournament_match=tm,
        by=by,
        before=before,
        after=_result(tm),
        reason=reason[:200],
    )
    finished = tournament.status == Tournament.Status.FINISHED
    if tournament.is_elimination and finished and not bracket_of(tournament).is_complete:
        # A corrected grand final that now needs its reset: the tournament runs again.
        tournament.status = Tournament.Status.RUNNING
        tournament.finished_at = None
        tournament.final_standings = None
        tournament.save(update_fields=["status", "finished_at", "final_standings"])
        advance_rounds(tournament, timezone.now())
    if tournament.status == Tournament.Status.FINISHED:
        tournament.final_standings = final_rows(tournament)
        tournament.save(update_fields=["final_standings"])
    return tm


def _new_result(
    tournament: Tournament, entrants: list[int], winner: int | None, points: list[float] | None
) -> tuple[list[float], int | None]:
    if len(entrants) == 2:
        if points is not None:
            raise InvalidCorrection("A match of two is corrected by its winner, not by points.")
        if winner is None:
            if tournament.is_elimination:
                raise InvalidCorrection("An elimination match needs a winner.")
            return [DRAW, DRAW], None
        if winner not in entrants:
            raise InvalidCorrection(f"Entrant {winner} did not play this match.")
        position = entrants.index(winner)
        return ([WIN, LOSS] if position == 0 else [LOSS, WIN]), position
    if winner is not None or points is None:
        raise InvalidCorrection("A table is corrected by each player's points, in seat order.")
    if len(points) != len(entrants) or any(not 0.0 <= p <= 1.0 for p in points):
        raise InvalidCorrection(f"Give {len(entrants)} points, each from 0 to 1.")
    best = max(range(len(points)), key=lambda i: points[i])
    return [float(p) for p in points], best
