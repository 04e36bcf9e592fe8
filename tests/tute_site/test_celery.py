"""The Celery app takes its settings from Django, and both brokers carry a message end to end."""

import sqlite3
import uuid
from pathlib import Path

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
