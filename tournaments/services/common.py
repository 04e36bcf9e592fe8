"""Helpers shared by the tournament services: row locks, who may organise, queueing after commit."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.db import connection, transaction

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


def queue(task: Any, *args: Any, eta: datetime | None = None) -> None:
    """``task.delay(*args)`` once this transaction commits (``delay_on_commit``), robust: a broker outage
    must not turn a committed change into an error; the sweeper (``tournaments.sweep``) catches up.
    ``eta``: run it then (``apply_async(eta=...)``), a few minutes ahead at most (see rounds.py)."""
    if eta is None:
        send: Callable[[], Any] = lambda: task.delay(*args)  # noqa: E731
    else:
        send = lambda: task.apply_async(args, eta=eta)  # noqa: E731
    transaction.on_commit(send, robust=True)
