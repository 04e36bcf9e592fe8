"""``Authorization: Token <token>`` for bots and apps, against tokens stored as SHA-256 digests."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from django.utils import timezone
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions

from games.models import ApiToken
from games.tokens import token_digest
from tute_site.caching import cache_delete_many, cache_get, cache_set

LAST_USED_RESOLUTION = timedelta(minutes=5)


def _cache_key(digest: str) -> str:
    return f"tute:token:{digest}"


def token_owner(token: str) -> ApiToken | None:
    """The token's row with its user and the user's player (``select_related``, one query).

    A bot calls several times a move, so the row is kept in Django's cache for
    ``TUTE_TOKEN_CACHE_SECONDS`` (0: never). Deleting a token or saving its account drops it at once.
    When the cache fails, the row is read from the database (``tute_site.caching``).
    """
    digest = token_digest(token)
    seconds = settings.TUTE_TOKEN_CACHE_SECONDS
    api_token: ApiToken | None = cache_get(_cache_key(digest)) if seconds > 0 else None
    if api_token is None:
        api_token = ApiToken.objects.select_related("user__player").filter(digest=digest).first()
        if api_token is None:
            return None
        if seconds > 0:
            cache_set(_cache_key(digest), api_token, seconds)
    return api_token


def _forget(keys: list[str]) -> None:
    """Drop the cached rows now, and again after commit: a request in between may cache them again."""
    cache_delete_many(keys)
    transaction.on_commit(lambda: cache_delete_many(keys))


@receiver(post_delete, sender=ApiToken, dispatch_uid="games.token_forget")
def token_forget(sender: type[ApiToken], instance: ApiToken, **kwargs: Any) -> None:
    """However a token is deleted (rotation, the admin, its account deleted), the cache forgets it."""
    _forget([_cache_key(instance.digest)])


@receiver(post_save, sender=User, dispatch_uid="games.token_forget_user")
def tokens_of_user_forget(sender: type[User], instance: User, created: bool, **kwargs: Any) -> None:
    """An account changed (deactivated, say): its tokens' cached rows go, so the change holds at once."""
    if created:
        return
    keys = [_cache_key(d) for d in ApiToken.objects.filter(user=instance).values_list("digest", flat=True)]
    if keys:
        _forget(keys)


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's token scheme (``Authorization: Token <token>``) against the digests of ``ApiToken``."""

    def authenticate_credentials(self, key: str) -> tuple[User, ApiToken]:
        api_token = token_owner(key)
        if api_token is None or not api_token.user.is_active:
            raise exceptions.AuthenticationFailed("Invalid or revoked token.")
        now = timezone.now()
        if api_token.last_used_at is None or now - api_token.last_used_at > LAST_USED_RESOLUTION:
            ApiToken.objects.filter(pk=api_token.pk).update(last_used_at=now)  # one write per few minutes
            _forget([_cache_key(api_token.digest)])  # its cached row holds the old time
        return api_token.user, api_token


class TokenAuthenticationScheme(OpenApiAuthenticationExtension):
    """Documents the token scheme in the OpenAPI schema."""

    target_class = "games.authentication.TokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "`Token <token>`: a bot's token (POST /api/v1/bots/) or a personal one.",
        }
