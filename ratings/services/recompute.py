"""Rebuilding every rating from the match history, for ``manage.py ratings_recompute``.

The history is read as plain rows (no model instances), each match is rated once with the same pure
code as the incremental path (``ratings.facts``, ``ratings.elo``), and the results are written in bulk:
``COPY`` on PostgreSQL, batched ``bulk_create`` elsewhere. 100,000 matches took 68 s through model
instances and two rating passes a match; see docs/PERFORMANCE.md, "Ratings (issue 5)".
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import connection, transaction

from games.models import Game, Match, Seat
from ratings.elo import Standing
from ratings.facts import SeatRow, match_facts, policy, rate
from ratings.models import RatedMatch, Rating, RatingChange
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
CHANGE_COLUMNS = ("match_id", "rating_id", "pool", "subject", "before", "after", "delta", "k", "played_at")


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

    Returns (matches rated, changes written). The tables are replaced in one transaction. Incremental
    updates wait for its commit and then find their match rated, or apply it on top (a match that
    finished after the history was read); readers go on seeing the old ratings until then.
    """
    _lock_out_writers()
    rows, changes, rated = _rate_history()
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {RatingChange._meta.db_table}")
        cursor.execute(f"DELETE FROM {Rating._meta.db_table}")
        cursor.execute(f"DELETE FROM {RatedMatch._meta.db_table}")
    if _can_copy():
        _copy_lines(Rating._meta.db_table, RATING_COLUMNS, map(_rating_line, rows.values()))
        ids = _rating_ids()
        _copy_lines(RatingChange._meta.db_table, CHANGE_COLUMNS, _change_lines(changes, ids))
        _copy_lines(RatedMatch._meta.db_table, ("match_id",), (f"{match_id}\n" for match_id in rated))
    else:
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


def _lock_out_writers() -> None:
    """Hold off incremental updates until this transaction commits.

    PostgreSQL: EXCLUSIVE blocks inserts, updates and ``SELECT ... FOR UPDATE`` but not plain reads, so
    the leaderboards keep answering. Taken before reading the history, so that a match it does not see
    is rated after its commit, on top of the rebuilt rows. The tables are locked in the order the
    incremental path writes them (ratings, then changes) and never more strongly later (DELETE, not
    TRUNCATE), so an update already under way finishes first instead of deadlocking with this.
    The ledger of applied matches is locked last: the incremental path inserts into it after the others.
    SQLite: the project's transactions are IMMEDIATE, so this one already holds the only write lock.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                f"LOCK TABLE {Rating._meta.db_table}, {RatingChange._meta.db_table}, "
                f"{RatedMatch._meta.db_table} IN EXCLUSIVE MODE"
            )


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


def _can_copy() -> bool:
    """PostgreSQL through psycopg 3 (Django's driver whenever it is installed), whose cursors speak COPY."""
    if connection.vendor != "postgresql":
        return False
    return importlib.util.find_spec("psycopg") is not None


def _copy_lines(table: str, columns: Sequence[str], lines: Iterable[str]) -> None:
    """``COPY table (columns) FROM STDIN`` of lines in COPY's text format, sent in large chunks.

    Lines formatted here take half the CPU of psycopg's ``write_row``, which adapts every value on its own.
    """
    chunk: list[str] = []
    with (
        connection.cursor() as cursor,
        cursor.cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy,
    ):
        for line in lines:
            chunk.append(line)
            if len(chunk) == 10_000:
                copy.write("".join(chunk))
                chunk.clear()
        copy.write("".join(chunk))


def _rating_line(row: _Row) -> str:
    return (
        "\t".join(
            (
                _text(row.pool),
                _text(row.subject),
                _nullable(row.player_id),
                _nullable(row.partner_id),
                _text(row.house_bot),
                "t" if row.is_bot else "f",
                repr(row.rating),  # the shortest text that reads back as the same float
                str(row.rated_matches),
                r"\N" if row.last_played_at is None else row.last_played_at.isoformat(),
            )
        )
        + "\n"
    )


def _change_lines(changes: list[_Change], ids: dict[tuple[str, str], int]) -> Iterator[str]:
    """One COPY line per change; each rating's id and text columns, and each match's time, formatted once."""
    columns = {key: f"{pk}\t{_text(key[0])}\t{_text(key[1])}" for key, pk in ids.items()}
    played_at: datetime | None = None
    when = ""
    for match_id, key, before, after, delta, k, at in changes:
        if at is not played_at:
            played_at, when = at, at.isoformat()
        yield f"{match_id}\t{columns[key]}\t{before!r}\t{after!r}\t{delta!r}\t{k!r}\t{when}\n"


def _text(value: str) -> str:
    """A string as COPY's text format reads it."""
    if "\\" in value or "\t" in value or "\n" in value or "\r" in value:
        return value.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")
    return value


def _nullable(value: int | None) -> str:
    return r"\N" if value is None else str(value)
