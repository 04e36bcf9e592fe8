"""Caps on open streams (tute_site/streams.py): per account, per address, per process; slots come back
when a stream closes, and expire when the process holding them died."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from rest_framework.test import APIClient

import tute_site.streams as streams
from games.models import Match, Player
from games.services import match_create, match_spec
from tests.factories import BotPlayerFactory, PlayerFactory, token_for

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_slots_left_over(settings: Any) -> Iterator[None]:
    settings.TUTE_EVENTS_URL = ""  # streams poll the database; no Redis wake-ups needed here
    cache.clear()
    streams._process_open.clear()
    yield
    cache.clear()
    streams._process_open.clear()


def bot_client(bot: Player, address: str = "192.0.2.1") -> APIClient:
    client = APIClient(REMOTE_ADDR=address)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(bot)}")
    return client


def open_stream(client: APIClient) -> Any:
    return client.get("/api/v1/stream/events/", {"max_seconds": 60})


def test_an_account_holds_a_few_streams_and_the_next_gets_429(settings: Any) -> None:
    settings.TUTE_STREAMS_PER_ACCOUNT = 3
    bot = BotPlayerFactory()
    client = bot_client(bot)

    # when: the bot opens three streams and keeps them, then a fourth
    held = [open_stream(client) for _ in range(3)]
    refused = open_stream(client)

    # then: three streams, then 429 in the error shape, with when to try again
    assert [r.status_code for r in held] == [200, 200, 200]
    assert refused.status_code == 429
    assert refused.json() == {
        "code": "too_many_streams",
        "message": "This account has 3 streams open already: close one first.",
        "detail": {"scope": "account", "limit": 3},
    }
    assert int(refused["Retry-After"]) > 0

    # when: one stream closes, another may open
    held[0].close()
    assert open_stream(client).status_code == 200


def test_an_address_holds_its_share_whoever_connects(settings: Any) -> None:
    settings.TUTE_STREAMS_PER_ACCOUNT = 3
    settings.TUTE_STREAMS_PER_ADDRESS = 2
    bots = [BotPlayerFactory() for _ in range(3)]

    answers = [open_stream(bot_client(b, address="198.51.100.4")) for b in bots]
    elsewhere = open_stream(bot_client(bots[2], address="198.51.100.5"))

    assert [r.status_code for r in answers] == [200, 200, 429]
    assert answers[2].json()["detail"] == {"scope": "address", "limit": 2}
    assert elsewhere.status_code == 200


def test_a_process_keeps_threads_for_requests(settings: Any) -> None:
    # given: a process that may hold two streams
    settings.TUTE_STREAMS_PER_PROCESS = 2
    bots = [BotPlayerFactory() for _ in range(3)]
    answers = [open_stream(bot_client(b, address=f"192.0.2.{i}")) for i, b in enumerate(bots)]

    # then: the third is refused with 503, and ordinary requests are answered
    assert [r.status_code for r in answers] == [200, 200, 503]
    assert answers[2].json()["code"] == "streams_busy"
    assert answers[2]["Retry-After"] == "1"  # a process's cap frees up as soon as one of its streams ends
    assert Client().get("/health/").status_code == 200
    assert bot_client(bots[2]).get("/api/v1/me/").status_code == 200


def test_a_bot_reconnecting_to_a_full_process_takes_its_own_streams_slot(settings: Any) -> None:
    # given: a process that may hold two streams, holding one of each of two bots
    settings.TUTE_STREAMS_PER_PROCESS = 2
    settings.TUTE_STREAMS_PER_ACCOUNT = 3
    first, other, third = BotPlayerFactory(), BotPlayerFactory(), BotPlayerFactory()
    old = open_stream(bot_client(first))
    kept = open_stream(bot_client(other))
    old_lines = iter(old.streaming_content)
    assert json.loads(next(old_lines))["type"] == "hello"

    # when: the first bot connects again (its old stream not closed yet), and a third bot tries
    new = open_stream(bot_client(first))
    third_client = bot_client(third)
    refused = open_stream(third_client)

    # then: the bot's new stream is served, its old one ends with bye, and other accounts are still refused
    assert [old.status_code, kept.status_code, new.status_code] == [200, 200, 200]
    assert refused.status_code == 503 and refused.json()["code"] == "streams_busy"
    rest = [json.loads(line) for line in old_lines]  # read to its end: the response is closed
    assert rest[-1] == {"type": "bye", "reason": "replaced"}
    # the old stream's end gave back no slot it no longer held: the process is still full
    assert open_stream(third_client).status_code == 503
    new.close()
    assert open_stream(third_client).status_code == 200


def test_a_refused_stream_takes_no_slot(settings: Any) -> None:
    settings.TUTE_STREAMS_PER_ACCOUNT = 1
    settings.TUTE_STREAMS_PER_ADDRESS = 5
    bot = BotPlayerFactory()
    client = bot_client(bot)
    first = open_stream(client)
    for _ in range(5):
        assert open_stream(client).status_code == 429

    # then: the refusals took no address slot: another account from the same address streams
    assert first.status_code == 200
    assert open_stream(bot_client(BotPlayerFactory())).status_code == 200


def test_the_match_pages_live_feed_is_capped_by_address(settings: Any) -> None:
    settings.TUTE_STREAMS_PER_ADDRESS = 2
    match = match_create(spec=match_spec(created_by=PlayerFactory(), game="tute2"))
    assert match.status == Match.Status.OPEN
    browser = Client(REMOTE_ADDR="203.0.113.50")

    answers = [browser.get(f"/matches/{match.pk}/events/") for _ in range(3)]

    assert [r.status_code for r in answers] == [200, 200, 429]
    assert answers[2].json()["code"] == "too_many_streams"


def test_a_stream_read_to_its_end_gives_its_slots_back(settings: Any) -> None:
    settings.TUTE_STREAMS_PER_ACCOUNT = 1
    client = bot_client(BotPlayerFactory())

    done = client.get("/api/v1/stream/events/", {"max_seconds": 1})
    lines = list(done.streaming_content)

    assert lines[-1].startswith(b'{"type":"bye"')
    assert open_stream(client).status_code == 200


@pytest.fixture
def redis_cache(redis_url: str, settings: Any) -> Iterator[None]:
    """The account and address slots in a real Redis (what CACHE_URL gives a deployment)."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": redis_url,
            "KEY_PREFIX": f"test-streams-{uuid.uuid4().hex}",
        }
    }
    yield


