"""Reads of the ladder's rows: which bots are validated, online, and what happened to them."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import QuerySet
from django.utils import timezone

from games.ladder.models import BotIncident, BotProfile, Validation
from games.models import Player


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


def profile_of(*, player: Player) -> BotProfile | None:
    return BotProfile.objects.filter(player=player).first()


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
