"""The ladder end to end: real bot clients (``run_bot`` over HTTP against the live server) and a real
Celery worker (house-bot moves, the ladder's bookkeeping, ratings). The test plays celery beat's part
and runs the matchmaker's tick once a second; everything else happens in the worker and the clients.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from client.tute_client import Event
from games.models import Match
from ladder.models import BotIncident, LadderMatch, Validation
from ladder.tick import ladder_tick
from ratings.models import Rating
from tests.client.conftest import Account, Bots
from tests.workers import TEST_BROKER_DB, Worker, broker_url_for_tests, worker_running

#: This process's broker for real workers (flushed before the module's worker starts).
LADDER_BROKER_DB = TEST_BROKER_DB

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def worker(postgres_required: None, redis_url: str, transactional_db: None) -> Iterator[Worker]:
    with worker_running(broker_url_for_tests(redis_url, LADDER_BROKER_DB), drain_timeout=60.0) as running:
        yield running


def random_move(event: Event) -> str:
    return random.choice(event["legal"])


def one_illegal_move() -> Callable[[Event], str]:
    """A bot that sends one action its hand cannot play, then plays legal moves."""
    sent: list[str] = []

    def choose(event: Event) -> str:
        if not sent:
            sent.append("bid:99")
            return "bid:99"
        return random.choice(event["legal"])

    return choose


def tick_until(condition: Callable[[], bool], *, timeout: float, worker: Worker) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out; worker log:\n{worker.log_tail()}"
        ladder_tick()
        time.sleep(1.0)


def test_new_bots_validate_then_meet_on_the_ladder_and_are_rated(
    worker: Worker,
    person: Callable[[str], Account],
    bot_account: Callable[[Account, str], Account],
    bots: Bots,
    settings: Any,
) -> None:
    settings.TUTE_LADDER_VALIDATION_MATCHES = 2
    owner = person("author")
    good = [bot_account(owner, f"good-{n}") for n in range(2)]
    bad = bot_account(owner, "clumsy")
    for bot in [*good, bad]:
        answer = owner.client.set_ladder_games(bot.handle, ["tute2"])
        assert answer["validation"]["tute2"]["status"] == "pending"
    for bot in good:
        bots.start(bot, random_move)
    bots.start(bad, one_illegal_move())

    # when: the matchmaker runs while the three bots are online
    validations = Validation.objects.filter(game="tute2")
    tick_until(
        lambda: (
            set(validations.values_list("player__handle", "status"))
            == {("good-0", "passed"), ("good-1", "passed"), ("clumsy", "failed")}
        ),
        timeout=300,
        worker=worker,
    )

    # then: the clumsy bot's failure shows the exact request and answer
    failed = validations.get(player=bad.player)
    incident = BotIncident.objects.get(pk=failed.failure_id)
    assert incident.sent == {"action": "bid:99", "ply": incident.ply}
    assert incident.answer["code"] == "illegal_action" and incident.payload["legal"]
    # and: the two validated bots meet on the ladder in a rated match, and are rated in the bot pool
    between = LadderMatch.objects.filter(kind="ladder", bots=good[0].player).filter(bots=good[1].player)
    tick_until(lambda: between.filter(finished=True).exists(), timeout=240, worker=worker)
    match = between.filter(finished=True).first().match  # type: ignore[union-attr]
    assert match.rated and match.status == Match.Status.FINISHED
    assert not LadderMatch.objects.filter(kind="ladder", bots=bad.player).exists()
    tick_until(
        lambda: (
            Rating.objects.filter(pool="tute2", player__in=[g.player for g in good], is_bot=True).count() == 2
        ),
        timeout=60,
        worker=worker,
    )
