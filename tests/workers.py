"""A real Celery worker in a subprocess, for the tests that need one (issue 4).

The worker runs ``celery -A tute_site worker`` in its own process group, on the test database (so it
sees what ``transaction=True`` tests commit) and on a Redis database of its own (``TEST_BROKER_DB``,
flushed before a worker first starts). ``publishing_to`` points this process's Celery app at the same
Redis, so that what the services queue on commit (``delay_on_commit``) reaches the worker.

Every wait has a timeout and fails with what it was waiting for and the tail of the worker's log.
"""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, TypeVar
from urllib.parse import quote, urlsplit, urlunsplit

if TYPE_CHECKING:
    from rest_framework.test import APIClient

PROJECT_DIR = Path(__file__).resolve().parents[1]
#: Redis databases one test process takes, counting down from its TEST_BROKER_DB: the brokers of its real
#: workers, then ``STEP_BROKER_DB`` (the Celery consumer-step test's own app). One database serves every
#: module's worker: a test process runs one file at a time (``--dist loadfile``), each module's worker is
#: stopped before the next module starts, and a broker is flushed before a module's first worker.
BROKER_DBS_PER_PROCESS = 2


def broker_db_for(base: int, xdist_worker: str | None) -> int:
    """The Redis database this test process's worker tests use as their broker (flushed before a worker
    starts): ``base`` (TUTE_TEST_REDIS_DB, 15 by default), and under pytest-xdist one block of
    BROKER_DBS_PER_PROCESS further down per worker (gw0: 15 and 14, gw1: 13 and 12...), so that parallel workers
    never share a broker. Runs that share one Redis at the same time (two checkouts on one machine) give
    each its own base."""
    if not xdist_worker:
        return base
    db = base - BROKER_DBS_PER_PROCESS * int(xdist_worker.removeprefix("gw"))
    if db - (BROKER_DBS_PER_PROCESS - 1) < 0:
        raise RuntimeError(
            f"pytest-xdist worker {xdist_worker}: a Redis has 16 databases, {BROKER_DBS_PER_PROCESS} a test "
            f"process, so TUTE_TEST_REDIS_DB={base} leaves room for {(base + 1) // BROKER_DBS_PER_PROCESS} "
            "workers: run fewer (-n 2)"
        )
    return db


TEST_BROKER_DB = broker_db_for(
    int(os.environ.get("TUTE_TEST_REDIS_DB", "15")), os.environ.get("PYTEST_XDIST_WORKER")
)
STEP_BROKER_DB = TEST_BROKER_DB - 1
QUEUE = "celery"
#: Every queue the worker reads: the default one, the bot-only matches' (TUTE_BOT_ONLY_QUEUE) and the
#: background one (TUTE_BACKGROUND_QUEUE: games' luck figures).
QUEUES = (
    QUEUE,
    os.environ.get("TUTE_BOT_ONLY_QUEUE", "bots"),
    os.environ.get("TUTE_BACKGROUND_QUEUE", "background"),
)
#: Kombu's Redis keys of messages delivered but not acknowledged yet (acks_late keeps them there).
UNACKED_KEY = "unacked"

T = TypeVar("T")


def broker_url_for_tests(redis_url: str, db: int = TEST_BROKER_DB) -> str:
    """``redis_url`` with its database number replaced by ``db``."""
    parts = urlsplit(redis_url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{db}", parts.query, ""))


def database_url(settings_dict: dict[str, Any]) -> str:
    """A DATABASE_URL for the PostgreSQL database of ``settings_dict`` (the test database, in tests)."""
    user = quote(str(settings_dict.get("USER") or ""), safe="")
    password = quote(str(settings_dict.get("PASSWORD") or ""), safe="")
    credentials = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host = settings_dict.get("HOST") or "127.0.0.1"
    port = settings_dict.get("PORT") or 5432
    name = quote(str(settings_dict["NAME"]), safe="")
    return f"postgres://{credentials}{host}:{port}/{name}"


def terminate_backends(application_name: str) -> None:
    """End the PostgreSQL sessions a (killed) worker left behind, so nothing holds the test database."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE application_name = %s AND pid <> pg_backend_pid()",
            [application_name],
        )


def lock_waiters(application_name: str) -> int:
    """How many sessions named ``application_name`` wait for a lock (a row lock, say) right now."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s AND wait_event_type = 'Lock'",
            [application_name],
        )
        row = cursor.fetchone()
    return int(row[0]) if row else 0


def redis_client(url: str) -> Any:
    import redis

    return redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=5)


def flush_broker(url: str) -> None:
    client = redis_client(url)
    try:
        client.flushdb()
    finally:
        client.close()


def broker_backlog(url: str) -> tuple[int, int]:
    """(messages waiting in the queue, messages delivered and not acknowledged)."""
    client = redis_client(url)
    try:
        return sum(int(client.llen(q)) for q in QUEUES), int(client.hlen(UNACKED_KEY))
    finally:
        client.close()


