"""Helpers shared by the tournament services: row locks, who may organise, queueing after commit."""

from __future__ import annotations

from django.db import connection

from games.models import Player
from tournaments.errors import NotOrganiser, TournamentNotFound
from tournaments.models import Club, Membership, Tournament


def lock_tournament(tournament_id: int) -> Tournament:
    """The tournament row, locked for this transaction (PostgreSQL): every writer of a tournament's
    entrants, rounds and matches takes it first, so they run one at a time per tournament."""
    qs = Tournament.objects.select_related("club", "created_by")
    if connection.features.has_select_for_update:
        qs = qs.select_for_update(of=("self",))
    tournament = qs.filter(pk=tournament_id).first()
    if tournament is None:
        raise TournamentNotFound()
    return tournament


def is_organiser(club: Club, player: Player | None) -> bool:
    if player is None:
        return False
    if player.user.is_staff:
        return True
    return Membership.objects.filter(club=club, player=player, role=Membership.Role.ORGANISER).exists()


def require_organiser(club: Club, player: Player | None) -> None:
    if not is_organiser(club, player):
        raise NotOrganiser()
