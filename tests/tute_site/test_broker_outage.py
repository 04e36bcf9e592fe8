"""A Redis restart while a real worker is busy (issue 14): the worker survives, the match goes on, and
every house-bot turn is played once.

A private redis-server of this test's own (never the shared one: it is shut down here), a real Celery
worker (tests/workers.py) on the test database (PostgreSQL), and no beat: only the worker itself can
bring back the turns the restart lost (it queues the waiting ones again when it reconnects).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.db import connection

from games.models import Action, Match
from games.services import SeatSpec, match_create, match_spec, player_for_user
from tests.services import require_service
from tests.workers import Worker, database_url, publishing_to, terminate_backends, wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class PrivateRedis:
    def __init__(self, folder: Path) -> None:
        # TUTE_TEST_PRIVATE_REDIS_PORT pins the port (machines that reserve ports per checkout).
        self.port = int(os.environ.get("TUTE_TEST_PRIVATE_REDIS_PORT") or free_port())
        self.folder = folder
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self, *, save: bool = False) -> None:
        subprocess.run(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--dir",
                str(self.folder),
                "--save",
                "",
                "--appendonly",
                "no",
                "--daemonize",
                "yes",
                "--pidfile",
                str(self.folder / "redis.pid"),
                "--logfile",
                str(self.folder / "redis.log"),
            ],
            check=True,
        )
        wait_for("the private redis-server", self.ping, timeout=10)

    def ping(self) -> bool:
        out = subprocess.run(["redis-cli", "-p", str(self.port), "ping"], capture_output=True, text=True)
        return out.stdout.strip() == "PONG"

    def shutdown(self) -> None:
        """As a crash or a restart without persistence does: every queued message is gone."""
        subprocess.run(["redis-cli", "-p", str(self.port), "shutdown", "nosave"], capture_output=True)
        wait_for("the private redis-server to stop", lambda: not self.ping(), timeout=10)


@pytest.fixture
def redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    require_service("redis-server", shutil.which("redis-server") is not None, "redis-server is not installed")
    server = PrivateRedis(tmp_path)
    server.start()
    try:
        yield server
    finally:
        if server.ping():
            server.shutdown()


def test_a_busy_worker_survives_redis_restarts_and_plays_each_turn_once(
    postgres_required: None, redis: PrivateRedis
) -> None:
    # given: a worker playing house-bot-only matches non-stop (each move queues the next turn)
    host = player_for_user(user=User.objects.create_user(username="host"))
    worker = Worker(database_url=database_url(connection.settings_dict), broker_url=redis.url)
    with publishing_to(redis.url):
        worker.start()
        try:
            matches = [
                match_create(
                    spec=match_spec(
                        created_by=host,
                        game="pocha",
                        seats=[SeatSpec(bot="rule"), SeatSpec(bot="random"), SeatSpec(bot="rule")],
                        rated=False,
                    )
                ).pk
                for _ in range(2)
            ]
            for restart in range(2):
                before = Action.objects.filter(match_id__in=matches).count()
                wait_for(
                    "the worker to be playing",
                    lambda before=before: Action.objects.filter(match_id__in=matches).count() > before + 20,
                    timeout=60,
                    log=worker.log_tail,
                )

                # when: Redis goes away mid-play, losing every queued message, and comes back
                redis.shutdown()
                time.sleep(1.0)
                redis.start()
                back = time.monotonic()

                # then: the worker is still there and the matches move again, with no beat to help
                moved = Action.objects.filter(match_id__in=matches).count()
                wait_for(
                    f"the matches to move after restart {restart + 1}",
                    lambda moved=moved: Action.objects.filter(match_id__in=matches).count() > moved + 10,
                    timeout=30,
                    log=worker.log_tail,
                )
                assert worker.alive, worker.log_tail()
                assert "Unrecoverable error" not in worker.log_text()
                assert time.monotonic() - back < 30

            # and: they finish, every ply played exactly once (the log has one action a ply, no gap)
            wait_for(
                "the matches to finish",
                lambda: Match.objects.filter(pk__in=matches, status=Match.Status.FINISHED).count() == 2,
                timeout=240,
                log=worker.log_tail,
            )
            for match_id in matches:
                plies = list(Action.objects.filter(match_id=match_id).values_list("ply", flat=True))
                assert plies == list(range(len(plies)))
                assert Match.objects.get(pk=match_id).ply == len(plies)
            assert worker.alive
        finally:
            worker.stop()
            terminate_backends(worker.name)
