"""The shared cache, failing open: a cache outage slows the service down, it never stops it.

What the API keeps in Django's cache (throttle counters, API tokens' rows) is an optimisation or a
limit, never the truth. With ``CACHE_URL`` set, a Redis that is down or unreachable must not turn every
request into an error: each helper here answers as if the cache were empty (a token is read from the
database, a request is not counted) and logs the failure. After a failure the cache is left alone for
``RETRY_SECONDS``, so requests do not each wait for a connection that is refused or times out.
``/health/`` reports the cache as ``degraded`` meanwhile.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.core.cache import cache

log = logging.getLogger(__name__)

#: How long the cache is skipped after a failure before it is tried again.
RETRY_SECONDS = 5.0

_skip_until = 0.0


def _usable() -> bool:
    return time.monotonic() >= _skip_until


def _failed(operation: str, exc: Exception) -> None:
    global _skip_until
    first = _usable()
    _skip_until = time.monotonic() + RETRY_SECONDS
    if first:  # once per outage window, not once per request
        log.warning("cache %s failed (%s): going without the cache for %ss", operation, exc, RETRY_SECONDS)


def cache_get(key: str) -> Any:
    """The cached value, or None when missing or when the cache fails."""
    if not _usable():
        return None
    try:
        return cache.get(key)
    except Exception as exc:  # any failure of the cache backend: go on without it
        _failed("get", exc)
        return None


def cache_set(key: str, value: Any, seconds: float) -> None:
    if not _usable():
        return
    try:
        cache.set(key, value, seconds)
    except Exception as exc:
        _failed("set", exc)


def cache_add(key: str, value: Any, seconds: float) -> bool:
    """Set ``key`` unless it is there already: True when it was set, and when the cache fails (the caller
    then does what the key would have spared it)."""
    if not _usable():
        return True
    try:
        return bool(cache.add(key, value, seconds))
    except Exception as exc:
        _failed("add", exc)
        return True


def cache_delete_many(keys: list[str]) -> None:
    """Forget ``keys``. Unlike a read, a lost delete would leave a stale row for its lifetime: it is
    tried even while the cache is being skipped."""
    try:
        cache.delete_many(keys)
    except Exception as exc:
        _failed("delete", exc)


def cache_count(key: str, seconds: int) -> int | None:
    """Add one to the counter ``key`` (made to live ``seconds`` on its first count); the new count, or
    None when the cache fails (the caller lets the request through: fail open)."""
    if not _usable():
        return None
    try:
        for _ in range(3):
            try:
                return int(cache.incr(key))
            except ValueError:  # the window's first request, or the key just expired
                if cache.add(key, 1, seconds):
                    return 1
        raise RuntimeError(f"the counter {key!r} could neither be added nor incremented")
    except Exception as exc:
        _failed("count", exc)
        return None


def cache_status() -> str:
    """``ok`` when the cache answers a round trip now, ``degraded`` when it does not."""
    try:
        cache.get("tute:health")
    except Exception as exc:
        _failed("health check", exc)
        return "degraded"
    return "ok"