def task_results(url: str, *, forget: bool = False) -> dict[str, dict[str, Any]]:
    """The task results the test workers stored (task id -> Celery's result meta: status, result...);
    ``forget`` deletes them once read."""
    client = redis_client(url)
    try:
        keys = list(client.scan_iter(match="celery-task-meta-*", count=1000))
        values = client.mget(keys) if keys else []
        if forget and keys:
            client.delete(*keys)
    finally:
        client.close()
    out = {}
    for key, value in zip(keys, values, strict=True):
        if value is not None:
            out[key.decode().removeprefix("celery-task-meta-")] = json.loads(value)
    return out


def _drop_producer_pools(app: Any) -> None:
    """Close this process's broker connections and forget the app's pools, so that the next publish
    connects with the current configuration (the reset Celery itself does in a forked child)."""
    from kombu import pools

    pools.reset()  # kombu's process-wide pools, keyed by connection: closes them and empties the registry
    app._pool = None
    amqp = app.__dict__.get("amqp")
    if amqp is not None:
        amqp._producer_pool = None


@contextmanager
def publishing_to(url: str) -> Iterator[None]:
    """While inside, this process's Celery app (``tute_site.celery.app``) publishes to ``url``.

    Celery reads the CELERY_BROKER_URL variable before its own configuration (``Settings.broker_url``
    in ``celery.app.utils``), so the variable is set too, and restored on the way out.
    """
    from tute_site.celery import app

    variables = ("CELERY_BROKER_URL", "CELERY_BROKER_READ_URL", "CELERY_BROKER_WRITE_URL")
    saved_env = {name: os.environ.get(name) for name in variables}
    names = ("broker_url", "broker_read_url", "broker_write_url", "broker_transport_options")
    saved_conf = {name: app.conf.get(name) for name in names}
    _drop_producer_pools(app)
    for name in variables:
        os.environ.pop(name, None)
    os.environ["CELERY_BROKER_URL"] = url
    app.conf.update(broker_url=url, broker_read_url=None, broker_write_url=None, broker_transport_options={})
    try:
        assert app.connection_for_write().as_uri(include_password=True) == url, "the app publishes elsewhere"
        yield
    finally:
        _drop_producer_pools(app)
        app.conf.update(saved_conf)
        for name, value in saved_env.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def wait_for(
    what: str,
    probe: Callable[[], T],
    *,
    timeout: float,
    interval: float = 0.05,
    log: Callable[[], str] | None = None,
) -> T:
    """Call ``probe`` until it returns something truthy, and return that; fail after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() >= deadline:
            message = f"timed out after {timeout:g} s waiting for {what}"
            if log is not None:
                message += f"\n--- worker log (tail) ---\n{log()}"
            raise AssertionError(message)
        time.sleep(interval)


def play_through_api(
    client: APIClient,
    match_id: int,
    *,
    rng: random.Random,
    timeout: float,
    log: Callable[[], str],
    on_view: Callable[[dict[str, Any]], None] | None = None,
) -> int:
    """A person's client: poll the match's view and play a random legal action whenever it is its turn,
    until the match is over (``on_view`` sees each view in play); fails when the match stalls for
    ``timeout`` seconds. Returns the number of moves played."""
    moves = 0
    deadline = time.monotonic() + timeout
    while True:
        response = client.get(f"/api/v1/matches/{match_id}/view/")
        assert response.status_code == 200, response.content
        view = response.json()
        if view["status"] != "in_progress":
            return moves
        if on_view is not None:
            on_view(view)
        if view["legal"]:
            response = client.post(
                f"/api/v1/matches/{match_id}/actions/",
                {"action": rng.choice(view["legal"]), "ply": view["ply"]},
                format="json",
            )
            assert response.status_code == 200, response.content
            moves += 1
            continue
        assert time.monotonic() < deadline, (
            f"the match stalled at ply {view['ply']} waiting for seat {view['to_act']}\n{log()}"
        )
        time.sleep(0.03)


class Worker:
    """``celery -A tute_site worker`` (prefork, one child) in its own process group."""

    def __init__(
        self,
        *,
        database_url: str,
        broker_url: str,
        pool: str = "prefork",
        extra_env: dict[str, str] | None = None,
    ) -> None:
        self.name = f"tute-test-{uuid.uuid4().hex[:8]}"
        self.nodename = f"{self.name}@{socket.gethostname()}"
        self.database_url = database_url
        self.broker_url = broker_url
        self.pool = pool
        self.extra_env = extra_env or {}
        self.log: IO[bytes] = tempfile.NamedTemporaryFile(prefix=f"{self.name}-", suffix=".log")  # noqa: SIM115
        self.proc: subprocess.Popen[bytes] | None = None

    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        for name in ("CELERY_RESULT_BACKEND", "DJANGO_DEBUG", "CACHE_URL"):
            env.pop(name, None)
        env.update(
            DJANGO_SETTINGS_MODULE="tute_site.settings",
            # The worker's sessions carry its name, to find (and end) them in pg_stat_activity.
            DATABASE_URL=f"{self.database_url}?application_name={self.name}",
            CELERY_BROKER_URL=self.broker_url,
            TUTE_EVENTS_URL=self.broker_url,
            # Results (in the same Redis database) tell the tests which tasks failed: the worker's own
            # log lines of celery.* are lost with the project's LOGGING (see the issue 4 report).
            CELERY_RESULT_BACKEND=self.broker_url,
            DJANGO_SECRET_KEY=os.environ.get("DJANGO_SECRET_KEY") or "test-worker-" + uuid.uuid4().hex,
            DJANGO_LOG_LEVEL="INFO",
            PYTHONPATH=os.pathsep.join(p for p in (str(PROJECT_DIR), env.get("PYTHONPATH", "")) if p),
            **self.extra_env,
        )
        return env

    def command(self) -> list[str]:
        return [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "tute_site",
            "worker",
            f"--pool={self.pool}",
            "--concurrency=1",
            "-Q",
            ",".join(QUEUES),
            "--loglevel=INFO",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            "-n",
            self.nodename,
        ]

    def start(self, *, timeout: float = 30.0) -> Worker:
        """Start the worker and return once it answers a ping (it consumes from then on)."""
        assert self.proc is None, "a Worker starts once; make a new one"
        self.proc = subprocess.Popen(
            self.command(),
            cwd=PROJECT_DIR,
            env=self.env(),
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: stop() and kill() reach its pool children
        )
        from celery import Celery

        # A throwaway app (not the current one) pings the worker by its name, on an explicit connection
        # to the worker's broker (a Celery app's own broker URL yields to CELERY_BROKER_URL).
        with (
            Celery("tests.workers.ping", set_as_current=False) as pinger,
            pinger.connection_for_write(self.broker_url) as conn,
        ):
            wait_for(
                f"worker {self.name} to answer a ping",
                lambda: self._answers(pinger, conn),
                timeout=timeout,
                interval=0.0,
                log=self.log_tail,
            )
        return self

    def _answers(self, pinger: Any, conn: Any) -> bool:
        assert self.proc is not None
        if self.proc.poll() is not None:
            raise AssertionError(f"worker {self.name} exited with {self.proc.returncode}:\n{self.log_tail()}")
        return bool(pinger.control.ping(destination=[self.nodename], timeout=0.5, connection=conn))

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def log_text(self) -> str:
        self.log.flush()
        return Path(self.log.name).read_text(errors="replace")

    def log_tail(self, lines: int = 40) -> str:
        return "\n".join(self.log_text().splitlines()[-lines:])

    def kill(self) -> None:
        """SIGKILL to the worker's whole process group (the main process and its pool children)."""
        assert self.proc is not None
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self, *, timeout: float = 15.0) -> None:
        """Warm shutdown (SIGTERM), then SIGKILL to the group if it is not gone within ``timeout`` s."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.kill()
        if self.proc is not None and self._group_members():
            os.killpg(self.proc.pid, signal.SIGKILL)  # pool children left behind by a main process gone first
        if not self.log.closed:
            self.log.close()

    def _group_members(self) -> list[int]:
        """Processes still in the worker's process group (Linux /proc; none found elsewhere)."""
        assert self.proc is not None
        members = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == self.proc.pid:  # field 5 of stat: the process group id
                members.append(int(stat.parent.name))
        return members


@contextmanager
def worker_running(broker_url: str, *, drain_timeout: float | None = None) -> Iterator[Worker]:
    """A worker on the test database and ``broker_url`` (flushed first), this process publishing there.

    With ``drain_timeout``, leaving the block also waits for the broker to drain and fails on any task
    that did not succeed in the worker; the worker is stopped and its database sessions ended either way.
    """
    from django.db import connection

    flush_broker(broker_url)
    worker = Worker(database_url=database_url(connection.settings_dict), broker_url=broker_url)
    with publishing_to(broker_url):
        worker.start()
        try:
            yield worker
            if drain_timeout is not None:
                wait_for(
                    "the broker to drain",
                    lambda: broker_backlog(broker_url) == (0, 0),
                    timeout=drain_timeout,
                    log=worker.log_tail,
                )
                results = task_results(broker_url, forget=True)
                failed = {k: v for k, v in results.items() if v["status"] != "SUCCESS"}
                assert not failed, f"tasks failed in the worker: {failed}\n{worker.log_tail()}"
        finally:
            worker.stop()
            terminate_backends(worker.name)
            if drain_timeout is not None:
                flush_broker(broker_url)
