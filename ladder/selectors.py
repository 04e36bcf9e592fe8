"""Reads of the ladder's rows: which bots are validated and online, what happened to them, the bot
leaderboard and the authors' status pages."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from games.bots import BOT_LEVELS
from games.engine.rules import side_of
from games.errors import NotABot
from games.models import Action, Match, Player, Seat
from ladder.models import BotIncident, BotProfile, LadderMatch, Validation
from ratings.models import Rating
from ratings.selectors import is_provisional, player_ratings


def validation_required() -> int:
    """Clean validation matches a bot needs per game (``TUTE_LADDER_VALIDATION_MATCHES``; 0: none)."""
    return int(settings.TUTE_LADDER_VALIDATION_MATCHES)


def unvalidated_bots(*, game: str, players: Iterable[Player]) -> list[Player]:
    """The bot accounts among ``players`` that have not passed validation for ``game``."""
    bots = list({p.pk: p for p in players if p.is_bot}.values())
    if not bots or validation_required() == 0:
        return []
    passed = set(
        Validation.objects.filter(player__in=bots, game=game, status=Validation.Status.PASSED).values_list(
            "player_id", flat=True
        )
    )
    return [b for b in bots if b.pk not in passed]


def validations_of(*, player: Player) -> QuerySet[Validation]:
    return Validation.objects.filter(player=player).select_related("failure").order_by("game")


def online_since(now: datetime | None = None) -> datetime:
    """Bots seen after this moment are online."""
    return (now or timezone.now()) - timedelta(seconds=settings.TUTE_LADDER_ONLINE_SECONDS)


def is_online(profile: BotProfile | None, now: datetime | None = None) -> bool:
    return bool(profile and profile.last_seen_at and profile.last_seen_at >= online_since(now))


def incidents_of(*, player: Player, limit: int = 20) -> list[BotIncident]:
    return list(BotIncident.objects.filter(player=player).order_by("-created_at", "-id")[:limit])


def notices_of(*, player: Player, after: int | None = None, limit: int = 100) -> list[BotIncident]:
    """The bot's incidents after the id ``after`` (or of the last five minutes), oldest first."""
    qs = BotIncident.objects.filter(player=player)
    if after is None:
        qs = qs.filter(created_at__gte=timezone.now() - timedelta(minutes=5))
    else:
        qs = qs.filter(pk__gt=after)
    return list(qs.order_by("id")[:limit])


LEADERBOARD_GAMES = ("tute2", "tute4", "pocha")


@dataclass(frozen=True, slots=True)
class BotRow:
    """One line of a game's bot leaderboard: a bot account, or a house-bot level (an anchor)."""

    rank: int
    handle: str | None
    display_name: str
    owner: str | None
    house_bot: str | None
    rating: float
    provisional: bool
    matches: int
    win_share: float | None
    error_rate: float | None
    timeout_rate: float | None
    last_seen: datetime | None
    online: bool


def bot_leaderboard(*, game: str) -> list[BotRow]:
    """The game's rated bot accounts and the house-bot levels, best rating first.

    Rates: ``win_share`` is the share of the bot's finished rated matches of the game its side won;
    ``error_rate`` refused actions per turn and ``timeout_rate`` turns lost to the clock per turn (a
    turn: an action it played, one played for it on timeout, or a refused one).
    """
    ratings = list(
        Rating.objects.filter(pool=game)
        .filter(Q(is_bot=True, player__isnull=False) | Q(house_bot__in=BOT_LEVELS))
        .select_related("player", "player__owner", "player__ladder")
        .order_by("-rating", "subject")
    )
    rated_levels = {r.house_bot for r in ratings if r.player_id is None}
    unplayed = [
        # Every level is an anchor of the ladder, played or not (docs/BOTS.md): one without a rating
        # row yet stands at the starting rating with no matches, as any competitor starts.
        Rating(pool=game, subject=f"house:{level}", house_bot=level, rating=settings.RATINGS_INITIAL)
        for level in BOT_LEVELS
        if level not in rated_levels
    ]
    if unplayed:
        ratings = sorted([*ratings, *unplayed], key=lambda r: (-r.rating, r.subject))
    bot_ids = [r.player_id for r in ratings if r.player_id is not None]
    moves = dict(
        Action.objects.filter(player_id__in=bot_ids, match__game=game, kind=Action.Kind.MOVE)
        .values_list("player_id")
        .annotate(n=Count("id"))
        .values_list("player_id", "n")
    )
    incidents: Counter[tuple[int, str]] = Counter()
    for player_id, kind, n in (
        BotIncident.objects.filter(player_id__in=bot_ids, match__game=game)
        .values_list("player_id", "kind")
        .annotate(n=Count("id"))
        .values_list("player_id", "kind", "n")
    ):
        incidents[(player_id, kind)] = n
    wins = _win_shares(game, bot_ids)
    rows = []
    for rank, rating in enumerate(ratings, start=1):
        player = rating.player
        if player is None:
            rows.append(
                BotRow(
                    rank=rank,
                    handle=None,
                    display_name=f"house bot: {rating.house_bot}",
                    owner=None,
                    house_bot=rating.house_bot,
                    rating=rating.rating,
                    provisional=is_provisional(rating),
                    matches=rating.rated_matches,
                    win_share=None,
                    error_rate=None,
                    timeout_rate=None,
                    last_seen=None,
                    online=True,
                )
            )
            continue
        illegal = incidents[(player.pk, BotIncident.Kind.ILLEGAL)]
        timeouts = incidents[(player.pk, BotIncident.Kind.TIMEOUT)]
        turns = moves.get(player.pk, 0) + illegal + timeouts
        profile = getattr(player, "ladder", None) if _has_profile(player) else None
        rows.append(
            BotRow(
                rank=rank,
                handle=player.handle,
                display_name=player.display_name,
                owner=player.owner.get_username() if player.owner else None,
                house_bot=None,
                rating=rating.rating,
                provisional=is_provisional(rating),
                matches=rating.rated_matches,
                win_share=wins.get(player.pk),
                error_rate=illegal / turns if turns else 0.0,
                timeout_rate=timeouts / turns if turns else 0.0,
                last_seen=profile.last_seen_at if profile else None,
                online=is_online(profile),
            )
        )
    return rows


