"""Reads for the website's club and tournament pages."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from django.db.models import F, Q
from django.utils import timezone

from games.models import Match, Player
from tournaments.models import (
    Club,
    Correction,
    Entrant,
    Membership,
    ResultReport,
    Tournament,
    TournamentMatch,
)
from tournaments.selectors import (
    BracketView,
    EntrantRef,
    RoundRow,
    StandingRow,
    bracket_view,
    corrections_of,
    entrants_of,
    rounds_with_matches,
    standings_table,
    tournaments_list,
)


def upcoming_tournaments(*, limit: int = 5) -> list[Tournament]:
    """Tournaments taking entries, the soonest start first (no start time: newest first); one query."""
    qs = tournaments_list(status=Tournament.Status.REGISTRATION)
    return list(qs.order_by(F("starts_at").asc(nulls_last=True), "-created_at", "-id")[:limit])


def running_tournaments(*, limit: int = 5) -> list[Tournament]:
    return list(tournaments_list(status=Tournament.Status.RUNNING)[:limit])


def organiser_clubs(*, player: Player) -> list[Club]:
    """The clubs ``player`` organises: where they may create and run tournaments."""
    return list(
        Club.objects.filter(memberships__player=player, memberships__role=Membership.Role.ORGANISER).order_by(
            "name", "id"
        )
    )


def organises(*, club_id: int, player: Player | None) -> bool:
    if player is None:
        return False
    return Membership.objects.filter(club_id=club_id, player=player, role=Membership.Role.ORGANISER).exists()


def entry_of(*, tournament: Tournament, player: Player | None) -> Entrant | None:
    """The player's entry in the tournament (as its player or its partner), if any."""
    if player is None:
        return None
    return (
        Entrant.objects.filter(tournament=tournament)
        .filter(Q(player=player) | Q(partner=player))
        .exclude(status=Entrant.Status.WITHDRAWN)
        .first()
    )


@dataclass(frozen=True, slots=True)
class TournamentPage:
    entrants: list[EntrantRef]
    rounds: list[RoundRow]
    standings: list[StandingRow]
    bracket: BracketView | None
    #: Tournament match id -> the games match that plays it (to link the bracket's boxes).
    games_match: dict[int, int]


def tournament_page(*, tournament: Tournament) -> TournamentPage:
    """What a tournament's page shows: entrants, rounds with their matches, standings, the bracket."""
    rounds = rounds_with_matches(tournament=tournament)
    return TournamentPage(
        entrants=entrants_of(tournament=tournament),
        rounds=rounds,
        standings=standings_table(tournament=tournament),
        bracket=bracket_view(tournament=tournament),
        games_match={row.id: row.match_id for r in rounds for row in r.matches if row.match_id is not None},
    )


def club_tournaments(*, club: Club) -> list[Tournament]:
    return list(tournaments_list(club=club.slug))


def bracket_columns(*, bracket: BracketView, games_match: dict[int, int]) -> list[dict[str, Any]]:
    """The bracket's sections as columns of boxes, for the diagram: names, who won, the match to watch."""
    sections = []
    for section in bracket.sections:
        columns: list[dict[str, Any]] = []
        for number, slots in enumerate(section.rounds, start=1):
            boxes = []
            for slot in slots:
                sides = []
                for ref in slot.entrants:
                    sides.append(
                        {
                            "name": ref.name if ref is not None else None,
                            "seed": ref.seed if ref is not None else None,
                            "won": ref is not None and slot.winner == ref.id,
                        }
                    )
                boxes.append(
                    {
                        "code": slot.code,
                        "sides": sides,
                        "status": slot.status,
                        "match_id": games_match.get(slot.tournament_match) if slot.tournament_match else None,
                    }
                )
            columns.append({"round": number, "boxes": boxes, "pairs": False})
        # A column whose boxes feed the next one two by two gets joined connectors (a line from each pair
        # to the box they feed); columns that feed one to one (losers' rounds) keep the straight ones.
        for column, after in itertools.pairwise(columns):
            column["pairs"] = len(column["boxes"]) == 2 * len(after["boxes"])
        sections.append({"section": section.section, "columns": columns})
    return sections


def club_choices() -> list[tuple[str, str]]:
    """(slug, name) of every club, for the leaderboard's filter; one query."""
    return list(Club.objects.order_by("name", "id").values_list("slug", "name"))


def check_in_open(*, tournament: Tournament) -> bool:
    """Whether the tournament's check-in window is open now (to offer the button; the service decides)."""
    opens, closes = tournament.check_in_opens_at, tournament.check_in_closes_at
    if tournament.status != Tournament.Status.REGISTRATION or opens is None or closes is None:
        return False
    return opens <= timezone.now() < closes


def tournament_of_match(*, match: Match) -> TournamentMatch | None:
    """The tournament pairing a games match plays, if any (one query)."""
    return TournamentMatch.objects.filter(match=match).select_related("tournament").first()


def clubs_of(*, player: Player) -> list[Club]:
    """The clubs the player belongs to (one query)."""
    return list(Club.objects.filter(memberships__player=player).order_by("name", "id"))


def tournament_corrections(*, tournament: Tournament) -> list[Correction]:
    """The tournament's corrected results, oldest first, with who made them (one query)."""
    return list(corrections_of(tournament=tournament).order_by("created_at", "id"))


def table_position(*, tournament: Tournament, row: Any, player: Player | None) -> int | None:
    """The player's position at a table (``row``: a ``MatchRow``), as its entrant's player or partner."""
    if player is None:
        return None
    mine = entry_of(tournament=tournament, player=player)
    if mine is None:
        return None
    return next((i for i, e in enumerate(row.entrants) if e.id == mine.pk), None)


def table_report(*, tournament_match_id: int) -> ResultReport | None:
    """A table's players' report still to settle: waiting for the other side, or disputed."""
    return (
        ResultReport.objects.filter(
            tournament_match_id=tournament_match_id, status__in=["pending", "disputed"]
        )
        .select_related("by")
        .order_by("-created_at", "-id")
        .first()
    )
