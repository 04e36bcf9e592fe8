"""Players, bot accounts and API tokens."""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.text import slugify

from games.errors import HandleTaken, MatchNotOpen, NotABot, NotInvited, NotSeated, PeopleOnly, TokenNotFound
from games.models import ApiToken, Match, Player, Seat
from games.services.seating import challenge_accept
from games.tokens import token_digest
from tute_site.caching import cache_add

TOKEN_BYTES = 32


@transaction.atomic
def player_for_user(*, user: User) -> Player:
    """The user's player, made on first use with a handle derived from the username.

    Safe under parallel first requests: a losing insert (the user's player, or the handle, taken a
    moment earlier) is rolled back to its savepoint and the winner's row is read, or the next handle tried.
    """
    base = slugify(user.get_username())[:24] or "player"
    for suffix in range(1, 1000):
        existing = Player.objects.filter(user=user).first()
        if existing is not None:
            return existing
        handle = base if suffix == 1 else f"{base}-{suffix}"
        if Player.objects.filter(handle=handle).exists():
            continue
        try:
            with transaction.atomic():
                return Player.objects.create(user=user, handle=handle, display_name=user.get_username())
        except IntegrityError:
            continue
    raise HandleTaken(f"No free handle left for {user.get_username()!r}.")


def require_person(user: User) -> None:
    """Only people own bots, clubs and personal tokens: a bot account (acting with its token) is refused,
    so it can neither chain bots its owner cannot see nor mint tokens outliving a rotation."""
    if Player.objects.filter(user=user, is_bot=True).exists():
        raise PeopleOnly()


@transaction.atomic
def token_create(*, user: User) -> str:
    """A new personal API token for the person ``user``; only its digest is kept, so this is the one time
    it is seen. A bot account's tokens come from its owner (``bot_create``, ``bot_token_rotate``)."""
    require_person(user)
    return _new_token(user)


def _new_token(user: User) -> str:
    token = secrets.token_urlsafe(TOKEN_BYTES)
    ApiToken.objects.create(user=user, digest=token_digest(token), prefix=token[:8])
    return token


@transaction.atomic
def token_revoke(*, user: User, token_id: int) -> None:
    """Delete one of ``user``'s own tokens; it stops working at once (games.authentication drops it from
    the cache). Another account's token is not found, as if it did not exist."""
    require_person(user)
    deleted, _ = ApiToken.objects.filter(pk=token_id, user=user).delete()
    if not deleted:
        raise TokenNotFound()


@transaction.atomic
def bot_create(*, owner: User, handle: str, display_name: str = "") -> tuple[Player, str]:
    """A bot account owned by the person ``owner`` and its first token (returned once)."""
    require_person(owner)
    if Player.objects.filter(handle=handle).exists():
        raise HandleTaken(f"The handle {handle!r} is taken.")
    user_model = get_user_model()
    try:
        with transaction.atomic():
            user = user_model.objects.create_user(username=f"bot-{handle}")
    except IntegrityError:
        raise HandleTaken(f"The handle {handle!r} is taken.") from None
    user.set_unusable_password()
    user.save(update_fields=["password"])
    bot = Player.objects.create(
        user=user, handle=handle, display_name=display_name or handle, is_bot=True, owner=owner
    )
    return bot, _new_token(user)


@transaction.atomic
def bot_token_rotate(*, owner: User, handle: str) -> str:
    """Revoke every token of the owner's bot ``handle`` and return a new one (shown once)."""
    require_person(owner)
    bot = Player.objects.filter(handle=handle, is_bot=True, owner=owner).select_for_update().first()
    if bot is None:
        raise NotABot()
    ApiToken.objects.filter(user=bot.user).delete()  # games.authentication drops them from the cache
    return _new_token(bot.user)


@transaction.atomic
def bot_settings_update(*, owner: User, handle: str, auto_accept: bool | None = None) -> Player:
    """Change a bot's settings: for now, whether it accepts every challenge at once (switched on, that
    includes the challenges already waiting for it)."""
    require_person(owner)
    bot = Player.objects.filter(handle=handle, is_bot=True, owner=owner).select_for_update().first()
    if bot is None:
        raise NotABot()
    if auto_accept is not None:
        bot.auto_accept = auto_accept
        bot.save(update_fields=["auto_accept"])
        if auto_accept:
            _accept_waiting_challenges(bot)
    return bot


def _accept_waiting_challenges(bot: Player) -> None:
    """Accept the challenges the bot has not answered yet. Without this a challenge that came before
    auto-accept was switched on stayed pending: auto-accept acts when a match is created, and a bot
    relying on it (a polling one, say) never answers one itself."""
    waiting = (
        Seat.objects.filter(player=bot, accepted=False, match__status=Match.Status.OPEN)
        .order_by("match_id")
        .values_list("match_id", flat=True)
    )
    for match_id in list(waiting):
        try:
            challenge_accept(match_id=match_id, player=bot)  # a savepoint of its own
        except (MatchNotOpen, NotInvited, NotSeated):
            continue  # answered, declined or called off meanwhile


#: A person's presence is written at most this often (a cache key says it was written lately).
SEEN_EVERY_SECONDS = 10


def player_seen(*, user_id: int) -> None:
    """The person is here now (a page, a poll, a stream): their ``last_seen_at``, which says who is online
    and who is away from their table. One UPDATE per person per ``SEEN_EVERY_SECONDS`` at most; when the
    cache is down, every call writes (a cheap conditional update), never an error."""
    now = timezone.now()
    if not cache_add(f"tute:seen:{user_id}", 1, SEEN_EVERY_SECONDS):
        return
    Player.objects.filter(user_id=user_id).filter(
        Q(last_seen_at__isnull=True) | Q(last_seen_at__lt=now - timedelta(seconds=SEEN_EVERY_SECONDS / 2))
    ).update(last_seen_at=now)
