"""Corrections: an organiser changes a recorded result; the change flows on to what has not started.

Elimination: the bracket says which later matches the new winner reaches (``correction_effects``);
if any of them has started (it has a tournament match: playing or played) the correction is refused
with ``correction_blocked`` naming them, otherwise the later matches simply get the new entrant when
they are generated. Swiss and Pocha pair each round from the standings, so a correction is refused once
a later round exists. Round robin schedules never depend on results: a correction only moves the
standings. Every correction is logged with the result before and after.

A correction replaces the whole result: the games won and card points of the overturned result go
with it (they are what the ``games_won`` and ``card_point_difference`` tie-breaks count), replaced by
the ones the organiser gives, or by none (the match then counts for neither tie-break).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.models import Match, Player
from tournaments.errors import CorrectionBlocked, InvalidCorrection, TournamentMatchNotFound
from tournaments.models import Correction, Round, Tournament, TournamentMatch
from tournaments.pairing import BracketError
from tournaments.services.common import lock_tournament, require_organiser
from tournaments.services.rounds import advance_rounds, final_rows
from tournaments.state import DRAW, LOSS, WIN, bracket_of, slot_entrants, stored_points

#: How far a given point may be from a table's exact value and still be read as it (0.333333 for 1/3).
POINT_TOLERANCE = Fraction(1, 10**6)


def _result(tm: TournamentMatch) -> dict[str, Any]:
    return {
        "winner": tm.winner_id,
        "points": tm.points,
        "games_won": tm.games_won,
        "card_points": tm.card_points,
        "forfeit": tm.forfeit,
    }


@transaction.atomic
def result_correct(
    *,
    tournament_id: int,
    tournament_match_id: int,
    by: Player,
    winner: int | None = None,
    points: Sequence[Fraction | float | str] | None = None,
    games_won: list[int] | None = None,
    card_points: list[int] | None = None,
    reason: str = "",
) -> TournamentMatch:
    """Change a recorded result: ``winner`` (an entrant id; None: a draw, outside elimination) for a
    match of two, ``points`` (each between 0 and 1, by position, a multiple of 1/(2(n-1)) at a table of
    n: "1/3", or 0.333333) for a Pocha table. ``games_won`` and ``card_points`` (by position) replace
    the old ones; without them the corrected match has none."""
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
    if tournament.match_format == Match.Format.DUPLICATE:
        raise InvalidCorrection(
            "A duplicate tournament's points come from the cards played, compared with the other tables "
            "on the same boards: they are not corrected by hand (a no-show is recorded as such)."
        )
    entrants = slot_entrants(tm)
    new_points, position = _new_result(tournament, entrants, winner, points)
    _check_details(len(entrants), new_points, games_won, card_points)
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
    tm.points = stored_points(new_points)
    tm.winner_id = new_winner
    tm.games_won = games_won
    tm.card_points = card_points
    tm.forfeit = False
    tm.save(update_fields=["points", "winner", "games_won", "card_points", "forfeit"])
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
    tournament: Tournament,
    entrants: list[int],
    winner: int | None,
    points: Sequence[Fraction | float | str] | None,
) -> tuple[list[Fraction], int | None]:
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
    n = len(entrants)
    if len(points) != n:
        raise InvalidCorrection(f"Give {n} points, each from 0 to 1.")
    exact = [_table_point(p, n) for p in points]
    best = max(range(n), key=lambda i: exact[i])
    return exact, best


def _table_point(value: Fraction | float | str, n: int) -> Fraction:
    """A player's points at a table of ``n``: a multiple of 1/(2(n - 1)) from 0 to 1 (halves of a share
    of the table mates), given exactly ("1/3") or as a decimal close to one (0.333333)."""
    try:
        given = Fraction(str(value)) if isinstance(value, float) else Fraction(value)
    except (ValueError, ZeroDivisionError):
        raise InvalidCorrection(f"{value!r} is not a number of points.") from None
    unit = 2 * (n - 1)
    exact = Fraction(round(given * unit), unit)
    if abs(given - exact) > POINT_TOLERANCE or not 0 <= exact <= 1:
        raise InvalidCorrection(
            f"At a table of {n} each player scores from 0 to 1 in steps of 1/{unit}; {value} is not one."
        )
    return exact


def _check_details(
    n: int, points: list[Fraction], games_won: list[int] | None, card_points: list[int] | None
) -> None:
    for name, values in (("games_won", games_won), ("card_points", card_points)):
        if values is not None and (len(values) != n or any(v < 0 for v in values)):
            raise InvalidCorrection(f"{name} needs {n} numbers of 0 or more, by position.")
    if games_won is not None and n == 2 and _order(points) != _order(games_won):
        raise InvalidCorrection("games_won must agree with the winner: more games for the winner.")


def _order(values: Sequence[Fraction | int]) -> int:
    """1: the first of two is ahead, 0: level, -1: behind."""
    return (values[0] > values[1]) - (values[0] < values[1])
