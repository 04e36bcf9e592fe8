"""The bots' event stream (issue 4, games/streams.py): what it tells a bot, in which order, and again
after a reconnection; keep-alive lines when quiet; Redis wake-ups. House bots are played here through
the service (tests/games/test_workers.py plays them in a real worker).
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Generator, Iterator
from typing import Any, cast

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from rest_framework.test import APIClient

import games.tasks
from games.models import Game, Match, Player
from games.services import (
    SeatSpec,
    action_submit,
    bot_create,
    bot_turn_play,
    challenge_accept,
    match_abort,
    match_create,
    match_spec,
    player_for_user,
)
from games.streams import StreamMemory, event_lines, pending_events

Lines = Generator[bytes, None, None]


class NoQueue:
    def delay(self, match_id: int, ply: int) -> None:
        """House bots are played by the tests themselves."""

    def apply_async(self, args: tuple[int, int], **options: Any) -> None:
        """House bots are played by the tests themselves."""


@pytest.fixture(autouse=True)
def no_broker(monkeypatch: pytest.MonkeyPatch, settings: Any) -> None:
    """Nothing leaves this process: no tasks, and streams poll the database (tests may set a Redis)."""
    monkeypatch.setattr(games.tasks, "bot_play_turn", NoQueue())
    settings.TUTE_EVENTS_URL = ""


@pytest.fixture
def owner(db: None) -> Player:
    return player_for_user(user=User.objects.create_user(username="owner"))


@pytest.fixture
def bot(owner: Player) -> tuple[Player, str]:
    """A bot account (not accepting challenges by itself) and its token."""
    return bot_create(owner=owner.user, handle="streamer")


def against_house_bot(owner: Player, bot: Player, *, bot_seat: int) -> Match:
    """Tute 2 with the bot account and a rule house bot; seat 1 (after the dealer, seat 0) acts first."""
    seats = [SeatSpec(bot="rule"), SeatSpec(bot="rule")]
    seats[bot_seat] = SeatSpec(player=bot.handle)
    return match_create(spec=match_spec(created_by=owner, game="tute2", seats=seats))


def connect(player: Player, *, max_seconds: float, keepalive: float) -> Lines:
    """One connection's lines (``event_lines`` is a generator: closing it is dropping the connection)."""
    lines: Any = event_lines(player, max_seconds=max_seconds, keepalive=keepalive)
    return cast(Lines, lines)


def memory() -> StreamMemory:
    return StreamMemory(connected_at=timezone.now())


def decode(line: bytes) -> dict[str, Any]:
    assert line.endswith(b"\n") and line.count(b"\n") == 1, line
    event: dict[str, Any] = json.loads(line)
    return event


def test_a_challenge_then_the_start_then_each_turn_then_the_end(
    owner: Player, bot: tuple[Player, str]
) -> None:
    player, _ = bot
    heard = memory()

    # when: the bot is seated by someone else
    match = against_house_bot(owner, player, bot_seat=1)

    # then: it is challenged, once
    assert pending_events(player, heard) == [
        {"type": "challenge", "match": match.pk, "game": "tute2", "seat": 1, "ply": 0}
    ]
    assert pending_events(player, heard) == []

    # when: it accepts; then: the match starts and it is the bot's turn, with its legal codes and view
    challenge_accept(match_id=match.pk, player=player)
    started, turn = pending_events(player, heard)
    server_seed = Game.objects.get(match=match).server_seed
    assert started == {
        "type": "match_started",
        "match": match.pk,
        "game": "tute2",
        "players": 2,
        "seat": 1,
        "options": Match.objects.get(pk=match.pk).options,
        "seed_sha256": hashlib.sha256(server_seed.encode()).hexdigest(),  # RULES.md 11, before play
    }
    assert turn["type"] == "your_turn" and (turn["match"], turn["ply"]) == (match.pk, 0)
    assert turn["seed_sha256"] == started["seed_sha256"] == turn["view"]["seed_sha256"]
    assert server_seed not in json.dumps(turn)
    assert turn["legal"] and turn["view"]["hand"]
    assert turn["deadline"] is not None
    # the same time format as REST (Z, not +00:00), and the view's per-game count is game_ply (issue 17)
    rest = APIClient().get(f"/api/v1/matches/{match.pk}/").json()["turn_deadline"]
    assert turn["deadline"] == rest and turn["deadline"].endswith("Z")
    assert turn["view"]["game_ply"] == 0 and "ply" not in turn["view"]
    assert pending_events(player, heard) == [], "a turn is told once per connection"

    # when: the bot plays each turn it is told of, and the house bot plays its own
    events = [started, turn]
    for _ in range(500):
        fresh = Match.objects.get(pk=match.pk)
        if fresh.status != Match.Status.IN_PROGRESS:
            break
        if fresh.turn_seat == 1:
            assert turn["ply"] == fresh.ply, "the turn told is the current one"
            action_submit(match_id=match.pk, player=player, code=turn["legal"][0], ply=turn["ply"])
        else:
            bot_turn_play(match_id=match.pk, ply=fresh.ply)
        new = pending_events(player, heard)
        events += new
        turns = [e for e in new if e["type"] == "your_turn"]
        if turns:
            (turn,) = turns
    events += pending_events(player, heard)

    # then: your_turn events with increasing plies, one per move of the bot, then the end, once
    kinds = [e["type"] for e in events]
    assert kinds[0] == "match_started" and kinds[-1] == "match_finished"
    assert set(kinds[1:-1]) == {"your_turn"}
    plies = [e["ply"] for e in events if e["type"] == "your_turn"]
    assert plies == sorted(set(plies))
    assert plies == list(match.actions.filter(seat=1).order_by("ply").values_list("ply", flat=True))
    finished = events[-1]
    assert (finished["match"], finished["status"], finished["reason"]) == (match.pk, "finished", "completed")
    assert finished["result"]["winners"]
    assert pending_events(player, heard) == []


