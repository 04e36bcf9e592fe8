"""Reads for people playing people: a table reached by its invite link, an open table's seats as the page
shows them, who is online and away, and whether a finished match may be played again."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch

from games.models import Match, Player, Seat
from games.selectors import away_seats
from web import names


def match_by_invite(*, code: str) -> Match | None:
    """The table whose invite code is ``code`` (exactly), with its seats and their players."""
    if not code:
        return None
    return (
        Match.objects.prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("index"))
        )
        .filter(invite_code=code)
        .first()
    )


def open_table_seats(match: Match, *, viewer: Player | None) -> list[dict[str, Any]]:
    """Each seat of an open table: its label (``web.names``), whether it is free, whose challenge waits
    there, whether it is the viewer's, and which side it plays on (Tute 4's pairs)."""
    seats = list(match.seats.all())
    labels = names.seat_labels(seats, game=match.game)
    away = set(away_seats(seats))
    return [
        {
            **label,
            "free": seat.is_empty,
            "waiting": seat.player_id is not None and not seat.accepted,
            "mine": viewer is not None and seat.player_id == viewer.pk,
            "away": seat.index in away,
            "declined": bool(seat.decline_reason) and seat.is_empty,
        }
        for seat, label in zip(seats, labels, strict=True)
    ]


def people_at(match: Match) -> int:
    """How many people (not bots) sit at the match (its seats prefetched)."""
    return sum(1 for s in match.seats.all() if s.player is not None and not s.player.is_bot)


def rematch_offer(match: Match, *, viewer: Player | None) -> dict[str, Any] | None:
    """For a player of a finished match between people: the rematch offered, if any (its id, and whether
    the viewer still has to accept it), or an empty offer to make."""
    if viewer is None or match.managed or match.status != Match.Status.FINISHED or people_at(match) < 2:
        return None
    if not any(s.player_id == viewer.pk for s in match.seats.all()):
        return None
    offered = (
        Match.objects.filter(rematch_of=match).exclude(status=Match.Status.ABORTED).order_by("-id").first()
    )
    if offered is None:
        return {"match": None, "mine_to_accept": False}
    mine = offered.seats.filter(player=viewer).first()
    return {
        "match": offered.pk,
        "mine_to_accept": offered.status == Match.Status.OPEN and mine is not None and not mine.accepted,
    }
