"""games/authentication.py: where a token's cached row lives, and the process's own row store."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.core.cache import cache, caches

from games.authentication import _PROCESS_ROWS, ProcessRows, _cache_key, token_owner
from games.models import ApiToken
from games.services import token_create
from games.tokens import token_digest
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def test_with_the_per_process_cache_a_token_row_stays_in_the_process(settings: Any) -> None:
    settings.TUTE_TOKEN_CACHE_SECONDS = 60
    token = token_create(user=PlayerFactory().user)

    assert token_owner(token) is not None

    key = _cache_key(token_digest(token))
    assert _PROCESS_ROWS.get(key) is not None
    assert cache.get(key) is None  # nothing pickled into Django's cache


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

    # then: its row is in the shared cache, not in the process; deleting the token drops it there
    shared = caches["default"]
    assert shared.get(key) is not None and _PROCESS_ROWS.get(key) is None
    ApiToken.objects.filter(digest=token_digest(token)).delete()
    assert shared.get(key) is None
    assert token_owner(token) is None


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_process_row_answers_until_its_seconds_are_over() -> None:
    clock = Clock()
    rows = ProcessRows(clock)
    rows.set("a", (1, "alice"), 10)

    clock.now += 9.9
    assert rows.get("a") == (1, "alice")
    clock.now += 0.1
    assert rows.get("a") is None


def test_a_full_process_store_drops_the_expired_rows_then_the_oldest() -> None:
    clock = Clock()
    rows = ProcessRows(clock)
    rows.MAX_ROWS = 3
    rows.set("old", (1,), 100)
    rows.set("short", (2,), 1)
    rows.set("newer", (3,), 100)
    clock.now += 5  # "short" has expired

    rows.set("fourth", (4,), 100)  # the expired row makes room
    assert [rows.get(k) for k in ("old", "short", "newer", "fourth")] == [(1,), None, (3,), (4,)]

    rows.set("old", (5,), 100)  # set again: now the newest
    rows.set("fifth", (6,), 100)  # full of live rows: the oldest one goes
    assert [rows.get(k) for k in ("old", "newer", "fourth", "fifth")] == [(5,), None, (4,), (6,)]


def test_deleting_process_rows_forgets_them() -> None:
    rows = ProcessRows()
    for key in ("a", "b", "c"):
        rows.set(key, (key,), 60)

    rows.delete("a")
    rows.delete_many(["b", "missing"])

    assert [rows.get(k) for k in ("a", "b", "c")] == [None, None, ("c",)]
