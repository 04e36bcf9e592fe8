"""Fixtures for the bot client's tests: a live server, accounts made by the services, bots in threads.

The client is tested over real HTTP against pytest-django's ``live_server`` (a threaded WSGI server in
this process), so the tests need committed data: ``django_db(transaction=True)``. Event streams poll the
database every ``games.events.POLL_SECONDS`` without Redis and wake on Redis pub/sub with it (CI); here
the poll is made short so that a match of two streaming bots takes seconds either way.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from rest_framework.throttling import SimpleRateThrottle

from client.tute_client import Event, TuteClient, run_bot
from games import states
from games.models import Player
from games.services import bot_create, player_for_user, token_create

#: How long a bot's stream connection lasts before the server says bye (and the bot reconnects): short,
#: so that a stopped bot's stream ends on the server soon after.
STREAM_SECONDS = 4.0


@pytest.fixture(autouse=True)
def _fresh_process_state(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Empty throttle counters and engine-state cache, no rate limits, quick stream polls."""
    cache.clear()
    with states._STATES_LOCK:
        states._STATES.clear()
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", {"user": "100000/min", "address": "100000/min"})
    monkeypatch.setattr("games.events.POLL_SECONDS", 0.05)
    yield
    cache.clear()


@pytest.fixture
def server(live_server: Any) -> Iterator[str]:
    """The live server's URL; afterwards, waits for its request threads (streams) to end.

    A stream outlives its client by at most ``STREAM_SECONDS``; waiting for it keeps a test's requests
    from reaching into the next test's database (and lets PostgreSQL drop the test database at the end).
    """
    yield str(live_server.url)
    deadline = time.monotonic() + STREAM_SECONDS + 10
    for thread in threading.enumerate():
        if "process_request_thread" in thread.name:
            thread.join(max(0.0, deadline - time.monotonic()))


@dataclass
class Account:
    """A person or a bot account, its player and a client signed in with its token."""

    user: User
    player: Player
    client: TuteClient

    @property
    def handle(self) -> str:
        return self.player.handle


@pytest.fixture
def person(server: str) -> Callable[[str], Account]:
    def make(username: str) -> Account:
        user = User.objects.create_user(username=username)
        player = player_for_user(user=user)
        return Account(user=user, player=player, client=TuteClient(server, token_create(user=user)))

    return make


@pytest.fixture
def bot_account(server: str) -> Callable[[Account, str], Account]:
    def make(owner: Account, handle: str) -> Account:
        bot, token = bot_create(owner=owner.user, handle=handle)
        return Account(user=bot.user, player=bot, client=TuteClient(server, token))

    return make


@dataclass
class RunningBot:
    """A bot played by ``run_bot`` in a thread; ``events`` is what its stream delivered, in order."""

    account: Account
    thread: threading.Thread
    events: list[Event] = field(default_factory=list)
    error: list[BaseException] = field(default_factory=list)

    def saw(self, kind: str, match_id: int) -> list[Event]:
        return [e for e in list(self.events) if e.get("type") == kind and e.get("match") == match_id]


class Bots:
    """Starts bots in daemon threads; ``stop_all`` (run at teardown too) stops and joins them."""

    def __init__(self) -> None:
        self.stop = threading.Event()
        self.running: list[RunningBot] = []

    def start(
        self,
        account: Account,
        choose: Callable[[Event], str],
        *,
        client: TuteClient | None = None,
        target: Callable[..., None] | None = None,
        **options: Any,
    ) -> RunningBot:
        bot = RunningBot(account=account, thread=threading.Thread())
        options.setdefault("stream_seconds", STREAM_SECONDS)
        options.setdefault("reconnect_delay", 0.1)

        def play() -> None:
            try:
                if target is not None:
                    target(stop=self.stop, on_event=bot.events.append, **options)
                else:
                    run_bot(
                        client or account.client,
                        choose,
                        stop=self.stop,
                        on_event=bot.events.append,
                        **options,
                    )
            except BaseException as exc:  # reported by the test, not lost in the thread
                bot.error.append(exc)

        bot.thread = threading.Thread(target=play, name=f"bot {account.handle}", daemon=True)
        bot.thread.start()
        self.running.append(bot)
        return bot

    def wait_for(self, condition: Callable[[], bool], *, timeout: float = 90.0) -> None:
        """Wait until ``condition()``; fail at once when a bot thread failed, or after ``timeout``."""
        deadline = time.monotonic() + timeout
        while not condition():
            errors = [e for bot in self.running for e in bot.error]
            assert not errors, errors
            if time.monotonic() > deadline:
                seen = {bot.account.handle: Counter(e["type"] for e in bot.events) for bot in self.running}
                raise AssertionError(f"timed out waiting for the bots; they heard {seen}")
            time.sleep(0.05)

    def stop_all(self) -> None:
        self.stop.set()
        for bot in self.running:
            bot.thread.join(timeout=30)
        alive = [bot.account.handle for bot in self.running if bot.thread.is_alive()]
        assert not alive, f"bot threads still running: {alive}"


@pytest.fixture
def bots(server: str) -> Iterator[Bots]:
    runner = Bots()
    try:
        yield runner
    finally:
        runner.stop_all()
