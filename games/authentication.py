"""``Authorization: Token <token>`` for bots and apps, against tokens stored as SHA-256 digests."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import timedelta
from threading import Lock
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.cache import DEFAULT_CACHE_ALIAS, caches
from django.core.cache.backends.base import BaseCache
from django.core.cache.backends.locmem import LocMemCache
from django.db import DEFAULT_DB_ALIAS, connection, connections, transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from django.utils import timezone
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import HTTP_HEADER_ENCODING, authentication, exceptions
from rest_framework.request import Request

from games.models import ApiToken, Player
from games.rows import RowReader
from games.tokens import token_digest

LAST_USED_RESOLUTION = timedelta(minutes=5)

_TOKEN_ROW = RowReader(ApiToken, ["id", "user_id", "prefix", "created_at", "last_used_at"])
_USER_ROW = RowReader(User, ["id", "username", "is_active", "is_staff", "is_superuser"])
_PLAYER_ROW = RowReader(
    Player, ["id", "user_id", "handle", "display_name", "is_bot", "owner_id", "auto_accept"]
)
_TOKEN_USER = ApiToken._meta.get_field("user")
_PLAYER_USER = Player._meta.get_field("user")
_TOKEN_SQL: list[str] = []


def _token_sql() -> str:
    """Every API request of a bot or an app runs this: one hand-written query for the token, its user
    and the user's player, where the ORM's compilation of a three-table select cost several times the
    database's work."""
    if not _TOKEN_SQL:
        _TOKEN_SQL.append(
            f"SELECT {_TOKEN_ROW.columns('t')}, {_USER_ROW.columns('u')}, {_PLAYER_ROW.columns('p')} "
            f"FROM {ApiToken._meta.db_table} t "
            f"JOIN {User._meta.db_table} u ON u.id = t.user_id "
            f"LEFT JOIN {Player._meta.db_table} p ON p.user_id = u.id "
            "WHERE t.digest = %s"
        )
    return _TOKEN_SQL[0]


def _cache_key(digest: str) -> str:
    return f"tute:token:{digest}"


class ProcessRows:
    """Token rows kept in this process's memory for a number of seconds each.

    Used where Django's cache is the per-process one (no ``CACHE_URL``): the same reach and lifetime as
    that cache, without pickling the row and checking its key on every API request.
    """

    MAX_ROWS = 10_000

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._rows: dict[str, tuple[float, tuple[Any, ...]]] = {}
        self._lock = Lock()
        self._clock = clock

    def get(self, key: str) -> tuple[Any, ...] | None:
        entry = self._rows.get(key)
        if entry is None or entry[0] <= self._clock():
            return None
        return entry[1]

    def set(self, key: str, row: tuple[Any, ...], seconds: float) -> None:
        with self._lock:
            now = self._clock()
            if len(self._rows) >= self.MAX_ROWS:
                for stale in [k for k, (until, _) in self._rows.items() if until <= now]:
                    del self._rows[stale]
                while len(self._rows) >= self.MAX_ROWS:  # then the oldest
                    del self._rows[next(iter(self._rows))]
            self._rows.pop(key, None)  # a row set again counts as the newest
            self._rows[key] = (now + seconds, row)

    def delete(self, key: str) -> None:
        with self._lock:  # not while set() walks the rows to make room
            self._rows.pop(key, None)

    def delete_many(self, keys: list[str]) -> None:
        for key in keys:
            self.delete(key)


_PROCESS_ROWS = ProcessRows()


def _token_rows() -> ProcessRows | BaseCache:
    """Where token rows are cached: in the process when Django's cache is per-process anyway, else in
    the shared cache, from which deleting a row reaches every process at once."""
    shared = caches[DEFAULT_CACHE_ALIAS]
    return _PROCESS_ROWS if isinstance(shared, LocMemCache) else shared


