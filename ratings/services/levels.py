"""Storing the house levels' measured ratings (``manage.py rate_levels``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from ratings.errors import UnknownPool
from ratings.models import LevelRating, Pool


@dataclass(frozen=True, slots=True)
class MeasuredLevel:
    """One level's measured rating, and its share against the level below (None for the weakest)."""

    rating: float
    against: str = ""
    share: float | None = None


@transaction.atomic
def level_ratings_record(
    *,
    pool: str,
    levels: Mapping[str, MeasuredLevel],
    deals: int,
    measured_at: datetime | None = None,
) -> list[LevelRating]:
    """Store each level's rating in ``pool`` as measured now (or at ``measured_at``), replacing the
    level's previous measure there; the pool's other levels are left as they were."""
    if pool not in Pool.values:
        raise UnknownPool(f"Unknown rating pool {pool!r}: one of {', '.join(Pool.values)}.")
    if deals <= 0:
        raise ValueError("a measured rating comes from one deal at least")
    when = measured_at or timezone.now()
    out = []
    for level, measured in levels.items():
        row, _ = LevelRating.objects.update_or_create(
            level=level,
            pool=pool,
            defaults={
                "rating": float(measured.rating),
                "deals": deals,
                "against": measured.against,
                "share": measured.share,
                "measured_at": when,
            },
        )
        out.append(row)
    return out
