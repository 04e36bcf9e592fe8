"""The only writers of ratings: apply a finished match once, or rebuild everything from history."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime

from django.conf import settings
from django.db import OperationalError, transaction
from django.db.models import Q, QuerySet

from games.models import Game, Match, Seat
from ratings.elo import Standing
from ratings.facts import Change, Competitor, MatchFacts, house_subject, player_subject, policy, rate
from ratings.models import Rating, RatingChange

log = logging.getLogger(__name__)


def rateable_matches() -> QuerySet[Match]:
    """Finished, rated matches in finishing order: the order ratings are applied in."""
    return Match.objects.filter(status=Match.Status.FINISHED, rated=True).order_by("finished_at", "id")


def facts_for(match: Match, seats: list[Seat], games: list[Game]) -> MatchFacts | None:
    """The match as Elo sees it; None when it cannot be rated (not finished, unrated, an empty seat)."""
    if match.status != Match.Status.FINISHED or not match.rated or match.result is None:
        return None
    competitors = []
    for seat in sorted(seats, key=lambda s: s.index):
        if seat.player_id is not None:
            is_bot = bool(seat.player.is_bot) if seat.player is not None else False
            competitors.append(Competitor(player_subject(seat.player_id), seat.player_id, "", is_bot))
        elif seat.bot_level:
            competitors.append(Competitor(house_subject(seat.bot_level), None, seat.bot_level, True))
        else:
            return None
    totals = [0.0] * len(competitors)
    for game in games:
        if game.status == Game.Status.FINISHED and game.result and match.game == Match.GameName.POCHA:
            for seat_index, score in enumerate(game.result["scores"]):
                totals[seat_index] += score
    conceded = match.result.get("conceded_by")
    if conceded is not None and match.game == Match.GameName.POCHA:
        totals[conceded] = float("-inf")  # who resigns or forfeits finishes last
    return MatchFacts(
        match_id=match.pk,
        game=match.game,
        seats=tuple(competitors),
        winners=tuple(match.result["winners"]),
        totals=tuple(totals),
    )


@transaction.atomic
def match_ratings_apply(*, match_id: int) -> int:
    """Apply a finished match's rating changes exactly once; returns how many were written (0: none due).

    The competitors' rating rows are locked in one fixed order (pool, subject), so two matches of the
    same player finishing together wait for each other instead of deadlocking or losing an update.
    """
    match = Match.objects.filter(pk=match_id).first()
    if match is None or RatingChange.objects.filter(match_id=match_id).exists():
        return 0
    seats = list(match.seats.select_related("player"))
    facts = facts_for(match, seats, list(match.games.all()))
    if facts is None:
        return 0
    keys = _competitor_keys(facts)
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
    if RatingChange.objects.filter(match_id=match_id).exists():  # a twin delivery got here first
        return 0
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
    Rating.objects.bulk_update(list(rows.values()), ["rating", "rated_matches", "last_played_at"])
    RatingChange.objects.bulk_create(records)
    return len(records)


def match_ratings_apply_pending(*, match_id: int) -> int:
    """Apply ``match_id`` after any rated match that finished before it and is still unrated.

    Tasks may run out of order; applying the backlog first keeps ratings in finishing order, which is
    the order a recompute uses.
    """
    match = Match.objects.filter(pk=match_id).only("finished_at").first()
    if match is None or match.finished_at is None:
        return 0
    pending = (
        rateable_matches()
        .filter(Q(finished_at__lt=match.finished_at) | Q(finished_at=match.finished_at, id__lte=match_id))
        .exclude(rating_changes__isnull=False)
        .values_list("id", flat=True)
    )
    applied = 0
    for pending_id in list(pending):
        if pending_id == match_id:
            applied += match_ratings_apply(match_id=pending_id)
            continue
        try:  # an earlier match that cannot be rated must not hold up this one
            applied += match_ratings_apply(match_id=pending_id)
        except OperationalError:
            raise  # a passing database fault: the task retries, keeping the finishing order
        except Exception:
            log.exception("rating match %s (before match %s) failed", pending_id, match_id)
    return applied


@transaction.atomic
def ratings_recompute(*, batch_size: int = 2000) -> tuple[int, int]:
    """Rebuild every rating and change from the match history, in finishing order.

    Returns (matches rated, changes written). Runs in memory with the same Elo code as the incremental
    path, then replaces the tables in one transaction.
    """
    k_policy = policy()
    ratings: dict[tuple[str, str], Rating] = {}
    records: list[tuple[tuple[str, str], RatingChange]] = []
    seats_by_match: dict[int, list[Seat]] = {}
    games_by_match: dict[int, list[Game]] = {}
    matches = list(rateable_matches())
    ids = [m.pk for m in matches]
    for chunk in _chunks(ids, 5000):
        for seat in Seat.objects.filter(match_id__in=chunk).select_related("player"):
            seats_by_match.setdefault(seat.match_id, []).append(seat)
        if any(m.game == Match.GameName.POCHA for m in matches):
            for game in Game.objects.filter(match_id__in=chunk, match__game=Match.GameName.POCHA).only(
                "match_id", "status", "result"
            ):
                games_by_match.setdefault(game.match_id, []).append(game)
    rated = 0
    for match in matches:
        facts = facts_for(match, seats_by_match.get(match.pk, []), games_by_match.get(match.pk, []))
        if facts is None:
            continue
        for (pool, subject), (_, competitor, partner) in _competitor_keys(facts).items():
            if (pool, subject) not in ratings:
                ratings[(pool, subject)] = _new_rating(pool, competitor, partner)
        changes = rate(facts, lambda pool, subject: _standing(ratings[(pool, subject)]), k_policy)
        played_at = match.finished_at
        assert played_at is not None
        for change in changes:
            row = ratings[(change.pool, change.competitor.subject)]
            before = row.rating
            row.rating = before + change.delta
            row.rated_matches += 1
            row.last_played_at = played_at
            records.append(((row.pool, row.subject), _record(match.pk, row, change, before, played_at)))
        rated += 1
    RatingChange.objects.all().delete()
    Rating.objects.all().delete()
    Rating.objects.bulk_create(ratings.values(), batch_size=batch_size)
    saved = {(r.pool, r.subject): r.pk for r in Rating.objects.only("pk", "pool", "subject")}
    for key, record in records:
        record.rating_id = saved[key]
    RatingChange.objects.bulk_create([record for _, record in records], batch_size=batch_size)
    return rated, len(records)


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


def _chunks(items: list[int], size: int) -> Iterable[list[int]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]
