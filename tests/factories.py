"""factory_boy factories for the games app.

People and bot accounts are plain rows (nothing about them needs a service), but matches are made by the
services, the only writers of matches, seats and games: ``MatchFactory`` calls ``match_create``, so a
match built here is one the server could have built (seats checked, game dealt when full, bots queued).
"""

from __future__ import annotations

import secrets
from typing import Any

import factory
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import User
from django.utils import timezone

from games.models import ApiToken, Game, Match, Player
from games.services import SeatSpec, match_create, match_spec, token_create
from games.tokens import token_digest
from ladder.models import GAMES, Validation
from ratings.models import LevelRating


class UserFactory(factory.django.DjangoModelFactory[User]):
    class Meta:
        model = User
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    # An unusable password: hashing a real one costs ~0.3 s; tests sign in with force_login or a token.
    password = factory.LazyFunction(lambda: make_password(None))


class PlayerFactory(factory.django.DjangoModelFactory[Player]):
    class Meta:
        model = Player

    user = factory.SubFactory(UserFactory)
    handle = factory.Sequence(lambda n: f"player-{n}")
    display_name = factory.LazyAttribute(lambda p: f"Player {p.handle}")
    is_bot = False
    owner = None


class BotPlayerFactory(PlayerFactory):
    """A bot account: a Player marked as a bot, owned by a person."""

    class Meta:
        skip_postgeneration_save = True

    handle = factory.Sequence(lambda n: f"bot-{n}")
    is_bot = True
    owner = factory.SubFactory(UserFactory)

    @factory.post_generation
    def validated(obj: Player, create: bool, extracted: bool | None, **kwargs: Any) -> None:
        """A bot that passed validation for every game (``validated=False``: a new bot)."""
        if create and extracted is not False:
            for game in GAMES:
                Validation.objects.create(
                    player=obj, game=game, status=Validation.Status.PASSED, required=0, passed=0
                )


class MatchFactory(factory.Factory[Match]):
    """A match made by ``match_create``. ``seats`` takes SeatSpecs, Players, house-bot levels or None.

    ``MatchFactory(game="tute2")`` is an open match with its creator at seat 0;
    ``MatchFactory(game="tute2", seats=[p0, p1])`` starts at once, every seat taken.
    """

    class Meta:
        model = Match

    created_by = factory.SubFactory(PlayerFactory)
    game = "tute2"
    players = None
    options = factory.LazyFunction(dict)
    format = Match.Format.SINGLE
    format_target = 1
    seats = None
    rated = True

    @classmethod
    def _create(cls, model_class: type[Match], *args: Any, **kwargs: Any) -> Match:
        seats = kwargs.pop("seats")
        if seats is not None:
            kwargs["seats"] = [seat_spec(seat) for seat in seats]
        return match_create(spec=match_spec(*args, **kwargs))


def seat_spec(seat: SeatSpec | Player | str | None) -> SeatSpec:
    """A Player sits there; a string is a house bot's level; None leaves the seat empty."""
    if isinstance(seat, SeatSpec):
        return seat
    if isinstance(seat, Player):
        return SeatSpec(player=seat.handle)
    if isinstance(seat, str):
        return SeatSpec(bot=seat)
    return SeatSpec()


def token_for(player: Player) -> str:
    """A fresh API token for the player's account (the service returns it once; the DB keeps a digest).

    A bot's tokens come from its owner's service, which keeps one at a time; here a further one is
    stored as that service would, so a test may hold several."""
    if not player.is_bot:
        return token_create(user=player.user)
    token = secrets.token_urlsafe(32)
    ApiToken.objects.create(user=player.user, digest=token_digest(token), prefix=token[:8])
    return token


def current_game(match: Match) -> Game | None:
    """The match's game being played (or the last one), as the database has it now."""
    return Game.objects.filter(match_id=match.pk).order_by("-number").first()


class LevelRatingFactory(factory.django.DjangoModelFactory[LevelRating]):
    """A house level's measured rating, as ``manage.py rate_levels`` leaves it (a given, in tests of what
    reads it; the command's own tests play for theirs)."""

    class Meta:
        model = LevelRating
        django_get_or_create = ("level", "pool")

    level = "rule"
    pool = "tute2"
    rating = 1500.0
    deals = 200
    against = ""
    share = None
    measured_at = factory.LazyFunction(timezone.now)
