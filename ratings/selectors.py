"""Reads: leaderboards and a player's ratings with their history."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db.models import Q, QuerySet
from django.utils import timezone

from games.bots import BOT_LEVELS, LEVEL_DESCRIPTIONS
from games.models import Player
from ratings.models import LevelRating, Rating, RatingChange


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


def measured_level_ratings(*, pool: str | None = None) -> dict[str, dict[str, LevelRating]]:
    """Each house level's rating per pool as ``manage.py rate_levels`` last measured it."""
    rows = LevelRating.objects.order_by("pool", "level")
    if pool is not None:
        rows = rows.filter(pool=pool)
    out: dict[str, dict[str, LevelRating]] = {}
    for row in rows:
        out.setdefault(row.level, {})[row.pool] = row
    return out


def level_rating_anchor(*, pool: str, level: str) -> float:
    """Where ``level`` anchors its pool's measured scale: its ladder rating there (``house:<level>``), or
    the starting rating when it has played no rated match of the pool."""
    row = Rating.objects.filter(pool=pool, subject=f"house:{level}").only("rating").first()
    return float(row.rating) if row is not None else float(settings.RATINGS_INITIAL)


def house_levels() -> list[dict[str, Any]]:
    """The house levels, weakest first: what each plays like, its rating per pool as rated games have
    made it (``ratings``: rating, rated_matches, as_of) and as ``manage.py rate_levels`` measured it
    (``measured``: rating, deals, against, share, measured_at). A pool without one is absent."""
    played = house_level_ratings()
    measured = measured_level_ratings()
    return [
        {
            "level": level,
            "description": LEVEL_DESCRIPTIONS.get(level, ""),
            "ratings": {
                pool: {
                    "rating": round(row.rating, 1),
                    "rated_matches": row.rated_matches,
                    "as_of": row.last_played_at,
                }
                for pool, row in played.get(level, {}).items()
            },
            "measured": {
                pool: {
                    "rating": round(row.rating, 1),
                    "deals": row.deals,
                    "against": row.against or None,
                    "share": row.share,
                    "measured_at": row.measured_at,
                }
                for pool, row in measured.get(level, {}).items()
            },
        }
        for level in BOT_LEVELS
    ]
