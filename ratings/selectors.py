"""Reads: leaderboards and a player's ratings with their history."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db.models import Q, QuerySet
from django.utils import timezone

from games.models import Player
from ratings.models import Rating, RatingChange


def is_provisional(rating: Rating) -> bool:
    return rating.rated_matches < settings.RATINGS_PROVISIONAL_MATCHES


def leaderboard(
    *, pool: str, min_matches: int = 0, active_days: int | None = None, bots: str = "include"
) -> QuerySet[Rating]:
    """A pool's ratings, best first. ``bots``: include, exclude or only."""
    qs = Rating.objects.filter(pool=pool, rated_matches__gte=min_matches).select_related("player", "partner")
    if active_days is not None:
        qs = qs.filter(last_played_at__gte=timezone.now() - timedelta(days=active_days))
    if bots == "exclude":
        qs = qs.filter(is_bot=False)
    elif bots == "only":
        qs = qs.filter(is_bot=True)
    return qs.order_by("-rating", "subject")


def player_ratings(*, player: Player) -> list[dict[str, Any]]:
    """The player's current rating in each pool (pairs: each pair it belongs to) and its history."""
    ratings = list(
        Rating.objects.filter(Q(player=player) | Q(partner=player))
        .select_related("player", "partner")
        .order_by("pool", "subject")
    )
    history: dict[int, list[dict[str, Any]]] = {r.pk: [] for r in ratings}
    changes = RatingChange.objects.filter(rating__in=ratings).order_by("played_at", "match_id")
    for change in changes.only("rating_id", "played_at", "after", "delta", "match_id"):
        history[change.rating_id].append(
            {
                "date": change.played_at,
                "rating": change.after,
                "change": change.delta,
                "match": change.match_id,
            }
        )
    return [{"rating": r, "history": history[r.pk]} for r in ratings]


def current_ratings(*, pool: str, subjects: list[str]) -> dict[str, float]:
    """Each subject's rating in ``pool`` now (``player:<id>``, ``house:<level>``); the initial rating for
    one that has none yet."""
    found = dict(Rating.objects.filter(pool=pool, subject__in=subjects).values_list("subject", "rating"))
    return {s: float(found.get(s, settings.RATINGS_INITIAL)) for s in subjects}


def house_level_ratings() -> dict[str, dict[str, Rating]]:
    """Each house level's current rating row per pool (``house:<level>``), as play has made them."""
    out: dict[str, dict[str, Rating]] = {}
    for row in Rating.objects.filter(subject__startswith="house:").order_by("pool"):
        out.setdefault(row.subject.removeprefix("house:"), {})[row.pool] = row
    return out
