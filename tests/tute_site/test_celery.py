"""The Celery app takes its settings from Django, and both brokers carry a message end to end."""

import sqlite3
import uuid
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import redis
from django.conf import settings
from kombu import Connection

from tute_site.broker import sqlite_broker_url
from tute_site.celery import app


def test_celery_reads_the_django_settings() -> None:
    assert app.main == "tute_site"
    assert app.conf.broker_url == settings.CELERY_BROKER_URL
    assert app.conf.task_acks_late is True
    assert app.conf.worker_prefetch_multiplier == 1


def round_trip(connection: Connection, queue_name: str) -> object:
    queue = connection.SimpleQueue(queue_name)
    try:
        queue.put({"match": 7, "ply": 3})
        message = queue.get(timeout=5)
        message.ack()
        return message.payload
    finally:
        queue.close()


def test_embedded_broker_carries_a_message(tmp_path: Path) -> None:
    # given: the embedded broker (SQLite through kombu's SQLAlchemy transport), on a file of its own
    url = sqlite_broker_url(tmp_path / "broker.sqlite3")

    # when: a message goes in; then: the same message comes out
    with Connection(url, transport="tute_site.broker:Transport") as connection:
        assert round_trip(connection, f"test-{uuid.uuid4().hex}") == {"match": 7, "ply": 3}

    # and: the file is in WAL mode, so the web process, beat and the worker write to it at once
    with sqlite3.connect(tmp_path / "broker.sqlite3") as db:
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def test_tests_publish_to_an_in_memory_broker() -> None:
    """Nothing a test queues reaches the developer's broker or a `make run` worker (issue 14)."""
    with app.connection_for_write() as connection:
        assert connection.transport_cls == "memory"


def test_redis_broker_carries_a_message(redis_url: str) -> None:
    # given: a real Redis server and a queue no one else uses
    queue_name = f"test-{uuid.uuid4().hex}"
    try:
        # when: a message goes in; then: the same message comes out
        with Connection(redis_url) as connection:
            assert round_trip(connection, queue_name) == {"match": 7, "ply": 3}
    finally:
        client = redis.Redis.from_url(redis_url)
        client.delete(queue_name, f"_kombu.binding.{queue_name}")
        client.close()


def test_the_requeue_on_connect_step_publishes_on_a_fresh_connection_and_never_stops_the_worker(
    redis_url: str, caplog: Any, monkeypatch: Any
) -> None:
    """Issue 30: a consumer step that raises anything but a connection error is an "Unrecoverable
    error" and the worker exits; the step ran inside the consumer's restart after a Redis restart."""
    from celery import Celery

    from tute_site.celery import RequeueOnConnect

    monkeypatch.delenv("CELERY_BROKER_URL")  # it would win over the broker given here
    from tests.workers import STEP_BROKER_DB

    db_url = redis_url.rsplit("/", 1)[0] + f"/{STEP_BROKER_DB}"  # no other test's database
    broker = Celery("requeue-test", broker=db_url)
    client = redis.Redis.from_url(db_url)
    client.delete("celery")
    step = RequeueOnConnect(SimpleNamespace())
    try:
        # when: the consumer (re)starts: the message goes out on a connection of the step's own
        step.start(SimpleNamespace(app=broker))
        assert client.llen("celery") == 1
        assert b"games.requeue_house_bot_turns" in client.lindex("celery", 0)

        # when: publishing fails as it did on the pool's stale connection: logged, not raised
        def stale(*args: Any, **kwargs: Any) -> None:
            raise AttributeError("'NoneType' object has no attribute 'hostname'")

        broker.send_task = stale  # type: ignore[method-assign]
        step.start(SimpleNamespace(app=broker))
        assert "could not queue games.requeue_house_bot_turns" in caplog.text
    finally:
        client.delete("celery")
        client.close()