def _has_profile(player: Player) -> bool:
    try:
        player.ladder  # noqa: B018  (select_related filled it, or there is none)
    except BotProfile.DoesNotExist:
        return False
    return True


def _win_shares(game: str, bot_ids: list[int]) -> dict[int, float]:
    seats = Seat.objects.filter(
        player_id__in=bot_ids, match__game=game, match__rated=True, match__status=Match.Status.FINISHED
    ).values_list("player_id", "index", "match__result")
    played: Counter[int] = Counter()
    won: Counter[int] = Counter()
    for player_id, index, result in seats:
        side = side_of(game, index)
        played[player_id] += 1
        if result and side in result.get("winners", []):
            won[player_id] += 1
    return {pid: won[pid] / n for pid, n in played.items()}


def bot_status(*, bot: Player) -> dict[str, Any]:
    """What the bot's author sees: online or not, validation, current matches, recent errors (with the
    turn it had, what it sent and what it got) and its rating history per pool."""
    profile = BotProfile.objects.filter(player=bot).first()
    current = (
        Seat.objects.filter(player=bot, match__status__in=[Match.Status.OPEN, Match.Status.IN_PROGRESS])
        .select_related("match")
        .order_by("-match_id")
    )
    kinds = dict(
        LadderMatch.objects.filter(match_id__in=[s.match_id for s in current]).values_list("match_id", "kind")
    )
    return {
        "handle": bot.handle,
        "display_name": bot.display_name,
        "online": is_online(profile),
        "last_seen": profile.last_seen_at if profile else None,
        "games": list(profile.ladder_games) if profile else [],
        "validation": list(validations_of(player=bot)),
        "current_matches": [
            {
                "match": seat.match_id,
                "game": seat.match.game,
                "kind": kinds.get(seat.match_id, "other"),
                "rated": seat.match.rated,
                "status": seat.match.status,
                "seat": seat.index,
                "ply": seat.match.ply,
                "your_turn": seat.match.turn_seat == seat.index,
                "deadline": seat.match.turn_deadline if seat.match.turn_seat == seat.index else None,
                "timeouts": seat.timeouts,
                "max_timeouts": seat.match.max_timeouts,
            }
            for seat in current
        ],
        "recent_errors": incidents_of(player=bot),
        "ratings": [
            {
                "pool": entry["rating"].pool,
                "rating": entry["rating"].rating,
                "matches": entry["rating"].rated_matches,
                "provisional": is_provisional(entry["rating"]),
                "history": entry["history"],
            }
            for entry in player_ratings(player=bot)
        ],
    }


def bot_for_author(*, user: Any, handle: str) -> Player:
    """The bot ``handle`` when ``user`` owns it or is it; else not found, as if it did not exist."""
    bot = Player.objects.filter(handle=handle, is_bot=True).first()
    if bot is None or not user.is_authenticated or (bot.owner_id != user.pk and bot.user_id != user.pk):
        raise NotABot()
    return bot
