"""Soak test of `make run` (issue 14): does the service stay up for half an hour of play?

Run by hand from the project root::

    python bench/soak.py --broker embedded [--minutes 30] [--port 8140]
    python bench/soak.py --broker redis --redis-port 6391 [--restarts 5] [--port 8141]

It starts the service exactly as `make run` does (``python -m tute_site.run_local``: the supervisor,
runserver, one worker, beat; DEBUG on, no demo content) in a private data folder, then for
``--minutes``:

- keeps ``--matches`` (8) unrated house-bot-only matches going at once, of all three games in turn
  (Tute 2 random against rule, Tute 4 rule/random pairs, Pocha rule/random/rule), a new one as soon as
  one finishes;
- a simulated person plays Tute 2 against the rule house bot through the API (GET view, POST action,
  a random legal move after 0.3 to 1.5 s), match after match;
- with ``--broker redis``: the broker is a private redis-server (``--redis-port``, append-only file on,
  as production runs it) that is shut down and started again ``--restarts`` times, evenly spaced, each
  time while the worker is busy; the database is PostgreSQL (``--postgres``, a database of its own,
  dropped at the end). With ``--broker embedded`` both are SQLite files in the data folder.

Then it prints: worker and beat exits and web server restarts (the supervisor's log lines), each
"Unrecoverable error" with its traceback, house-bot turns lost (answered only by the sweeper after the
turn's deadline, or a match stalled at the end) and duplicated (two actions of one ply: the database
forbids it), the house bot's reply time p50/p99 (from the action before it to its own, from the
database's timestamps) and the person's (from the POST's answer until the bot's move is in the
database), and per Redis restart the seconds from Redis back until every match that was in play when it
went down had moved again. The supervisor's log stays in the data folder (printed path).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

PROJECT_DIR = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PROJECT_DIR))

from bench._common import drop_database, recreate_database  # noqa: E402
from bench.api import Client  # noqa: E402

HOUSE_ONLY = {
    "tute2": ["random", "rule"],
    "tute4": ["rule", "random", "rule", "random"],
    "pocha": ["rule", "random", "rule"],
}
ISOLATED = ("DATABASE_URL", "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND", "CACHE_URL", "TUTE_EVENTS_URL")


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] soak: {message}", flush=True)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# -- the services ------------------------------------------------------------------------------------------


class PrivateRedis:
    def __init__(self, port: int, folder: Path) -> None:
        self.port = port
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)

    def start(self) -> None:
        subprocess.run(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--dir",
                str(self.folder),
                "--appendonly",
                "yes",
                "--appendfsync",
                "everysec",
                "--save",
                "",
                "--daemonize",
                "yes",
                "--pidfile",
                str(self.folder / "redis.pid"),
                "--logfile",
                str(self.folder / "redis.log"),
            ],
            check=True,
        )
        deadline = time.monotonic() + 10
        while not self.ping():
            if time.monotonic() > deadline:
                raise RuntimeError(f"redis-server on port {self.port} did not start")
            time.sleep(0.05)

    def ping(self) -> bool:
        result = subprocess.run(["redis-cli", "-p", str(self.port), "ping"], capture_output=True, text=True)
        return result.stdout.strip() == "PONG"

    def shutdown(self) -> None:
        subprocess.run(["redis-cli", "-p", str(self.port), "shutdown"], capture_output=True)
        deadline = time.monotonic() + 10
        while self.ping() and time.monotonic() < deadline:
            time.sleep(0.05)


# -- the load ----------------------------------------------------------------------------------------------


@dataclass
class Person:
    """A person playing Tute 2 against the rule house bot through the API."""

    port: int
    handle: str
    token: str
    stop: threading.Event
    replies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    moves: int = 0
    matches: list[int] = field(default_factory=list)

    def run(self) -> None:
        from django.db import connection

        from games.models import Match

        rng = random.Random(7)
        client = Client(self.port)
        match_id: int | None = None
        try:
            while not self.stop.is_set():
                try:
                    if match_id is None:
                        body = {
                            "game": "tute2",
                            "rated": False,
                            "seats": [{"player": self.handle}, {"bot": "rule"}],
                        }
                        status, out, _ = client.call("POST", "/api/v1/matches/", token=self.token, body=body)
                        if status != 201:
                            self.errors.append(f"create: {status} {out}")
                            time.sleep(2)
                            continue
                        match_id = int(out["id"])
                        self.matches.append(match_id)
                    status, view, _ = client.call(
                        "GET", f"/api/v1/matches/{match_id}/view/", token=self.token
                    )
                    if status != 200:
                        self.errors.append(f"view: {status} {view}")
                        time.sleep(2)
                        continue
                    if view["status"] != "in_progress":
                        match_id = None
                        continue
                    if not view["legal"]:
                        self._wait_move(Match, match_id, view["ply"], None)
                        continue
                    time.sleep(rng.uniform(0.3, 1.5))  # a person thinks
                    body = {"action": rng.choice(view["legal"]), "ply": view["ply"]}
                    status, out, _ = client.call(
                        "POST", f"/api/v1/matches/{match_id}/actions/", token=self.token, body=body
                    )
                    if status != 200:
                        self.errors.append(f"action: {status} {out}")
                        continue
                    self.moves += 1
                    answered = time.monotonic()
                    if out["status"] == "in_progress" and out["to_act"] == 1:
                        waited = self._wait_move(Match, match_id, view["ply"] + 1, answered)
                        if waited is not None:
                            self.replies.append(waited)
                except (OSError, ValueError) as exc:  # the web server away: count it and go on
                    self.errors.append(f"{type(exc).__name__}: {exc}")
                    client.close()
                    client = Client(self.port)
                    time.sleep(1)
        finally:
            client.close()
            connection.close()

    def _wait_move(self, match_model: Any, match_id: int, ply: int, since: float | None) -> float | None:
        """Wait until the match is past ``ply``; seconds from ``since`` (None if not waited for)."""
        deadline = time.monotonic() + 60
        while not self.stop.is_set() and time.monotonic() < deadline:
            row = match_model.objects.filter(pk=match_id).values_list("ply", "status").first()
            if row is None or row[0] > ply or row[1] != "in_progress":
                return None if since is None else time.monotonic() - since
            time.sleep(0.02)
        if not self.stop.is_set():
            self.errors.append(f"no house-bot reply within 60 s in match {match_id} at ply {ply}")
        return None


def new_bot_match(game: str, host: Any) -> int:
    from games.services import SeatSpec, match_create, match_spec

    seats = [SeatSpec(bot=level) for level in HOUSE_ONLY[game]]
    return int(match_create(spec=match_spec(created_by=host, game=game, seats=seats, rated=False)).pk)


def moved_since(match_ids: list[int], since: datetime) -> set[int]:
    from games.models import Action, Match

    moved = set(
        Action.objects.filter(match_id__in=match_ids, created_at__gt=since).values_list("match_id", flat=True)
    )
    ended = set(
        Match.objects.filter(pk__in=match_ids).exclude(status="in_progress").values_list("pk", flat=True)
    )
    return moved | ended


# -- the run -----------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--broker", choices=["embedded", "redis"], required=True)
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--matches", type=int, default=8)
    parser.add_argument("--port", type=int, default=8140)
    parser.add_argument("--redis-port", type=int, default=6391)
    parser.add_argument("--restarts", type=int, default=5)
    parser.add_argument("--postgres", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--data-dir", help="default: a new temporary folder (kept, for the logs)")
    args = parser.parse_args(argv)

    data_dir = Path(args.data_dir or tempfile.mkdtemp(prefix=f"tute-soak-{args.broker}-"))
    data_dir.mkdir(parents=True, exist_ok=True)
    for name in ISOLATED:
        os.environ.pop(name, None)
    os.environ.update(
        DJANGO_SETTINGS_MODULE="tute_site.settings",
        DJANGO_DEBUG="1",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        TUTE_DATA_DIR=str(data_dir),
        TUTE_PORT=str(args.port),
        TUTE_DEMO_DATA="0",
        DJANGO_LOG_LEVEL="WARNING",
    )
    redis: PrivateRedis | None = None
    db_name = f"tute_soak_{args.port}"
    if args.broker == "redis":
        redis = PrivateRedis(args.redis_port, data_dir / "redis")
        redis.start()
        recreate_database(args.postgres, db_name)
        os.environ["DATABASE_URL"] = f"{args.postgres}/{db_name}"
        os.environ["CELERY_BROKER_URL"] = f"redis://127.0.0.1:{args.redis_port}/0"
    log_path = data_dir / "run_local.log"
    log(f"data folder {data_dir}; service log {log_path}")
    with log_path.open("wb") as service_log:
        service = subprocess.Popen(
            [sys.executable, "-m", "tute_site.run_local"],
            cwd=PROJECT_DIR,
            stdout=service_log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            return soak(args, service, log_path, redis)
        finally:
            if service.poll() is None:
                service.send_signal(signal.SIGINT)
                try:
                    service.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    os.killpg(service.pid, signal.SIGKILL)
            if redis is not None:
                redis.shutdown()
            if args.broker == "redis":
                from django.db import connections

                connections.close_all()
                drop_database(args.postgres, db_name)


def soak(
    args: argparse.Namespace, service: subprocess.Popen[bytes], log_path: Path, redis: PrivateRedis | None
) -> int:
    deadline = time.monotonic() + 300
    while "Ctrl-C stops everything" not in log_path.read_text(errors="replace"):
        if service.poll() is not None or time.monotonic() > deadline:
            print(log_path.read_text(errors="replace")[-3000:])
            raise RuntimeError("the service did not start")
        time.sleep(0.5)
    time.sleep(3)  # the worker's start-up
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.db import connection

    from games.models import Action, Match
    from games.services import player_for_user, token_create

    host = player_for_user(user=User.objects.create_user(username=f"soak-host-{secrets.token_hex(3)}"))
    person_user = User.objects.create_user(username=f"soak-person-{secrets.token_hex(3)}")
    person_player = player_for_user(user=person_user)
    stop = threading.Event()
    person = Person(args.port, person_player.handle, token_create(user=person_user), stop)
    person_thread = threading.Thread(target=person.run, daemon=True)

    games = list(HOUSE_ONLY)
    bot_matches: list[int] = []
    live: list[int] = []
    started_at = datetime.now(UTC)
    start = time.monotonic()
    end = start + args.minutes * 60
    restart_times = (
        [start + (i + 1) * (end - start) / (args.restarts + 1) for i in range(args.restarts)] if redis else []
    )
    resumes: list[tuple[float, int]] = []
    log(f"playing for {args.minutes:g} min: {args.matches} house-bot matches at once and a person")
    person_thread.start()
    next_report = start + 60
    while time.monotonic() < end:
        live = list(Match.objects.filter(pk__in=live, status="in_progress").values_list("pk", flat=True))
        while len(live) < args.matches:
            game = games[len(bot_matches) % len(games)]
            match_id = new_bot_match(game, host)
            bot_matches.append(match_id)
            live.append(match_id)
        if redis is not None and restart_times and time.monotonic() >= restart_times[0]:
            restart_times.pop(0)
            in_play = list(live)
            log(f"Redis restart {len(resumes) + 1}: shutting it down with {len(in_play)} matches in play")
            redis.shutdown()
            time.sleep(2)
            redis.start()
            up_at, up_wall = time.monotonic(), datetime.now(UTC)
            while time.monotonic() - up_at < 120:
                if moved_since(in_play, up_wall) >= set(in_play):
                    break
                time.sleep(0.1)
            resumed = time.monotonic() - up_at
            waiting = len(set(in_play) - moved_since(in_play, up_wall))
            resumes.append((resumed, waiting))
            log(f"  every match moved again {resumed:.1f} s after Redis was back ({waiting} had not)")
        if time.monotonic() >= next_report:
            next_report += 60
            moves = Action.objects.filter(match_id__in=bot_matches).count()
            log(
                f"{(time.monotonic() - start) / 60:.0f} min: {len(bot_matches)} bot matches, {moves} moves; person {person.moves} moves"
            )
        time.sleep(0.5)
    stop.set()
    person_thread.join(timeout=70)
    return report(args, log_path, bot_matches, person, resumes, started_at, connection)


def report(
    args: argparse.Namespace,
    log_path: Path,
    bot_matches: list[int],
    person: Person,
    resumes: list[tuple[float, int]],
    started_at: datetime,
    connection: Any,
) -> int:
    from django.db.models import Count

    from games.models import Action, Match

    text = log_path.read_text(errors="replace")
    exits = {
        name: len(re.findall(rf"run_local: {name} \(pid \d+\) exited", text))
        for name in ("web", "worker", "beat")
    }
    # Each unrecoverable error with the traceback lines after it (the worker logs them together).
    crashes = [
        m.group(0)
        for m in re.finditer(
            r"[^\n]*Unrecoverable error[^\n]*(\n(Traceback|  |\S+Error|During|The above|$)[^\n]*)*", text
        )
    ]
    # kombu logs these as CRITICAL but the worker goes on: an acknowledgement sent while Redis was away.
    # The message stays in Redis's unacked set and comes back after the visibility timeout, when the
    # task finds its ply played and does nothing.
    lost_acks = len(re.findall(r"Couldn't ack", text))

    all_matches = bot_matches + person.matches
    duplicated = (
        Action.objects.filter(match_id__in=all_matches)
        .values("match_id", "ply")
        .annotate(n=Count("id"))
        .filter(n__gt=1)
        .count()
    )
    timeouts = Action.objects.filter(match_id__in=bot_matches, kind="timeout").count()
    stalled = list(
        Match.objects.filter(
            pk__in=bot_matches, status="in_progress", turn_deadline__lt=datetime.now(UTC)
        ).values_list("pk", flat=True)
    )
    replies: list[float] = []
    slow = 0
    previous: dict[int, datetime] = {}
    deadlines = dict(Match.objects.filter(pk__in=bot_matches).values_list("pk", "bot_move_seconds"))
    for match_id, kind, created in (
        Action.objects.filter(match_id__in=bot_matches)
        .order_by("match_id", "ply")
        .values_list("match_id", "kind", "created_at")
    ):
        before = previous.get(match_id)
        previous[match_id] = created
        if before is None or kind != "house_bot":
            continue
        seconds = (created - before).total_seconds()
        replies.append(seconds)
        if seconds > deadlines[match_id]:
            slow += 1
    finished = Match.objects.filter(pk__in=bot_matches, status="finished").count()
    by_game = dict(
        Match.objects.filter(pk__in=bot_matches)
        .values_list("game")
        .annotate(n=Count("id"))
        .values_list("game", "n")
    )

    print()
    print(
        f"=== soak, broker {args.broker}, {args.minutes:g} min, {args.matches} house-bot matches at once + a person ==="
    )
    print(f"worker exits {exits['worker']}, beat exits {exits['beat']}, web server restarts {exits['web']}")
    print(f"acknowledgements lost while the broker was away: {lost_acks}")
    for crash in crashes:
        print("--- crash ---\n" + crash)
    print(
        f"house-bot matches: {len(bot_matches)} started ({by_game}), {finished} finished; moves {len(replies)}"
    )
    print(
        f"house-bot reply p50 {1000 * statistics.median(replies) if replies else float('nan'):.0f} ms, p99 {1000 * percentile(replies, 0.99):.0f} ms, max {1000 * max(replies, default=0):.0f} ms"
    )
    print(
        f"lost turns: {slow} replies only after the turn's deadline (the sweeper), {timeouts} timeouts, {len(stalled)} matches stalled at the end {stalled or ''}"
    )
    print(f"duplicated turns: {duplicated} (match, ply) with two actions")
    print(
        f"person: {person.moves} moves in {len(person.matches)} matches; bot reply after the POST p50 "
        f"{1000 * statistics.median(person.replies) if person.replies else float('nan'):.0f} ms, p99 {1000 * percentile(person.replies, 0.99):.0f} ms; "
        f"errors {len(person.errors)} {person.errors[:5] or ''}"
    )
    for i, (seconds, waiting) in enumerate(resumes, 1):
        print(
            f"Redis restart {i}: every match in play moved again {seconds:.1f} s after Redis was back"
            + (f" ({waiting} never did)" if waiting else "")
        )
    print(f"service log: {log_path}")
    connection.close()
    ok = not any(exits.values()) and not crashes and not duplicated and not stalled and slow == 0
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
