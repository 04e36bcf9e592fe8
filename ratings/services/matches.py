"""Rating one finished match at a time: the task's path, applied exactly once, in finishing order."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db import OperationalError, transaction
from django.db.models import Exists, OuterRef, Q, QuerySet

from games.models import Game, Match, Seat
from ratings.elo import Standing
from ratings.facts import Change, Competitor, MatchFacts, match_facts, policy, rate
from ratings.models import RatedMatch, Rating, RatingChange
from ratings.services.lock import ratings_writer_lock

log = logging.getLogger(__name__)

#: How far before the latest rated match the task looks for matches still unrated. Such a match is one
#: whose finishing transaction committed after a later match was rated (finished_at is set before the
#: commit), or one that failed to rate for good; older ones are left to ``ratings_recompute``.
BACKLOG_SLACK = timedelta(minutes=1)


def rateable_matches() -> QuerySet[Match]:
    """Finished, rated matches in finishing order: the order ratings are applied in.

    Served by the partial index ``match_rateable_finished`` on (finished_at, id).
    """
    return Match.objects.filter(status=Match.Status.FINISHED, rated=True).order_by("finished_at", "id")


def facts_for(match: Match, seats: list[Seat], games: list[Game]) -> MatchFacts | None:
    """The match as Elo sees it; None when it cannot be rated (not finished, unrated, an empty seat)."""
    if match.status != Match.Status.FINISHED or not match.rated or match.result is None:
        return None
    return match_facts(
        match.pk,
        match.game,
        match.result,
        [
            (s.index, s.player_id, s.bot_level, s.player.is_bot if s.player is not None else None)
            for s in seats
        ],
        [g.result for g in games if g.status == Game.Status.FINISHED],
    )


@transaction.atomic
def match_ratings_apply(*, match_id: int) -> int:
    """Apply a finished match's rating changes exactly once; returns how many were written (0: none due).

    Ratings writers take one lock first (``ratings_writer_lock``): two matches finishing together, or a
    match and a recompute, are applied one after the other, never interleaved or lost.
    """
    ratings_writer_lock()
    match = Match.objects.filter(pk=match_id).first()
    if match is None or RatedMatch.objects.filter(match_id=match_id).exists():
        return 0
    seats = list(match.seats.select_related("player"))
    facts = facts_for(match, seats, list(match.games.all()))
    if facts is None:
        return 0
    keys = _competitor_keys(facts)
    if not keys:
        # Every seat is one competitor: nothing moves and nothing counts. A twin delivery inserting
        # the same ledger row is harmless here, as nothing else is written.
        RatedMatch.objects.bulk_create([RatedMatch(match_id=match_id)], ignore_conflicts=True)
        return 0
    Rating.objects.bulk_create(
        [_new_rating(pool, c, partner) for (pool, _), (_, c, partner) in sorted(keys.items())],
        ignore_conflicts=True,
    )
    condition = Q()
    for pool, subject in keys:
        condition |= Q(pool=pool, subject=subject)
    rows = {
        (r.pool, r.subject): r
        for r in Rating.objects.select_for_update().filter(condition).order_by("pool", "subject")
    }
    changes = rate(facts, lambda pool, subject: _standing(rows[(pool, subject)]), policy())
    played_at = match.finished_at
    assert played_at is not None
    records = []
    for change in changes:
        row = rows[(change.pool, change.competitor.subject)]
        before = row.rating
        row.rating = before + change.delta
        row.rated_matches += 1
        row.last_played_at = played_at
        records.append(_record(match.pk, row, change, before, played_at))
    Rating.objects.bulk_update(
        [rows[(c.pool, c.competitor.subject)] for c in changes], ["rating", "rated_matches", "last_played_at"]
    )
    RatingChange.objects.bulk_create(records)
    RatedMatch.objects.create(match_id=match_id)
    return len(records)


def match_ratings_apply_pending(*, match_id: int) -> int:
    """Apply ``match_id`` after the rated matches that finished before it and are still unrated.

    Tasks may run out of order; applying the backlog first keeps ratings in finishing order, which is
    the order a recompute uses. The backlog is looked for from ``BACKLOG_SLACK`` before the latest
    rated match that finished before this one, not over the whole history: the tasks before it applied
    everything older, so the query costs the same on any history (113 ms unbounded on 100,000 matches).
    """
    match = Match.objects.filter(pk=match_id).only("finished_at").first()
    if match is None or match.finished_at is None:
        return 0
    applied = 0
    for pending_id in pending_before(match_id=match_id, finished_at=match.finished_at):
        try:  # an earlier match that cannot be rated must not hold up this one
            applied += match_ratings_apply(match_id=pending_id)
        except OperationalError:
            raise  # a passing database fault: the task retries, keeping the finishing order
        except Exception:
            log.exception("rating match %s (before match %s) failed", pending_id, match_id)
    return applied + match_ratings_apply(match_id=match_id)


def pending_before(*, match_id: int, finished_at: datetime) -> list[int]:
    """Rated matches not yet applied (no ``RatedMatch``) that come before ``match_id`` in finishing order,
    in that order."""
    before = rateable_matches().filter(
        Q(finished_at__lt=finished_at) | Q(finished_at=finished_at, id__lt=match_id)
    )
    applied = Exists(RatedMatch.objects.filter(match_id=OuterRef("pk")))
    latest_rated = (
        before.filter(applied).order_by("-finished_at", "-id").values_list("finished_at", flat=True).first()
    )
    if latest_rated is not None:
        before = before.filter(finished_at__gte=latest_rated - BACKLOG_SLACK)
    return list(before.filter(~applied).values_list("id", flat=True))


def _competitor_keys(facts: MatchFacts) -> dict[tuple[str, str], tuple[str, Competitor, int | None]]:
    """Every (pool, subject) the match touches, with what a new rating row for it needs."""
    changes = rate(facts, lambda pool, subject: Standing(settings.RATINGS_INITIAL, 0), policy())
    return {(c.pool, c.competitor.subject): (c.pool, c.competitor, c.partner_id) for c in changes}


def _new_rating(pool: str, competitor: Competitor, partner_id: int | None) -> Rating:
    return Rating(
        pool=pool,
        subject=competitor.subject,
        player_id=competitor.player_id,
        partner_id=partner_id,
        house_bot=competitor.house_bot,
        is_bot=competitor.is_bot,
        rating=settings.RATINGS_INITIAL,
    )


def _standing(row: Rating) -> Standing:
    return Standing(rating=row.rating, matches=row.rated_matches)


def _record(match_id: int, row: Rating, change: Change, before: float, played_at: datetime) -> RatingChange:
    return RatingChange(
        match_id=match_id,
        rating=row,
        pool=row.pool,
        subject=row.subject,
        before=before,
        after=row.rating,
        delta=change.delta,
        k=change.k,
        played_at=played_at,
    )