def token_owner(token: str) -> tuple[User, ApiToken] | None:
    """The token's user, with ``user.player`` already loaded when it has one.

    The row is kept for ``TUTE_TOKEN_CACHE_SECONDS`` (a bot calls several times a move): in the shared
    cache with ``CACHE_URL``, else in the process (``ProcessRows``). Deleting a token or saving its
    account (deactivating it, say) drops the cached row at once, in every process when the cache is
    shared; without it, other processes may answer from their copy for up to that many seconds.
    """
    digest = token_digest(token)
    seconds = settings.TUTE_TOKEN_CACHE_SECONDS
    rows = _token_rows()
    row = rows.get(_cache_key(digest)) if seconds > 0 else None
    if row is None:
        with connection.cursor() as cursor:
            cursor.execute(_token_sql(), [digest])
            row = cursor.fetchone()
        if row is None:
            return None
        if seconds > 0:
            rows.set(_cache_key(digest), tuple(row), seconds)
    a = _TOKEN_ROW.width
    b = a + _USER_ROW.width
    db = connections[DEFAULT_DB_ALIAS]  # resolved once, not on every attribute of the proxy
    api_token, user = _TOKEN_ROW.read(row[:a], db), _USER_ROW.read(row[a:b], db)
    assert api_token is not None and user is not None
    _TOKEN_USER.set_cached_value(api_token, user)
    player = _PLAYER_ROW.read(row[b:], db)
    if player is not None:  # as select_related fills a one-to-one: both ways
        _PLAYER_USER.set_cached_value(player, user)
        _PLAYER_USER.remote_field.set_cached_value(user, player)
    return user, api_token


@receiver(post_delete, sender=ApiToken, dispatch_uid="games.token_forget")
def token_forget(sender: type[ApiToken], instance: ApiToken, **kwargs: Any) -> None:
    """However a token is deleted (rotation, the admin, its account deleted), the cache forgets it
    once the deleting transaction commits."""
    key, rows = _cache_key(instance.digest), _token_rows()
    rows.delete(key)  # now, and again after commit: a request in between may have cached it again
    transaction.on_commit(lambda: rows.delete(key))


@receiver(post_save, sender=User, dispatch_uid="games.token_forget_user")
def tokens_of_user_forget(sender: type[User], instance: User, created: bool, **kwargs: Any) -> None:
    """An account changed (deactivated, say): its tokens' cached rows go, so the change holds at once."""
    if created:
        return
    keys = [_cache_key(d) for d in ApiToken.objects.filter(user=instance).values_list("digest", flat=True)]
    if keys:
        rows = _token_rows()
        rows.delete_many(keys)
        transaction.on_commit(lambda: rows.delete_many(keys))


def _authorization(request: Request) -> bytes:
    """The Authorization header as bytes, read from ``META``: DRF's helper goes through
    ``request.headers``, which copies every header of the request on first use, for one of them."""
    value = request.META.get("HTTP_AUTHORIZATION", b"")
    return value.encode(HTTP_HEADER_ENCODING) if isinstance(value, str) else value


class TokenAuthentication(authentication.BaseAuthentication):
    keyword = "Token"

    def authenticate(self, request: Request) -> tuple[Any, ApiToken] | None:
        header = _authorization(request).split()
        if not header or header[0].lower() != self.keyword.lower().encode():
            return None
        if len(header) != 2:
            raise exceptions.AuthenticationFailed("Invalid token header: use 'Authorization: Token <token>'.")
        try:
            token = header[1].decode()
        except UnicodeError:
            raise exceptions.AuthenticationFailed("Invalid token header: the token is not text.") from None
        found = token_owner(token)
        if found is None or not found[0].is_active:
            raise exceptions.AuthenticationFailed("Invalid or revoked token.")
        user, api_token = found
        now = timezone.now()
        if api_token.last_used_at is None or now - api_token.last_used_at > LAST_USED_RESOLUTION:
            ApiToken.objects.filter(pk=api_token.pk).update(last_used_at=now)  # one write per few minutes
            _token_rows().delete(_cache_key(token_digest(token)))  # its cached row holds the old time
        return user, api_token

    def authenticate_header(self, request: Request) -> str:
        return self.keyword


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
