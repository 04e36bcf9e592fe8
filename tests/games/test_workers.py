"""House bots in a real Celery worker (issue 4): real Redis, a real worker process, PostgreSQL.

The worker is a subprocess (``tests/workers.py``) on the test database and on Redis database
``TEST_BROKER_DB``; this process publishes there too. The tests commit (``transaction=True``), since the
worker only sees committed rows and the services queue bot turns only when their transaction commits.
Without PostgreSQL or Redis they skip with the reason; with TUTE_REQUIRE_SERVICES=1 they fail instead.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any, cast

import psycopg
import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Action, Match, Player
from games.services import SeatSpec, bot_create, match_create, match_spec, player_for_user, token_create
from tests.workers import (
    UNACKED_KEY,
    Worker,
    broker_backlog,
    broker_url_for_tests,
    database_url,
    flush_broker,
    lock_waiters,
    play_through_api,
    publishing_to,
    redis_client,
    task_results,
    terminate_backends,
    wait_for,
)

pytestmark = pytest.mark.django_db(transaction=True)

#: Generous bounds: a bot move takes milliseconds; these only keep a broken run from hanging.
MATCH_SECONDS = 60.0
DRAIN_SECONDS = 20.0


class WorkerSlot:
    """The one worker of this module at a time; the broker's database is flushed before the first."""

    def __init__(self) -> None:
        self.worker: Worker | None = None
        self.flushed = False

    def running(self, broker_url: str) -> Worker:
        if self.worker is not None and self.worker.alive:
            return self.worker
        return self.start(broker_url)

    def start(self, broker_url: str) -> Worker:
        self.stop()
        if not self.flushed:
            flush_broker(broker_url)  # only before any worker or producer of this module used it
            self.flushed = True
        self.worker = Worker(database_url=database_url(connection.settings_dict), broker_url=broker_url)
        return self.worker.start()

    def stop(self) -> None:
        if self.worker is not None:
            self.worker.stop()
            terminate_backends(self.worker.name)
            self.worker = None


@pytest.fixture(scope="module")
def slot(django_db_blocker: Any) -> Iterator[WorkerSlot]:
    holder = WorkerSlot()
    yield holder
    with django_db_blocker.unblock():
        holder.stop()  # before pytest-django drops the test database, which no session may hold


@pytest.fixture
def broker(postgres_required: None, redis_url: str, settings: Any) -> Iterator[str]:
    """The test broker (Redis database TEST_BROKER_DB), where this process's Celery app publishes."""
    url = broker_url_for_tests(redis_url)
    settings.TUTE_EVENTS_URL = url  # event streams here wake on the worker's publications
    with publishing_to(url):
        yield url


@pytest.fixture
def worker(broker: str, slot: WorkerSlot, transactional_db: None) -> Iterator[Worker]:
    running = slot.running(broker)
    yield running
    # Leave nothing queued for the next test, whose rows are new (and before the tables are emptied),
    # and no task may have failed.
    if slot.worker is not None and slot.worker.alive:
        wait_for(
            "the broker to drain (no message queued or unacknowledged)",
            lambda: broker_backlog(broker) == (0, 0),
            timeout=DRAIN_SECONDS,
            log=slot.worker.log_tail,
        )
    assert not games_task_failures(broker), "games tasks failed in the worker"


def games_task_failures(broker: str) -> dict[str, str]:
    """Tracebacks of the games tasks (bot turns, sweeps) that failed in the worker; forgets all results.

    Other apps' tasks (ratings, ...) run in the same worker; their failures are theirs to test.
    """
    return {
        task_id: meta["traceback"]
        for task_id, meta in task_results(broker, forget=True).items()
        if meta["status"] != "SUCCESS" and "games/tasks.py" in (meta.get("traceback") or "")
    }


def new_player(name: str) -> tuple[Player, str]:
    user = User.objects.create_user(username=name)
    return player_for_user(user=user), token_create(user=user)


