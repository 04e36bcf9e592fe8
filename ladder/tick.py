"""The matchmaker's tick: settle finished ladder matches, start due validations, pair the online bots.

Called by celery beat every ``TUTE_LADDER_TICK_SECONDS`` (tasks.matchmaker_tick). Limits per bot and
per owner (concurrent ladder matches, ladder matches in 24 hours) are settings (README).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone

from games.bots import BOT_LEVELS
from games.models import Match, Player, Seat
from games.services import SeatSpec
from ladder.models import GAMES, BotProfile, LadderMatch, Validation
from ladder.pairing import Candidate, Table, tables_pocha, tables_tute2, tables_tute4
from ladder.selectors import online_since
from ladder.services import (
    ladder_host,
    ladder_match_create,
    ladder_match_finished,
    validations_start_due,
)
from ratings.models import Rating


@dataclass(frozen=True, slots=True)
class TickReport:
    matches: int
    validations: int
    settled: int
    seconds: float


def ladder_tick(*, now: datetime | None = None, rng: random.Random | None = None) -> TickReport:
    """One run of the matchmaker."""
    started = time.perf_counter()
    now = now or timezone.now()
    settled = ladder_matches_settle()
    validations = len(validations_start_due(now=now))
    made = ladder_pair(now=now, rng=rng or random.Random())
    return TickReport(
        matches=made, validations=validations, settled=settled, seconds=time.perf_counter() - started
    )


def ladder_matches_settle() -> int:
    """The backstop for lost ``ladder.match_finished`` messages: ladder matches whose match is over."""
    over = LadderMatch.objects.filter(finished=False, match__finished_at__isnull=False).values_list(
        "match_id", flat=True
    )
    count = 0
    for match_id in list(over[:500]):
        ladder_match_finished(match_id=match_id)
        count += 1
    return count


def ladder_pair(*, now: datetime, rng: random.Random) -> int:
    """Make this tick's ladder matches; the number made.

    Each match is made and committed on its own (``_table_create``), so its bots see it, and its first
    turn's clock runs, as soon as it is made, not when the whole tick is done. Nothing here locks the
    bots' profiles, which their streams and polls keep writing (``bot_seen``): a tick never holds up a
    bot's stream. Ticks running at once (a worker's backlog may deliver two) take turns per match on the
    ladder host's row, where each match re-counts its bots' limits, so the limits hold all the same.
    """
    profiles = list(
        BotProfile.objects.filter(last_seen_at__gte=online_since(now), player__is_bot=True)
        .exclude(ladder_games=[])
        .select_related("player")
        .order_by("pk")
    )
    if not profiles:
        return 0
    players = {p.player_id: p.player for p in profiles}
    validated = set(
        Validation.objects.filter(player_id__in=players, status=Validation.Status.PASSED).values_list(
            "player_id", "game"
        )
    )
    if int(settings.TUTE_LADDER_VALIDATION_MATCHES) == 0:
        validated = {(pid, game) for pid in players for game in GAMES}
    limits = _Limits(now=now, players=players)
    host = ladder_host()
    used: set[int] = set()
    made = 0
    games = list(GAMES)
    rng.shuffle(games)  # no game always gets the bots first
    for game in games:
        eligible = [
            p.player_id
            for p in profiles
            if game in p.ladder_games
            and (p.player_id, game) in validated
            and p.player_id not in used
            and limits.allows(players[p.player_id])
        ]
        if not eligible:
            continue
        candidates = _candidates(game, eligible)
        anchors = _anchor_ratings(game)
        if game == "tute2":
            tables = tables_tute2(candidates, anchors, rng)
        elif game == "tute4":
            tables = tables_tute4(candidates, anchors, settings.TUTE_LADDER_TUTE4_PARTNER, rng)
        else:
            tables = tables_pocha(candidates, anchors, rng)
        for table in tables:
            if not all(limits.allows(players[b]) for b in table.bots):
                continue
            if _table_create(game, table, players, host=host, now=now) is None:
                continue
            for bot in table.bots:
                used.add(bot)
                limits.count(players[bot])
            made += 1
    return made


class _Limits:
    """The ladder's limits per bot and per owner: the ladder matches under way and those of the last
    24 hours, counted in the database for the given bots and their owners, and kept up as matches are
    made."""

    def __init__(self, *, now: datetime, players: dict[int, Player]) -> None:
        since = now - timedelta(days=1)
        owners = {p.owner_id for p in players.values() if p.owner_id is not None}
        rows = LadderMatch.bots.through.objects.filter(laddermatch__kind=LadderMatch.Kind.LADDER).filter(
            Q(laddermatch__created_at__gte=since) | Q(laddermatch__finished=False)
        )
        self.active: Counter[int] = Counter()
        self.day: Counter[int] = Counter()
        self.owner_active: Counter[int] = Counter()
        self.owner_day: Counter[int] = Counter()
        mine = rows.filter(Q(player_id__in=players) | Q(player__owner_id__in=owners))
        for player_id, owner_id, active, day in (
            mine.values_list("player_id", "player__owner_id")
            .annotate(
                active=Count("pk", filter=Q(laddermatch__finished=False)),
                day=Count("pk", filter=Q(laddermatch__created_at__gte=since)),
            )
            # django-stubs does not see annotations on an auto-created through model
            .values_list("player_id", "player__owner_id", "active", "day")  # type: ignore[misc]
        ):
            self.active[player_id], self.day[player_id] = active, day
            self.owner_active[owner_id or 0] += active
            self.owner_day[owner_id or 0] += day

    def allows(self, bot: Player) -> bool:
        owner = bot.owner_id or 0
        return (
            self.active[bot.pk] < settings.TUTE_LADDER_MAX_CONCURRENT
            and self.day[bot.pk] < settings.TUTE_LADDER_MAX_PER_DAY
            and self.owner_active[owner] < settings.TUTE_LADDER_OWNER_MAX_CONCURRENT
            and self.owner_day[owner] < settings.TUTE_LADDER_OWNER_MAX_PER_DAY
        )

    def count(self, bot: Player) -> None:
        owner = bot.owner_id or 0
        self.active[bot.pk] += 1
        self.day[bot.pk] += 1
        self.owner_active[owner] += 1
        self.owner_day[owner] += 1


def _candidates(game: str, player_ids: list[int]) -> list[Candidate]:
    ratings = dict(
        Rating.objects.filter(pool=game, subject__in=[f"player:{pid}" for pid in player_ids]).values_list(
            "subject", "rating"
        )
    )
    last: dict[int, set[str]] = {pid: set() for pid in player_ids}
    recent = (
        LadderMatch.objects.filter(kind=LadderMatch.Kind.LADDER, game=game, bots__in=player_ids)
        .order_by("-created_at")
        .values_list("match_id", flat=True)
        .distinct()[: 4 * len(player_ids)]
    )
    seen: set[int] = set()
    seats = Seat.objects.filter(match_id__in=list(recent)).order_by("-match_id", "index")
    by_match: dict[int, list[str]] = {}
    for match_id, player_id, level in seats.values_list("match_id", "player_id", "bot_level"):
        by_match.setdefault(match_id, []).append(f"player:{player_id}" if player_id else f"house:{level}")
    for match_id in sorted(by_match, reverse=True):  # newest first: each bot's last match only
        subjects = by_match[match_id]
        for pid in player_ids:
            me = f"player:{pid}"
            if pid not in seen and me in subjects:
                seen.add(pid)
                last[pid] = {s for s in subjects if s != me}
    initial = settings.RATINGS_INITIAL
    return [
        Candidate(
            player_id=pid,
            rating=ratings.get(f"player:{pid}", initial),
            last_opponents=frozenset(last[pid]),
        )
        for pid in player_ids
    ]


def _anchor_ratings(game: str) -> dict[str, float]:
    """The house-bot levels (games.bots.BOT_LEVELS, the one list of them) and their ratings."""
    ratings = dict(
        Rating.objects.filter(pool=game, subject__in=[f"house:{level}" for level in BOT_LEVELS]).values_list(
            "subject", "rating"
        )
    )
    return {level: ratings.get(f"house:{level}", settings.RATINGS_INITIAL) for level in BOT_LEVELS}


@transaction.atomic
def _table_create(
    game: str, table: Table, players: dict[int, Player], *, host: Player, now: datetime
) -> Match | None:
    """The table's ladder match, committed on its own; None when a tick running at the same time made
    its bots reach a limit first (re-counted under the ladder host's row lock, which only ticks take)."""
    Player.objects.select_for_update(no_key=True).filter(pk=host.pk).exists()
    bots = {b: players[b] for b in table.bots}
    limits = _Limits(now=now, players=bots)
    if not all(limits.allows(bot) for bot in bots.values()):
        return None
    seats = [
        SeatSpec(player=players[s].handle) if isinstance(s, int) else SeatSpec(bot=s) for s in table.seats
    ]
    return ladder_match_create(game=game, seats=seats, bots=list(bots.values()), host=host)
