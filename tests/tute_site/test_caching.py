"""tute_site/caching.py: with CACHE_URL set and Redis down, the API keeps serving (issue 15).

The cache points at a port where nothing listens: every cache call fails as it would in an outage.
Throttling fails open, tokens are read from the database, /health/ says the cache is degraded.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from games.services import token_create
from tests.factories import PlayerFactory
from tute_site import caching

pytestmark = pytest.mark.django_db

#: A local port nothing listens on: connections are refused at once.
DEAD_REDIS = "redis://127.0.0.1:9/0"


@pytest.fixture
def redis_down(settings: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": DEAD_REDIS,
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
    settings.TUTE_TOKEN_CACHE_SECONDS = 60
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", {"user": "5/min", "address": "5/min"})
    monkeypatch.setattr(caching, "_skip_until", 0.0)
    yield
    monkeypatch.setattr(caching, "_skip_until", 0.0)


def test_the_api_keeps_serving_with_its_cache_down(redis_down: None) -> None:
    # given: a bot's token, and a cache that refuses every connection
    player = PlayerFactory()
    client = APIClient(REMOTE_ADDR="10.9.0.1")
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_create(user=player.user)}")

    # when: it calls more often than its limit
    statuses = [client.get("/api/v1/me/").status_code for _ in range(8)]

    # then: every call is answered (the token from the database, the limit not counted)
    assert statuses == [200] * 8
    assert client.get("/api/v1/me/").json()["handle"] == player.handle


def test_anonymous_reads_keep_working_with_the_cache_down(redis_down: None) -> None:
    assert APIClient().get("/api/v1/matches/").status_code == 200


def test_health_reports_the_cache_as_degraded_and_stays_up(redis_down: None) -> None:
    response = Client().get("/health/")

    assert response.status_code == 200
    assert response.json() == {"status": "degraded", "database": "ok", "cache": "degraded"}


def test_health_reports_the_cache_ok_when_it_answers(redis_url: str, settings: Any) -> None:
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": redis_url}
    }

    assert Client().get("/health/").json() == {"status": "ok", "database": "ok", "cache": "ok"}


def test_after_a_failure_the_cache_is_left_alone_for_a_while(
    redis_down: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given: one failed call
    assert caching.cache_get("some-key") is None

    # when: more calls follow at once
    class Recording:
        calls: list[str] = []

        def __getattr__(self, name: str) -> Any:
            self.calls.append(name)
            raise AssertionError("the cache was called")

    recording = Recording()
    monkeypatch.setattr(caching, "cache", recording)

    # then: they do not wait on the dead cache again until RETRY_SECONDS have passed
    assert caching.cache_get("some-key") is None
    assert caching.cache_count("counter", 60) is None
    caching.cache_set("some-key", 1, 60)
    assert recording.calls == []
