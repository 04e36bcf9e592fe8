"""Django's Redis cache, with one Redis client object per connection pool instead of one per operation.

Django's ``RedisCacheClient.get_client`` builds a new ``redis.Redis`` for every cache operation, and that
constructor builds the client's table of response callbacks: with ``CACHE_URL`` set, about 100 µs of
every operation, and every API request makes two (the token's row and the throttle counters; see
docs/PERFORMANCE.md, "API"). A ``redis.Redis`` over a connection pool is safe to share between
threads; this one is built once per pool and kept.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient


class PooledRedisCacheClient(RedisCacheClient):
    def __init__(self, servers: Any, **options: Any) -> None:
        super().__init__(servers, **options)
        self._clients: dict[Any, Any] = {}  # by connection pool (hashed by identity)

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)  # type: ignore[attr-defined]
        client = self._clients.get(pool)
        if client is None:
            client = self._clients[pool] = self._client(connection_pool=pool)  # type: ignore[attr-defined]
        return client


class RedisCache(DjangoRedisCache):
    """``django.core.cache.backends.redis.RedisCache`` with ``PooledRedisCacheClient``."""

    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = PooledRedisCacheClient