def test_a_reconnection_hears_again_of_the_turn_waiting(owner: Player, bot: tuple[Player, str]) -> None:
    player, _ = bot
    Player.objects.filter(pk=player.pk).update(auto_accept=True)
    match = against_house_bot(owner, Player.objects.get(pk=player.pk), bot_seat=1)

    # given: a connection that told the bot of its turn, then dropped
    first = connect(player, max_seconds=5, keepalive=5)
    assert decode(next(first))["type"] == "hello"
    assert decode(next(first))["type"] == "match_started"
    told = decode(next(first))
    first.close()
    assert (told["type"], told["ply"]) == ("your_turn", 0)

    # when: the bot connects again
    second = connect(player, max_seconds=5, keepalive=5)
    lines = [decode(next(second)) for _ in range(3)]
    second.close()

    # then: it hears of the match and of the same turn again
    assert [e["type"] for e in lines] == ["hello", "match_started", "your_turn"]
    assert lines[1]["match"] == match.pk
    assert lines[2] == told


def test_keepalive_lines_when_nothing_happens(owner: Player, bot: tuple[Player, str]) -> None:
    player, _ = bot

    # when: a connection with nothing to tell, keep-alive every 0.1 s, for 0.65 s
    started = time.monotonic()
    lines = [decode(line) for line in connect(player, max_seconds=0.65, keepalive=0.1)]
    took = time.monotonic() - started

    # then: hello, keep-alive lines, and bye at the end
    kinds = [e["type"] for e in lines]
    assert kinds[0] == "hello" and lines[0]["keepalive"] == 0.1 and lines[0]["player"] == "streamer"
    assert kinds[-1] == "bye" and lines[-1]["reason"] == "max_seconds"
    assert set(kinds[1:-1]) == {"keepalive"}
    assert all(e["time"].endswith("Z") for e in lines[1:-1]), "times as REST writes them"
    assert 4 <= len(kinds) - 2 <= 7
    assert 0.6 <= took < 3


def test_no_keepalive_while_events_flow(owner: Player, bot: tuple[Player, str]) -> None:
    player, _ = bot
    Player.objects.filter(pk=player.pk).update(auto_accept=True)
    against_house_bot(owner, Player.objects.get(pk=player.pk), bot_seat=1)

    # when: a connection whose first look finds events
    lines = connect(player, max_seconds=5, keepalive=0.2)
    kinds = [decode(next(lines))["type"] for _ in range(3)]
    lines.close()

    # then: they come first, without keep-alive lines between them
    assert kinds == ["hello", "match_started", "your_turn"]


def test_the_stream_endpoint_sends_ndjson(owner: Player, bot: tuple[Player, str]) -> None:
    _, token = bot
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")

    # when: the bot connects for one second
    response = client.get("/api/v1/stream/events/", {"max_seconds": 1})

    # then: a stream of JSON lines, not buffered by proxies, from hello to bye
    assert response.status_code == 200
    assert response["Content-Type"] == "application/x-ndjson"
    assert response["Cache-Control"] == "no-cache"
    assert response["X-Accel-Buffering"] == "no"
    assert response.streaming
    events = [decode(line) for line in cast(Any, response).streaming_content]
    assert events[0] == {"type": "hello", "player": "streamer", "keepalive": 15.0}
    assert events[-1] == {"type": "bye", "reason": "max_seconds"}


