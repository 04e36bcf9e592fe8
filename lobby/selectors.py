"""Reads of the lobby: the public tables with free seats, the people looking for a game, who is online,
and a person's own seeks. One snapshot feeds the API's answer, its stream and the website's page."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from typing import Any

from django.db.models import Exists, OuterRef, Prefetch, QuerySet
from django.utils import timezone

from games.models import Match, Player, Seat
from games.selectors import online_since
from lobby.models import Seek
from lobby.services import window
from ratings.facts import player_subject
from ratings.selectors import current_ratings, house_levels

#: The lobby lists this many of each (the newest tables, the oldest seeks, the people seen last).
LOBBY_LIMIT = 100


def lobby_tables(*, limit: int = LOBBY_LIMIT) -> list[Match]:
    """Open public tables with a free seat, newest first (not tournaments', not private ones)."""
    empty = Seat.objects.filter(match=OuterRef("pk"), player__isnull=True, bot_level="")
    return list(
        Match.objects.filter(status=Match.Status.OPEN, private=False, managed=False)
        .filter(Exists(empty))
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("index")))
        .order_by("-created_at", "-id")[:limit]
    )


def waiting_seeks(*, limit: int = LOBBY_LIMIT) -> list[Seek]:
    return list(
        Seek.objects.filter(status=Seek.Status.WAITING)
        .select_related("player")
        .order_by("created_at", "id")[:limit]
    )


def online_people(*, limit: int = LOBBY_LIMIT, now: datetime | None = None) -> QuerySet[Player]:
    """People (not bot accounts) seen lately, the most recent first."""
    return _online(now).order_by("-last_seen_at", "handle")[:limit]


def _online(now: datetime | None) -> QuerySet[Player]:
    return Player.objects.filter(is_bot=False, last_seen_at__gte=online_since(now))


def _ratings(pairs: list[tuple[str, int]]) -> dict[tuple[str, int], float]:
    """Each (pool, player id)'s rating, one query per pool."""
    by_pool: dict[str, set[int]] = defaultdict(set)
    for pool, player_id in pairs:
        by_pool[pool].add(player_id)
    found: dict[tuple[str, int], float] = {}
    for pool, ids in by_pool.items():
        ratings = current_ratings(pool=pool, subjects=[player_subject(i) for i in ids])
        found.update({(pool, i): ratings[player_subject(i)] for i in ids})
    return found


def table_row(match: Match, ratings: dict[tuple[str, int], float]) -> dict[str, Any]:
    seats = list(match.seats.all())
    return {
        "match": match.pk,
        "game": match.game,
        "players": match.num_players,
        "options": match.options,
        "rated": match.rated,
        "human_move_seconds": match.human_move_seconds,
        "max_timeouts": match.max_timeouts,
        "created_at": match.created_at,
        "expires_at": match.expires_at,
        "free_seats": [s.index for s in seats if s.is_empty],
        "seats": [
            {
                "index": s.index,
                "player": s.player.handle if s.player else None,
                "house_bot": s.bot_level,
                "rating": round(ratings[(match.game, s.player_id)]) if s.player_id else None,
            }
            for s in seats
        ],
    }


def seek_row(seek: Seek, now: datetime) -> dict[str, Any]:
    return {
        "seek": seek.pk,
        "player": seek.player.handle,
        "game": seek.game,
        "players": seek.num_players,
        "rated": seek.rated,
        "human_move_seconds": seek.human_move_seconds,
        "rating": round(seek.rating),
        "created_at": seek.created_at,
        "waited_seconds": int((now - seek.created_at).total_seconds()),
        "window": round(window(seek, now)),
    }


def lobby_snapshot(*, now: datetime | None = None) -> dict[str, Any]:
    """The lobby now: tables, seeks, the people online (their handles and how many) and the house levels
    with their ratings (``ratings.selectors.house_levels``), for a table's free seats."""
    now = now or timezone.now()
    tables = lobby_tables()
    ratings = _ratings([(m.game, s.player_id) for m in tables for s in m.seats.all() if s.player_id])
    online = list(online_people(now=now).values_list("handle", flat=True))
    count = _online(now).count()
    return {
        "tables": [table_row(m, ratings) for m in tables],
        "seeks": [seek_row(s, now) for s in waiting_seeks()],
        "online": {"count": count, "players": online},
        "house_levels": house_levels(),
    }


def seeks_of(*, player: Player) -> QuerySet[Seek]:
    """The person's seeks, the newest first."""
    return Seek.objects.filter(player=player).order_by("-created_at", "-id")
