"""games/authentication.py: a token's row with its user and player in one query, kept a few seconds in
Django's cache, dropped at once when the token or its account changes, read from the database when the
cache fails."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.core.cache import cache, caches
from rest_framework.test import APIClient

from games.authentication import _cache_key, token_owner
from games.models import ApiToken
from games.services import bot_create, bot_token_rotate, token_create
from games.tokens import token_digest
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def empty_cache() -> None:
    cache.clear()


def test_a_token_brings_its_user_and_player_in_one_statement(django_assert_num_queries: Any) -> None:
    player = PlayerFactory()
    token = token_create(user=player.user)

    with django_assert_num_queries(1):
        api_token = token_owner(token)
        assert api_token is not None
        user = api_token.user
        assert (user.pk, user.username, user.is_active) == (player.user.pk, player.user.username, True)
        assert user.player.pk == player.pk and user.player.handle == player.handle
        assert api_token.last_used_at is None

    assert token_owner(token + "x") is None


def test_a_cached_token_answers_without_the_database(settings: Any, django_assert_num_queries: Any) -> None:
    settings.TUTE_TOKEN_CACHE_SECONDS = 60
    player = PlayerFactory()
    token = token_create(user=player.user)
    token_owner(token)

    with django_assert_num_queries(0):
        api_token = token_owner(token)
        assert api_token is not None and api_token.user.player.handle == player.handle


def test_with_the_cache_off_every_call_reads_the_database(
    settings: Any, django_assert_num_queries: Any
) -> None:
    settings.TUTE_TOKEN_CACHE_SECONDS = 0
    token = token_create(user=PlayerFactory().user)
    token_owner(token)

    with django_assert_num_queries(1):
        assert token_owner(token) is not None


def test_a_rotated_token_is_refused_at_once_although_tokens_are_cached(
    settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    # given: a bot's token, used once (so its row is in the cache)
    settings.TUTE_TOKEN_CACHE_SECONDS = 60
    owner = PlayerFactory()
    bot, old = bot_create(owner=owner.user, handle="cached-bot")
    assert token_owner(old) is not None

    # when: the owner rotates it
    with django_capture_on_commit_callbacks(execute=True):
        new = bot_token_rotate(owner=owner.user, handle="cached-bot")

    # then: the old token is unknown at once, the new one works
    assert token_owner(old) is None
    found = token_owner(new)
    assert found is not None and found.user.player.pk == bot.pk


def test_a_deactivated_account_is_refused_at_once_although_its_token_was_cached(settings: Any) -> None:
    settings.TUTE_TOKEN_CACHE_SECONDS = 60
    player = PlayerFactory()
    token = token_create(user=player.user)
    assert token_owner(token) is not None

    player.user.is_active = False
    player.user.save()

    found = token_owner(token)
    assert found is not None and found.user.is_active is False
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert client.get("/api/v1/me/").status_code == 401


def test_with_a_shared_cache_a_token_row_goes_there_and_leaves_it_with_the_token(
    settings: Any, redis_url: str
) -> None:
    # given: Django's cache on Redis, as with CACHE_URL
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": redis_url,
            "KEY_PREFIX": f"test-tokens-{uuid.uuid4().hex}",
        }
    }
    settings.TUTE_TOKEN_CACHE_SECONDS = 60
    token = token_create(user=PlayerFactory().user)
    key = _cache_key(token_digest(token))

    # when: the token is used
    assert token_owner(token) is not None

    # then: its row is in the shared cache; deleting the token drops it there
    shared = caches["default"]
    assert shared.get(key) is not None
    ApiToken.objects.filter(digest=token_digest(token)).delete()
    assert shared.get(key) is None
    assert token_owner(token) is None
