"""tute_site/cache.py: Django's Redis cache with one client object per connection pool."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from django.core.cache.backends.redis import RedisCache as DjangoRedisCache

from tute_site.cache import RedisCache


@pytest.fixture
def prefix() -> str:
    return f"test-cache-{uuid.uuid4().hex}"


@pytest.fixture
def pooled(redis_url: str, prefix: str) -> Iterator[RedisCache]:
    cache = RedisCache(redis_url, {"KEY_PREFIX": prefix})
    yield cache
    cache.delete_many(["a", "n", "gone"])


def test_every_operation_shares_one_client_and_one_pool(pooled: RedisCache) -> None:
    first = pooled._cache.get_client(write=True)

    pooled.set("a", {"row": (1, "alice")}, 60)
    assert pooled.get("a") == {"row": (1, "alice")}

    assert pooled._cache.get_client() is first
    assert pooled._cache.get_client(write=True) is first
    assert list(pooled._cache._pools.values()) == [first.connection_pool]


def test_it_reads_and_writes_what_djangos_redis_cache_does(
    pooled: RedisCache, redis_url: str, prefix: str
) -> None:
    django_cache = DjangoRedisCache(redis_url, {"KEY_PREFIX": prefix})

    pooled.set("a", [1, "dos", 3.0], 60)
    django_cache.set("n", 41, 60)
    assert pooled.incr("n") == 42
    assert pooled.add("gone", 1, 60) and not pooled.add("gone", 2, 60)
    pooled.delete("gone")

    assert django_cache.get("a") == [1, "dos", 3.0]
    assert django_cache.get("n") == 42
    assert django_cache.get("gone") is None
