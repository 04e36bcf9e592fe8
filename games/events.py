"""Wake-ups for event streams.

The database is the truth: a stream derives its events (your turn, match started, finished) from the
rows, so nothing is lost when a message is. Redis pub/sub only tells a waiting stream to look again at
once; without Redis (the embedded default) streams look every ``POLL_SECONDS``.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Protocol

from django.conf import settings
from django.db import transaction

from games.models import Match, Seat

log = logging.getLogger(__name__)

POLL_SECONDS = 1.0


def channel(player_id: int) -> str:
    return f"tute:player:{player_id}"


def match_channel(match_id: int) -> str:
    """One match's channel: the match page's live stream (players and spectators) listens here."""
    return f"tute:match:{match_id}"


#: The lobby's channel: its stream (open tables, seeks) looks again when a table's seats or a seek change.
LOBBY_CHANNEL = "tute:lobby"


def events_url() -> str | None:
    url: str = getattr(settings, "TUTE_EVENTS_URL", "") or ""
    return url if url.startswith(("redis://", "rediss://")) else None


def publish_match_event(match: Match, seats: list[Seat]) -> None:
    """After this transaction commits, wake the streams of every player seated in ``match`` and the
    match's own stream (its page's watchers)."""
    url = events_url()
    if url is None:
        return
    player_ids = [s.player_id for s in seats if s.player_id is not None]
    message = f"{match.pk}:{match.ply}"
    match_id = match.pk
    # A table's seats change, it starts or it is called off before its first action: the lobby looks again.
    lobby = match.ply == 0 and not match.managed

    def send() -> None:
        import redis

        try:
            with _publisher(url).pipeline(transaction=False) as pipe:
                pipe.publish(match_channel(match_id), message)
                for player_id in player_ids:
                    pipe.publish(channel(player_id), message)
                if lobby:
                    pipe.publish(LOBBY_CHANNEL, message)
                pipe.execute()
        except redis.RedisError:  # a missed wake-up only delays a stream until its next poll
            log.warning("could not publish a match event for match %s", match.pk, exc_info=True)

    transaction.on_commit(send)


def publish_lobby_event(player_ids: list[int] | None = None) -> None:
    """After this transaction commits, wake the lobby's streams (a seek came, went or was paired) and
    the streams of ``player_ids``."""
    url = events_url()
    if url is None:
        return
    ids = list(player_ids or [])

    def send() -> None:
        import redis

        try:
            with _publisher(url).pipeline(transaction=False) as pipe:
                pipe.publish(LOBBY_CHANNEL, "seeks")
                for player_id in ids:
                    pipe.publish(channel(player_id), "seeks")
                pipe.execute()
        except redis.RedisError:
            log.warning("could not publish a lobby event", exc_info=True)

    transaction.on_commit(send)


@functools.cache
def _publisher(url: str) -> Any:
    """One client per process and URL: its pool keeps the connection open between moves (a new TCP
    connection a move cost a worker about a millisecond); redis-py renews the pool after a fork."""
    import redis

    return redis.Redis.from_url(url, socket_timeout=1, socket_connect_timeout=1, health_check_interval=30)


#: How long a new stream waits for Redis to confirm its subscription before its first look.
SUBSCRIBE_SECONDS = 2.0


class Waiter(Protocol):
    def wait(self, timeout: float) -> bool:
        """Until a wake-up (True) or ``timeout`` seconds (False)."""
        ...


class _Sleeper:
    def wait(self, timeout: float) -> bool:
        time.sleep(min(timeout, POLL_SECONDS))
        return False


class _RedisWaiter:
    def __init__(self, pubsub: object) -> None:
        self.pubsub = pubsub

    def wait(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            message = self.pubsub.get_message(ignore_subscribe_messages=True, timeout=min(left, 5.0))  # type: ignore[attr-defined]
            if message is not None:
                # Drain what else is queued: one look at the database answers them all.
                while self.pubsub.get_message(ignore_subscribe_messages=True, timeout=0):  # type: ignore[attr-defined]
                    pass
                return True
        return False


@contextmanager
def waiter_for(player_id: int) -> Iterator[Waiter]:
    """Something to wait on until the player's matches may have changed, or the timeout passes."""
    with waiter_on(channel(player_id)) as waiter:
        yield waiter


@contextmanager
def waiter_on(name: str) -> Iterator[Waiter]:
    """Something to wait on until a message on channel ``name``, or the timeout passes.

    The subscription is live (Redis confirmed it) when this returns: a caller that looks at the database
    next misses nothing, since whatever commits after its look is published to a channel it is on.
    """
    url = events_url()
    if url is None:
        yield _Sleeper()
        return
    import redis

    client = redis.Redis.from_url(url, socket_timeout=10)
    pubsub = client.pubsub()
    try:
        pubsub.subscribe(name)
        if not _confirmed(pubsub, SUBSCRIBE_SECONDS):
            log.warning("Redis did not confirm the subscription to %s in %.0f s", name, SUBSCRIBE_SECONDS)
    except redis.RedisError:
        log.warning("event wake-ups unavailable, polling instead", exc_info=True)
        client.close()
        yield _Sleeper()
        return
    try:
        yield _RedisWaiter(pubsub)
    finally:
        pubsub.close()
        client.close()


def _confirmed(pubsub: Any, timeout: float) -> bool:
    """Wait for Redis's answer to SUBSCRIBE: until Redis has run it, a PUBLISH from another connection may
    reach nobody (redis-py sends the command and returns without waiting)."""
    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        message = pubsub.get_message(timeout=left)
        if message is not None and message.get("type") == "subscribe":
            return True
    return False
