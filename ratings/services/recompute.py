"""Rebuilding every rating from the match history, for ``manage.py ratings_recompute``.

The history is read as plain rows (no model instances), each match is rated once with the same pure
code as the incremental path (``ratings.facts``, ``ratings.elo``), and the results are written with
batched ``bulk_create``: stock ORM on every database. See docs/PERFORMANCE.md for the figures.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import transaction

from games.models import Game, Match, Seat
from ratings.elo import Standing
from ratings.facts import SeatRow, match_facts, policy, rate
from ratings.models import RatedMatch, Rating, RatingChange
from ratings.services.lock import ratings_writer_lock
from ratings.services.matches import rateable_matches

RATING_COLUMNS = (
    "pool",
    "subject",
    "player_id",
    "partner_id",
    "house_bot",
    "is_bot",
    "rating",
    "rated_matches",
    "last_played_at",
)


@dataclass(slots=True)
class _Row:
    """A rating being rebuilt; mutable, and cheaper than a model instance."""

    pool: str
    subject: str
    player_id: int | None
    partner_id: int | None
    house_bot: str
    is_bot: bool
    rating: float
    rated_matches: int = 0
    last_played_at: datetime | None = None

    def values(self) -> tuple[Any, ...]:
        return (
            self.pool,
            self.subject,
            self.player_id,
            self.partner_id,
            self.house_bot,
            self.is_bot,
            self.rating,
            self.rated_matches,
            self.last_played_at,
        )


#: A change before its rating row has an id: (match_id, (pool, subject), before, after, delta, k, played_at).
_Change = tuple[int, tuple[str, str], float, float, float, float, datetime]


@transaction.atomic
def ratings_recompute(*, batch_size: int = 5000) -> tuple[int, int]:
    """Rebuild every rating and change from the match history, in finishing order.

    Returns (matches rated, changes written). The tables are replaced in one transaction, holding the
    ratings writers' lock from before the history is read: an incremental update waits for the commit
    and then finds its match rated, or applies it on top (a match that finished after the history was
    read). Readers go on seeing the old ratings until then.
    """
    ratings_writer_lock()
    rows, changes, rated = _rate_history()
    RatingChange.objects.all().delete()
    RatedMatch.objects.all().delete()
    Rating.objects.all().delete()
    Rating.objects.bulk_create(
        (Rating(**dict(zip(RATING_COLUMNS, row.values(), strict=True))) for row in rows.values()),
        batch_size=batch_size,
    )
    ids = _rating_ids()
    RatingChange.objects.bulk_create(
        (
            RatingChange(
                match_id=match_id,
                rating_id=ids[key],
                pool=key[0],
                subject=key[1],
                before=before,
                after=after,
                delta=delta,
                k=k,
                played_at=played_at,
            )
            for match_id, key, before, after, delta, k, played_at in changes
        ),
        batch_size=batch_size,
    )
    RatedMatch.objects.bulk_create((RatedMatch(match_id=m) for m in rated), batch_size=batch_size)
    return len(rated), len(changes)


def _rating_ids() -> dict[tuple[str, str], int]:
    return {(pool, subject): pk for pk, pool, subject in Rating.objects.values_list("pk", "pool", "subject")}


def _rate_history() -> tuple[dict[tuple[str, str], _Row], list[_Change], list[int]]:
    """Every rating and change the history produces, rating each match once, in finishing order; and
    the matches rated (with or without changes)."""
    k_policy = policy()
    fresh = Standing(settings.RATINGS_INITIAL, 0)
    rows: dict[tuple[str, str], _Row] = {}
    changes: list[_Change] = []

    def standing(pool: str, subject: str) -> Standing:
        row = rows.get((pool, subject))
        return fresh if row is None else Standing(row.rating, row.rated_matches)

    rated: list[int] = []
    for match_id, game, result, played_at, seats, game_results in _history():
        if result is None or played_at is None:
            continue
        facts = match_facts(match_id, game, result, seats, game_results)
        if facts is None:
            continue
        for change in rate(facts, standing, k_policy):
            key = (change.pool, change.competitor.subject)
            row = rows.get(key)
            if row is None:
                who = change.competitor
                row = rows[key] = _Row(
                    change.pool,
                    who.subject,
                    who.player_id,
                    change.partner_id,
                    who.house_bot,
                    who.is_bot,
                    fresh.rating,
                )
            before = row.rating
            row.rating = before + change.delta
            row.rated_matches += 1
            row.last_played_at = played_at
            changes.append((match_id, key, before, row.rating, change.delta, change.k, played_at))
        rated.append(match_id)
    return rows, changes, rated


_HistoryMatch = tuple[int, str, Any, datetime | None, list[SeatRow], Sequence[Any]]


def _history() -> Iterator[_HistoryMatch]:
    """Finished rated matches in finishing order, each with its seats and (Pocha) finished games' results."""
    matches = rateable_matches()
    seats: dict[int, list[SeatRow]] = {}
    for match_id, index, player_id, bot_level, is_bot in (
        Seat.objects.filter(match__in=matches.order_by())
        .order_by()
        .values_list("match_id", "index", "player_id", "bot_level", "player__is_bot")
    ):
        seats.setdefault(match_id, []).append((index, player_id, bot_level, is_bot))
    games: dict[int, list[Any]] = {}
    for match_id, game_result in (
        Game.objects.filter(
            match__in=matches.filter(game=Match.GameName.POCHA).order_by(), status=Game.Status.FINISHED
        )
        .order_by("match_id", "number")
        .values_list("match_id", "result")
    ):
        games.setdefault(match_id, []).append(game_result)
    for match_id, game, result, finished_at in matches.values_list("id", "game", "result", "finished_at"):
        yield match_id, game, result, finished_at, seats.get(match_id, []), games.get(match_id, ())
