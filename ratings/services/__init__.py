"""The only writers of ratings: apply a finished match once, or rebuild everything from history."""

from ratings.services.levels import MeasuredLevel, level_ratings_record
from ratings.services.matches import (
    facts_for,
    match_ratings_apply,
    match_ratings_apply_pending,
    pending_before,
    rateable_matches,
)
from ratings.services.recompute import ratings_recompute

__all__ = [
    "MeasuredLevel",
    "facts_for",
    "level_ratings_record",
    "match_ratings_apply",
    "match_ratings_apply_pending",
    "pending_before",
    "rateable_matches",
    "ratings_recompute",
]