def test_slots_held_by_a_dead_process_expire(
    redis_cache: None, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given: a process took the account's only slot and died without giving it back
    settings.TUTE_STREAMS_PER_ACCOUNT = 1
    settings.TUTE_STREAMS_PER_PROCESS = 0
    monkeypatch.setattr(streams, "LEASE_SECONDS", 1)
    streams.stream_lease(account=42, address="192.0.2.9")
    with pytest.raises(streams.TooManyStreams):
        streams.stream_lease(account=42, address="192.0.2.10")

    # when: its lease runs out
    time.sleep(2.2)

    # then: the slot is free again
    streams.stream_lease(account=42, address="192.0.2.11").release()


def test_an_open_stream_renews_its_slots(
    redis_cache: None, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.TUTE_STREAMS_PER_ACCOUNT = 1
    settings.TUTE_STREAMS_PER_PROCESS = 0
    monkeypatch.setattr(streams, "LEASE_SECONDS", 2)
    monkeypatch.setattr(streams, "RENEW_SECONDS", 0.5)
    lease = streams.stream_lease(account=7, address="192.0.2.20")

    # when: the stream keeps writing past its first lease
    for _ in range(6):
        time.sleep(0.6)
        lease.renew()

    # then: its slot is still its own
    with pytest.raises(streams.TooManyStreams):
        streams.stream_lease(account=7, address="192.0.2.21")
    lease.release()
    streams.stream_lease(account=7, address="192.0.2.22").release()
