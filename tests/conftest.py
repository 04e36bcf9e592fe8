"""Fixtures shared by the whole suite."""

import os

import pytest
from django.db import connection

from tests.services import require_service

DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"


@pytest.fixture
def postgres_required() -> None:
    """For tests whose point is PostgreSQL's behaviour (row locks, concurrency): skip on SQLite."""
    require_service(
        "PostgreSQL",
        connection.vendor == "postgresql",
        f"the default database is {connection.vendor}; set DATABASE_URL=postgres://... to run this test",
    )


@pytest.fixture
def redis_url() -> str:
    """A Redis URL that answers PING: CELERY_BROKER_URL when it is a Redis URL, else the local default."""
    import redis

    broker = os.environ.get("CELERY_BROKER_URL", "")
    url = broker if broker.startswith(("redis://", "rediss://")) else DEFAULT_REDIS_URL
    client = redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1)
    try:
        reachable, reason = bool(client.ping()), ""
    except redis.RedisError as exc:
        reachable, reason = False, f"{url}: {exc}"
    finally:
        client.close()
    require_service("Redis", reachable, reason)
    return url
