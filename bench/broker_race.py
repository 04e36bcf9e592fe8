"""Embedded brokers under concurrent publishing (issue 14): does the consumer ever read a broken message?

Run by hand from the project root::

    python bench/broker_race.py [--messages 3000] [--producers 4] [--rounds 3]

For each transport (kombu's filesystem transport, the former default, and the SQLAlchemy transport on a
SQLite file, tute_site.broker, the current one) and each round: producer threads publish ``--messages``
messages in all, in the consumer's own process (as ``celery worker -B`` runs beat, and as the web
process publishes while its own threads read), while the consumer drains the queue. A message read
empty or half-written makes kombu's JSON decoding fail: the worker's "Unrecoverable error" of
celery/kombu#1551. Prints, per transport: messages received, lost, duplicated, broken reads, and the
publish-to-receive latency p50/p99. Each transport works in a temporary folder, deleted afterwards.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from queue import Empty
from typing import Any

from kombu import Connection

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tute_site.broker import sqlite_broker_url


def filesystem(folder: Path) -> Connection:
    queue = folder / "queue"
    queue.mkdir(exist_ok=True)
    options = {
        "data_folder_in": str(queue),
        "data_folder_out": str(queue),
        "control_folder": str(folder / "control"),
        "store_processed": False,
        "polling_interval": 0.01,
    }
    return Connection("filesystem://", transport_options=options)


def sqlite(folder: Path) -> Connection:
    return Connection(sqlite_broker_url(folder / "broker.sqlite3"), transport="tute_site.broker:Transport")


TRANSPORTS = {"filesystem": filesystem, "sqlalchemy-sqlite": sqlite}


def run_round(make: Any, messages: int, producers: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="broker-race-") as tmp:
        folder = Path(tmp)
        name = f"race-{uuid.uuid4().hex[:8]}"  # kombu keeps bindings per process: a fresh queue each round
        seen: dict[int, int] = {}
        broken = 0
        per_producer = messages // producers

        def produce(worker: int) -> None:
            with make(folder) as conn:
                queue = conn.SimpleQueue(name)
                for i in range(per_producer):
                    queue.put({"n": worker * per_producer + i, "t": time.time()})
                queue.close()

        with make(folder) as conn:
            queue = conn.SimpleQueue(name)
            threads = [threading.Thread(target=produce, args=(w,)) for w in range(producers)]
            for thread in threads:
                thread.start()
            started = time.monotonic()
            deadline = started + 120
            total = per_producer * producers
            while sum(seen.values()) < total and time.monotonic() < deadline:
                try:
                    message = queue.get(timeout=0.5)
                except Empty:
                    continue
                except (json.JSONDecodeError, ValueError):
                    broken += 1  # the worker would have died here
                    continue
                body = message.payload
                seen[body["n"]] = seen.get(body["n"], 0) + 1
                message.ack()
            elapsed = time.monotonic() - started
            for thread in threads:
                thread.join()
            queue.close()
    return {
        "received": sum(seen.values()),
        "lost": total - len(seen),
        "duplicated": sum(count - 1 for count in seen.values()),
        "broken": broken,
        "rate": sum(seen.values()) / elapsed,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=3000)
    parser.add_argument("--producers", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--transport", choices=sorted(TRANSPORTS), action="append")
    args = parser.parse_args(argv)
    for name in args.transport or list(TRANSPORTS):
        for round_no in range(1, args.rounds + 1):
            r = run_round(TRANSPORTS[name], args.messages, args.producers)
            print(
                f"{name:18} round {round_no}: received {r['received']}, lost {r['lost']}, "
                f"duplicated {r['duplicated']}, broken reads {r['broken']}, "
                f"drained at {r['rate']:.0f} messages/s",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