def test_the_stream_endpoint_needs_a_token(db: None) -> None:
    response = APIClient().get("/api/v1/stream/events/", {"max_seconds": 1})
    assert response.status_code in (401, 403)


@pytest.fixture
def redis_events(redis_url: str, settings: Any) -> Iterator[str]:
    settings.TUTE_EVENTS_URL = redis_url
    yield redis_url


def test_a_redis_wake_up_brings_the_turn_before_the_next_look(
    owner: Player, bot: tuple[Player, str], redis_events: str, django_capture_on_commit_callbacks: Any
) -> None:
    player, _ = bot
    Player.objects.filter(pk=player.pk).update(auto_accept=True)
    # given: the house bot (seat 1) is to act; the bot's stream looks at the database only every 30 s
    match = against_house_bot(owner, Player.objects.get(pk=player.pk), bot_seat=0)
    lines = connect(player, max_seconds=10, keepalive=30)
    try:
        assert [decode(next(lines))["type"] for _ in range(2)] == ["hello", "match_started"]

        # when: the house bot moves, and its commit publishes the wake-up on Redis
        with django_capture_on_commit_callbacks(execute=True):
            house_bot_plays_to_seat_0(match)
        started = time.monotonic()
        event = decode(next(lines))
        took = time.monotonic() - started
    finally:
        lines.close()

    # then: the stream tells the bot at once, not after its 30 s wait
    assert event["type"] == "your_turn" and event["ply"] == Match.objects.get(pk=match.pk).ply
    assert took < 5


def house_bot_plays_to_seat_0(match: Match) -> None:
    """The house bot plays its turns until seat 0 (the bot on the stream) is to act: it may act more than
    once in a row (a swap, a cante)."""
    for _ in range(5):
        fresh = Match.objects.get(pk=match.pk)
        if fresh.turn_seat == 0:
            return
        bot_turn_play(match_id=match.pk, ply=fresh.ply)


def test_a_challenge_called_off_is_not_told_as_started(owner: Player, bot: tuple[Player, str]) -> None:
    player, _ = bot
    heard = memory()
    match = against_house_bot(owner, player, bot_seat=1)
    assert [e["type"] for e in pending_events(player, heard)] == ["challenge"]

    # when: the creator aborts the match before the bot accepted
    match_abort(match_id=match.pk, by=owner)

    # then: the bot hears that it is over, never that it started
    events = pending_events(player, heard)
    assert [e["type"] for e in events] == ["match_finished"]
    assert events[0]["status"] == "aborted"


def test_a_lost_wake_up_costs_seconds_not_the_turn(
    owner: Player, bot: tuple[Player, str], redis_events: str
) -> None:
    player, _ = bot
    Player.objects.filter(pk=player.pk).update(auto_accept=True)
    # given: a stream on Redis wake-ups with a keep-alive every 30 s; the house bot (seat 1) is to act
    match = against_house_bot(owner, Player.objects.get(pk=player.pk), bot_seat=0)
    lines = connect(player, max_seconds=60, keepalive=30)
    try:
        assert [decode(next(lines))["type"] for _ in range(2)] == ["hello", "match_started"]

        # when: the house bot moves and its wake-up is lost (its commit's publish never runs here)
        house_bot_plays_to_seat_0(match)
        started = time.monotonic()
        event = decode(next(lines))
        took = time.monotonic() - started
    finally:
        lines.close()

    # then: the stream's own next look (every LOOK_SECONDS) finds the turn, not the one at its 30 s
    # keep-alive (with a bot's 15 s clock, that wait was the whole turn)
    assert event["type"] == "your_turn" and event["ply"] == Match.objects.get(pk=match.pk).ply
    assert took < 10


def test_a_stream_told_to_stop_says_bye(owner: Player, bot: tuple[Player, str]) -> None:
    player, _ = bot
    stop = threading.Event()
    lines: Any = event_lines(player, max_seconds=30, keepalive=8, stop=stop)
    assert decode(next(lines))["type"] == "hello"

    # when: a newer stream of the same account replaced this one
    stop.set()

    # then: it ends at its next look, with the reason
    assert [decode(line) for line in lines] == [{"type": "bye", "reason": "replaced"}]
