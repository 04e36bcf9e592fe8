"""A no-op Celery task for bench/bots.py, which starts its worker with ``-I bench.noop_tasks``.

The task does nothing but say it ran: it pushes a token onto a Redis list that the benchmark waits on
(BLPOP), so that its round trip (publish, delivery, run, acknowledgement's start) can be timed without a
result backend, which would change what the worker does for every bot turn too.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task

_clients: dict[str, Any] = {}


@shared_task(name="bench.noop")
def noop(done_key: str, redis_url: str, token: str) -> None:
    client = _clients.get(redis_url)
    if client is None:
        import redis

        client = _clients[redis_url] = redis.Redis.from_url(redis_url)
    client.rpush(done_key, token)
