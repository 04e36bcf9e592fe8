"""The embedded broker: kombu's SQLAlchemy transport on a SQLite file of its own (issue 14).

`make run` needs a broker with no server to install. kombu's filesystem transport (the former default)
loses messages: it creates a message file and writes it afterwards, so a consumer can move and read it
empty first and the worker dies on the JSON error (celery/kombu#1551; bench/broker_race.py measures it).
The SQLAlchemy transport stores each message with one INSERT and takes it with one UPDATE inside
`BEGIN IMMEDIATE`, so a reader sees a whole committed message or nothing. It is for one machine only:
production uses Redis (docs/DEPLOY.md).

This module adds what kombu's transport leaves to its caller, through the transport's public hooks
(`Transport.Channel`, `Transport.polling_interval`, the engine SQLAlchemy returns):

- the SQLite file in WAL mode with a busy timeout, so the web process, beat and the worker write to it
  at once without "database is locked";
- a short polling interval: kombu's virtual transports poll, by default once a second, which a person
  waiting for a house bot's reply would feel.

Settings select it with ``CELERY_BROKER_TRANSPORT = "tute_site.broker:Transport"`` for a
``sqlite:///...`` broker URL.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from kombu.transport import sqlalchemy as kombu_sqlalchemy
from sqlalchemy import event

#: Seconds a writer waits for another writer's lock before failing (SQLite's busy timeout).
BUSY_TIMEOUT_SECONDS = 30
#: Seconds between two looks at an empty queue (kombu's default is 1.0).
POLLING_INTERVAL_SECONDS = 0.02


def _sqlite_pragmas(dbapi_connection: sqlite3.Connection, connection_record: Any) -> None:
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_SECONDS * 1000}")
        # With WAL, NORMAL loses no committed message on a process crash (only on a power cut).
        cursor.execute("PRAGMA synchronous=NORMAL")
    finally:
        cursor.close()


class Channel(kombu_sqlalchemy.Channel):
    """kombu's SQLAlchemy channel whose SQLite connections use WAL and a busy timeout."""

    def _engine_from_config(self) -> Any:
        engine = super()._engine_from_config()
        if engine.dialect.name == "sqlite":
            event.listen(engine, "connect", _sqlite_pragmas)
        return engine


class Transport(kombu_sqlalchemy.Transport):
    """kombu's SQLAlchemy transport with the channel above and a short polling interval."""

    Channel = Channel
    polling_interval = POLLING_INTERVAL_SECONDS


def sqlite_broker_url(path: Path) -> str:
    """The broker URL of the SQLite file ``path`` (its folder created)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path}"