def api_client(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def assert_one_action_per_ply(match: Match) -> list[Action]:
    actions = list(Action.objects.filter(match=match).order_by("ply"))
    assert [a.ply for a in actions] == list(range(match.ply)), "every ply has exactly one action"
    return actions


def test_a_tute4_match_with_three_house_bots_and_a_player_finishes(worker: Worker) -> None:
    # given: a person at seat 0 and three house bots; the bots play in the worker
    person, token = new_player("person")
    match = match_create(
        spec=match_spec(
            created_by=person,
            game="tute4",
            seats=[
                SeatSpec(player=person.handle),
                SeatSpec(bot="rule"),
                SeatSpec(bot="random"),
                SeatSpec(bot="rule"),
            ],
        )
    )
    client = api_client(token)
    rng = random.Random(4)

    # when: the person polls its view and plays a legal card whenever it is its turn
    moves = play_through_api(client, match.pk, rng=rng, timeout=MATCH_SECONDS, log=worker.log_tail)

    # then: it finished, the person's moves are its own and every other move is a house bot's
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.finish_reason == "completed"
    assert match.result is not None and match.result["winners"]
    actions = assert_one_action_per_ply(match)
    assert {(a.seat, a.kind) for a in actions} == {
        (0, Action.Kind.MOVE),
        (1, Action.Kind.HOUSE_BOT),
        (2, Action.Kind.HOUSE_BOT),
        (3, Action.Kind.HOUSE_BOT),
    }
    assert sum(a.seat == 0 for a in actions) == moves
    assert all(a.player_id == person.pk for a in actions if a.seat == 0)


def test_the_event_stream_delivers_your_turn_in_order(worker: Worker) -> None:
    # given: a bot account that accepts every challenge, connected to its event stream
    owner, _ = new_player("owner")
    bot, token = bot_create(owner=owner.user, handle="streamer")
    Player.objects.filter(pk=bot.pk).update(auto_accept=True)
    client = api_client(token)
    response = client.get("/api/v1/stream/events/", {"max_seconds": MATCH_SECONDS})
    assert response.status_code == 200
    assert response["Content-Type"] == "application/x-ndjson"
    lines = iter(
        cast(Any, response).streaming_content
    )  # the stream's generator runs here, as in a web thread
    assert json.loads(next(lines))["type"] == "hello"

    # when: someone seats it with three house bots, and it plays every your_turn it is sent
    match = match_create(
        spec=match_spec(
            created_by=owner,
            game="tute4",
            seats=[
                SeatSpec(player="streamer"),
                SeatSpec(bot="rule"),
                SeatSpec(bot="random"),
                SeatSpec(bot="rule"),
            ],
        )
    )
    rng = random.Random(7)
    events: list[dict[str, Any]] = []
    try:
        for raw in lines:
            event = json.loads(raw)
            if event["type"] == "keepalive":
                continue
            assert event["type"] != "bye", f"the stream ended before the match did: {events}"
            events.append(event)
            if event["type"] == "your_turn":
                answer = client.post(
                    f"/api/v1/matches/{match.pk}/actions/",
                    {"action": rng.choice(event["legal"]), "ply": event["ply"]},
                    format="json",
                )
                assert answer.status_code == 200, (event["ply"], answer.content)
            elif event["type"] == "match_finished":
                break
    finally:
        response.close()  # ends the generator: it unsubscribes and closes its Redis connection

    # then: match_started, then one your_turn per turn of the bot, plies increasing, then the end
    assert [e["type"] for e in events[:1]] == ["match_started"]
    assert events[0]["match"] == match.pk and events[0]["seat"] == 0
    turns = [e for e in events if e["type"] == "your_turn"]
    plies = [e["ply"] for e in turns]
    assert plies == sorted(plies) and len(set(plies)) == len(plies), plies
    assert all(e["match"] == match.pk and e["legal"] and e["view"] for e in turns)
    assert events[-1]["type"] == "match_finished"
    assert events[-1]["reason"] == "completed"
    assert [e["type"] for e in events[1:-1]] == ["your_turn"] * len(turns)
    match.refresh_from_db()
    actions = assert_one_action_per_ply(match)
    assert [a.ply for a in actions if a.seat == 0] == plies  # every turn of the bot was sent, once


def test_a_bot_task_delivered_twice_plays_once(worker: Worker, broker: str) -> None:
    from games.tasks import bot_play_turn

    # given: a Tute 2 match whose house bot (seat 1, the mano) is to act at ply 0: its task is queued
    person, _ = new_player("person")
    match = match_create(
        spec=match_spec(
            created_by=person, game="tute2", seats=[SeatSpec(player=person.handle), SeatSpec(bot="rule")]
        )
    )

    # when: the same turn is delivered twice more
    copies = [f"duplicate-{match.pk}-{n}" for n in range(2)]
    for task_id in copies:
        bot_play_turn.apply_async((match.pk, 0), task_id=task_id)

    # then: every copy ran without error, and the bot played until the person's turn, each ply once
    def copies_done() -> dict[str, dict[str, Any]] | None:
        if broker_backlog(broker) != (0, 0) or Match.objects.get(pk=match.pk).turn_seat != 0:
            return None
        results = task_results(broker)
        return results if all(task_id in results for task_id in copies) else None

    results = wait_for(
        "the worker to run both copies and reach the person's turn",
        copies_done,
        timeout=DRAIN_SECONDS,
        log=worker.log_tail,
    )
    assert results is not None
    assert [results[task_id]["status"] for task_id in copies] == ["SUCCESS", "SUCCESS"]
    match.refresh_from_db()
    actions = assert_one_action_per_ply(match)
    assert match.ply >= 1
    assert Action.objects.filter(match=match, ply=0).count() == 1
    assert all(a.seat == 1 and a.kind == Action.Kind.HOUSE_BOT for a in actions)


def test_a_turn_lost_with_a_killed_worker_is_played_once_by_the_next_worker(
    broker: str, slot: WorkerSlot, transactional_db: None
) -> None:
    from tute_site.celery import app

    # given: no worker running, and a Tute 2 match whose house bot is to act: its task waits on the broker
    slot.stop()
    person, _ = new_player("person")
    match = match_create(
        spec=match_spec(
            created_by=person, game="tute2", seats=[SeatSpec(player=person.handle), SeatSpec(bot="rule")]
        )
    )
    assert broker_backlog(broker) == (1, 0)
    redis = redis_client(broker)
    settings_dict = connection.settings_dict
    try:
        # when: a worker takes the task and is inside the turn (blocked on the match's row lock, which
        # another session holds), and is killed there with SIGKILL
        with psycopg.connect(
            host=settings_dict["HOST"] or "127.0.0.1",
            port=settings_dict["PORT"] or 5432,
            user=settings_dict["USER"],
            password=settings_dict["PASSWORD"] or None,
            dbname=settings_dict["NAME"],
        ) as other:
            other.execute("SELECT id FROM games_match WHERE id = %s FOR UPDATE", [match.pk])
            doomed = slot.start(broker)
            wait_for(
                "the worker to be inside the bot's turn",
                lambda: lock_waiters(doomed.name) > 0,
                timeout=DRAIN_SECONDS,
                log=doomed.log_tail,
            )
            doomed.kill()
            terminate_backends(doomed.name)  # its session would end by itself; now, so nothing lingers
            other.rollback()

        # then: the turn is not played; the broker holds the message unacknowledged (acks_late) and would
        # give it back only after its visibility timeout (an hour)
        assert Action.objects.filter(match=match).count() == 0
        assert broker_backlog(broker)[1] == 1  # (the queue may hold the re-queue the doomed worker sent)
        # when: a new worker starts; as it connects it queues the waiting house-bot turns again (issue 14)
        replacement = slot.start(broker)

        # then: it plays the turn, once, long before the turn's deadline and without the sweeper
        wait_for(
            "the re-queued turn to be played and the person's turn to come",
            lambda: Match.objects.get(pk=match.pk).turn_seat == 0 and broker_backlog(broker)[0] == 0,
            timeout=DRAIN_SECONDS,
            log=replacement.log_tail,
        )
        match.refresh_from_db()
        assert_one_action_per_ply(match)
        played = Action.objects.get(match=match, ply=0)
        assert (played.seat, played.kind) == (1, Action.Kind.HOUSE_BOT)
        assert match.turn_deadline is not None and match.turn_deadline > timezone.now()

        # and: the sweeper, sent by name as celery beat sends it, finds nothing overdue
        sweep = app.send_task("games.sweep_overdue_turns").id
        wait_for("the sweep to run", lambda: sweep in task_results(broker), timeout=DRAIN_SECONDS)
        assert task_results(broker)[sweep]["result"] == 0
        assert not games_task_failures(broker), "games tasks failed in the worker"
    finally:
        redis.delete(UNACKED_KEY, f"{UNACKED_KEY}_index")  # the killed worker's message, never to return
        redis.close()


def test_a_worker_whose_database_sessions_were_terminated_goes_on_playing(worker: Worker) -> None:
    # given: the worker has played a house-bot match (its database connection is open, kept for reuse)
    host, _ = new_player("host")
    bots = [SeatSpec(bot="rule"), SeatSpec(bot="random")]
    first = match_create(spec=match_spec(created_by=host, game="tute2", seats=bots))
    wait_for(
        "the first bot-only match to finish",
        lambda: Match.objects.filter(pk=first.pk, status=Match.Status.FINISHED).exists() or None,
        timeout=MATCH_SECONDS,
        log=worker.log_tail,
    )

    # when: the database ends every session of the worker (a restart, a failover, an administrator)
    terminate_backends(worker.name)
    # and: another match gives it turns to play
    second = match_create(spec=match_spec(created_by=host, game="tute2", seats=bots))

    # then: it plays that match to the end (the broken connection is dropped, not reused task after task)
    finished = wait_for(
        "the second bot-only match to finish",
        lambda: Match.objects.filter(pk=second.pk, status=Match.Status.FINISHED).exists() or None,
        timeout=MATCH_SECONDS,
        log=worker.log_tail,
    )
    assert finished
    assert_one_action_per_ply(Match.objects.get(pk=second.pk))
    # and: the dead session cost at most the one task that met it (Celery's fix-up alone reused it for
    # the next 2,000 tasks, each failing with "the connection is closed")
    failures = games_task_failures(worker.broker_url)
    assert len(failures) <= 1, failures
    assert all("administrator command" in traceback for traceback in failures.values()), failures
