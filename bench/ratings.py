"""Ratings benchmark (issue 5): rating updates per second through the service, and a full recompute.

Run by hand from the project root (PostgreSQL must be up; nothing else is needed)::

    .venv/bin/python bench/ratings.py [--matches 100000] [--updates 500] [--seed N] [--profile] [--keep]

What it does, in order:

1. Drops and recreates the PostgreSQL database ``tute_bench_ratings`` (through the ``postgres``
   maintenance database; ``--postgres`` or BENCH_POSTGRES_URL says where the server is), runs
   ``manage.py migrate`` into it in a child process, then sets DATABASE_URL to it and calls
   ``django.setup()`` in this process (production settings, DEBUG off, a throwaway secret key, the
   broker and cache variables of the caller's environment removed, TUTE_DATA_DIR a temporary folder).
2. Makes 3,000 people and 100 bot accounts (bulk rows), each with a hidden strength.
3. **Updates** (a): first, for scale, the time of a transaction that updates one row. Then ``--updates``
   synthetic finished matches among the first 500 players, then
   ``ratings.services.match_ratings_apply`` for each, in finishing order, one transaction each as the
   task runs it. Prints matches/s and rating changes/s. The same again for as many matches through the
   task's function (``ratings.tasks.apply_match_ratings``, i.e. ``match_ratings_apply_pending``, which
   first looks for earlier unrated matches).
4. **Recompute** (b): more synthetic matches up to ``--matches`` in all, then
   ``call_command("ratings_recompute")``, timed from the outside; prints the time, the share spent
   inside SQL statements (an ``execute_wrapper`` sums them) and, with ``--profile``, cProfile's top
   functions. Target: at most 30 s for 100,000 matches.
5. **Updates on a long history** (c): the task's function and the service again, on 100 new matches
   each, with the ``--matches`` history in the database; then the task's backlog query alone
   (``pending_before``) for the last 100, five times each.
6. Drops the database (unless ``--keep``).

Synthetic matches are written in bulk with COPY (match, seats, games), not played: 50 % Tute 2 (3 % of
them drawn best-of-2 matches), 25 % Tute 4 (a tenth with one or two house bots of different levels),
25 % Pocha of 3 to 5 seats (a tenth with a house bot; 2 % resigned). Winners follow the players' hidden
strengths (Elo odds), Pocha totals are multiples of 5 around a strength-dependent mean, so ties happen.
3 % of the matches are unrated. docs/PERFORMANCE.md ("Ratings (issue 5)") records the figures.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import platform
import pstats
import random
import secrets
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

PROJECT_DIR = Path(__file__).resolve().parent.parent
if str(PROJECT_DIR) not in sys.path:  # run as `python bench/...py`: bench/_common.py is a sibling module
    sys.path.insert(0, str(PROJECT_DIR))

from bench._common import drop_database, recreate_database  # noqa: E402

BENCH_DB = "tute_bench_ratings"
DEFAULT_POSTGRES_URL = "postgresql://postgres@127.0.0.1:5432"
TARGET_RECOMPUTE_SECONDS = 30.0

PEOPLE = 3000
BOT_ACCOUNTS = 100
ACTIVE_PLAYERS = 500  # the updates phase draws its players from these
HOUSE_LEVELS = {"random": 1200.0, "rule": 1550.0}
SECONDS_BETWEEN_MATCHES = 150
LONG_HISTORY_UPDATES = 100

ISOLATED_VARIABLES = (
    "DJANGO_DEBUG",
    "DJANGO_SETTINGS_MODULE",
    "CACHE_URL",
    "CELERY_BROKER_URL",
    "CELERY_RESULT_BACKEND",
    "TUTE_EVENTS_URL",
)


# -- setup ----------------------------------------------------------------------------------------------


def bench_environment(database_url: str, data_dir: str) -> None:
    """This process's environment (inherited by ``migrate``): production settings on the bench database."""
    for name in ISOLATED_VARIABLES:
        os.environ.pop(name, None)
    os.environ.update(
        DJANGO_SETTINGS_MODULE="tute_site.settings",
        DATABASE_URL=database_url,
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_LOG_LEVEL="WARNING",
        TUTE_DATA_DIR=data_dir,
    )


def migrate() -> float:
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=PROJECT_DIR,
        env=dict(os.environ),
        check=True,
    )
    return time.perf_counter() - started


# -- synthetic history ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Who:
    player_id: int | None
    bot_level: str
    strength: float


@dataclass
class Writer:
    """Appends synthetic finished matches with explicit ids, through COPY."""

    rng: random.Random
    people: list[Who]
    start: datetime
    next_match: int = 1
    next_seat: int = 1
    next_game: int = 1
    written: int = 0
    counts: dict[str, int] = field(default_factory=dict)

    def finished_at(self) -> datetime:
        return self.start + timedelta(seconds=SECONDS_BETWEEN_MATCHES * self.written)

    def write(self, n: int, pool: list[Who]) -> list[int]:
        """``n`` new finished matches of players drawn from ``pool``; their ids, in finishing order."""
        from django.db import connection
        from psycopg.types.json import Jsonb

        matches: list[tuple[Any, ...]] = []
        seats: list[tuple[Any, ...]] = []
        games: list[tuple[Any, ...]] = []
        ids = []
        for _ in range(n):
            match_id = self.next_match
            self.next_match += 1
            ids.append(match_id)
            when = self.finished_at()
            self.written += 1
            game, table, match_result, game_results, fmt, target, reason = self.one_match(pool)
            self.counts[game] = self.counts.get(game, 0) + 1
            rated = self.rng.random() >= 0.03
            matches.append(
                (
                    match_id,
                    game,
                    len(table),
                    Jsonb({"pocha_sequence": [1, 2]} if game == "pocha" else {}),
                    "1",
                    fmt,
                    target,
                    "finished",
                    rated,
                    when - timedelta(minutes=12),
                    when - timedelta(minutes=11),
                    when,
                    40 * len(game_results),
                    Jsonb(match_result),
                    reason,
                    120,
                    15,
                    3,
                )
            )
            for index, who in enumerate(table):
                seats.append((self.next_seat, match_id, index, who.player_id, who.bot_level, True, "", 0))
                self.next_seat += 1
            for number, result in enumerate(game_results):
                status = "finished" if result is not None else "abandoned"
                games.append(
                    (
                        self.next_game,
                        match_id,
                        number,
                        secrets.token_hex(16),
                        Jsonb([]),
                        number % len(table),
                        40 * number,
                        status,
                        None if result is None else Jsonb(result),
                        when - timedelta(minutes=11),
                        when if result is not None else None,
                    )
                )
                self.next_game += 1
        with connection.cursor() as cursor:
            raw = cursor.cursor
            copies = (
                (
                    "games_match (id, game, num_players, options, rules_version, format, format_target, "
                    "status, rated, created_at, started_at, finished_at, ply, result, finish_reason, "
                    "human_move_seconds, bot_move_seconds, max_timeouts)",
                    matches,
                ),
                (
                    'games_seat (id, match_id, "index", player_id, bot_level, accepted, decline_reason, timeouts)',
                    seats,
                ),
                (
                    "games_game (id, match_id, number, seed, decks, dealer, first_ply, status, result, "
                    "started_at, finished_at)",
                    games,
                ),
            )
            for target_table, rows in copies:
                with raw.copy(f"COPY {target_table} FROM STDIN") as copy:
                    for row in rows:
                        copy.write_row(row)
            for table_name in ("games_match", "games_seat", "games_game"):
                cursor.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table_name}', 'id'), "
                    f"(SELECT coalesce(max(id), 1) FROM {table_name}))"
                )
        return ids

    def one_match(
        self, pool: list[Who]
    ) -> tuple[str, list[Who], dict[str, Any], list[dict[str, Any] | None], str, int, str]:
        rng = self.rng
        roll = rng.random()
        if roll < 0.5:
            table = rng.sample(pool, 2)
            if rng.random() < 0.03:  # a best-of-2 match split 1-1
                results: list[dict[str, Any] | None] = [self.tute_game(0), self.tute_game(1)]
                return "tute2", table, self.match_result([1, 1], 2), results, "best_of", 2, "completed"
            side = self.winner(table[0].strength, table[1].strength)
            return (
                "tute2",
                table,
                self.match_result(self.won(side, 2), 1),
                [self.tute_game(side)],
                "single",
                1,
                "completed",
            )
        if roll < 0.75:
            table = rng.sample(pool, 4)
            if rng.random() < 0.1:
                levels = rng.sample(sorted(HOUSE_LEVELS), rng.choice([1, 2]))
                for seat, level in zip(rng.sample(range(4), len(levels)), levels, strict=True):
                    table[seat] = Who(None, level, HOUSE_LEVELS[level])
            a = (table[0].strength + table[2].strength) / 2
            b = (table[1].strength + table[3].strength) / 2
            side = self.winner(a, b)
            return (
                "tute4",
                table,
                self.match_result(self.won(side, 2), 1),
                [self.tute_game(side)],
                "single",
                1,
                "completed",
            )
        n = rng.choice([3, 4, 5])
        table = rng.sample(pool, n)
        if rng.random() < 0.1:
            level = rng.choice(sorted(HOUSE_LEVELS))
            table[rng.randrange(n)] = Who(None, level, HOUSE_LEVELS[level])
        if rng.random() < 0.02:  # someone resigns before the only game is over
            quitter = rng.randrange(n)
            winners = [s for s in range(n) if s != quitter]
            result = {"games_won": [0] * n, "winners": winners, "games": 0, "conceded_by": quitter}
            return "pocha", table, result, [None], "single", 1, "resigned"
        scores = [5 * round(rng.gauss(2 + (w.strength - 1500) / 100, 4)) for w in table]
        best = max(scores)
        winners = [s for s, score in enumerate(scores) if score == best]
        won = [1 if s in winners else 0 for s in range(n)]
        game = {"scores": scores, "winners": winners}
        return "pocha", table, self.match_result(won, 1), [game], "single", 1, "completed"

    def winner(self, a: float, b: float) -> int:
        return 0 if self.rng.random() < 1.0 / (1.0 + 10.0 ** ((b - a) / 400.0)) else 1

    @staticmethod
    def won(side: int, sides: int) -> list[int]:
        return [1 if s == side else 0 for s in range(sides)]

    @staticmethod
    def match_result(won: list[int], games: int) -> dict[str, Any]:
        best = max(won)
        return {"games_won": won, "winners": [s for s, w in enumerate(won) if w == best], "games": games}

    def tute_game(self, side: int) -> dict[str, Any]:
        points = self.rng.randrange(61, 131)
        scores = [points, 130 - points] if side == 0 else [130 - points, points]
        return {"scores": scores, "winners": [side]}


def make_people(rng: random.Random) -> list[Who]:
    from django.contrib.auth.hashers import make_password
    from django.contrib.auth.models import User

    from games.models import Player

    unusable = make_password(None)
    users = User.objects.bulk_create(
        [User(username=f"bench{i:05d}", password=unusable) for i in range(PEOPLE + 2 * BOT_ACCOUNTS)],
        batch_size=2000,
    )
    people, owners_and_bots = users[:PEOPLE], users[PEOPLE:]
    players = [Player(user=u, handle=u.username, display_name=u.username) for u in people]
    for owner, bot_user in zip(owners_and_bots[::2], owners_and_bots[1::2], strict=True):
        players.append(
            Player(
                user=bot_user,
                handle=bot_user.username,
                display_name=bot_user.username,
                is_bot=True,
                owner=owner,
            )
        )
    created = Player.objects.bulk_create(players, batch_size=2000)
    who = [Who(p.pk, "", rng.gauss(1500, 150)) for p in created]
    rng.shuffle(who)
    return who


# -- measuring ------------------------------------------------------------------------------------------


@dataclass
class CpuClock:
    """CPU seconds of this process and of its PostgreSQL backend (read from /proc when the server runs on
    this machine and we may read its processes; else the backend's share is unknown).

    On a shared machine wall time depends on the neighbours; CPU time much less so.
    """

    backend_pid: int | None = None
    started: tuple[float, float | None] = (0.0, None)

    def __post_init__(self) -> None:
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            row = cursor.fetchone()
        self.backend_pid = int(row[0]) if row else None
        self.started = self.now()

    def backend_seconds(self) -> float | None:
        try:
            fields = Path(f"/proc/{self.backend_pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return None
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime

    def now(self) -> tuple[float, float | None]:
        return time.process_time(), self.backend_seconds()

    def since_start(self) -> str:
        own, backend = self.now()
        text = f"CPU: {own - self.started[0]:.1f} s here"
        if backend is not None and self.started[1] is not None:
            text += f", {backend - self.started[1]:.1f} s in the PostgreSQL backend"
        return text


@dataclass
class SqlClock:
    """Time spent inside SQL statements (execute and fetch on the server's side of the driver)."""

    seconds: float = 0.0
    statements: int = 0

    def __call__(self, execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            self.seconds += time.perf_counter() - started
            self.statements += 1


def timed_updates(label: str, match_ids: list[int], apply: Callable[[int], int]) -> None:
    from django.db import connection

    clock = SqlClock()
    cpu = CpuClock()
    started = time.perf_counter()
    changes = 0
    with connection.execute_wrapper(clock):
        for match_id in match_ids:
            changes += apply(match_id)
    seconds = time.perf_counter() - started
    n = len(match_ids)
    print(
        f"{label}: {n} matches in {seconds:.2f} s = {n / seconds:.0f} matches/s, "
        f"{changes / seconds:.0f} rating changes/s ({1000 * seconds / n:.1f} ms a match, "
        f"{1000 * clock.seconds / n:.1f} ms of it in {clock.statements / n:.1f} SQL statements; "
        f"{cpu.since_start()})"
    )


def commit_baseline(count: int = 200) -> None:
    """For scale: one transaction that updates one row, ``count`` times (the floor of a rated match)."""
    from django.db import connection, transaction

    from games.models import Player

    pk = Player.objects.values_list("pk", flat=True).first()
    started = time.perf_counter()
    for _ in range(count):
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("UPDATE games_player SET display_name = display_name WHERE id = %s", [pk])
    seconds = time.perf_counter() - started
    print(
        f"baseline: a one-row UPDATE transaction takes {1000 * seconds / count:.1f} ms ({count / seconds:.0f}/s)"
    )


def backlog_query(match_ids: list[int], repeat: int = 5) -> None:
    """The task's backlog query (``pending_before``) alone, for each match of ``match_ids``: its median."""
    import statistics

    from games.models import Match
    from ratings.services import pending_before

    finished = dict(Match.objects.filter(pk__in=match_ids).values_list("pk", "finished_at"))
    seconds = []
    for match_id in match_ids:
        for _ in range(repeat):
            started = time.perf_counter()
            pending_before(match_id=match_id, finished_at=finished[match_id])
            seconds.append(time.perf_counter() - started)
    print(
        f"backlog query (pending_before) on that history: median {1000 * statistics.median(seconds):.2f} ms, "
        f"max {1000 * max(seconds):.2f} ms over {len(seconds)} calls"
    )


def recompute(profile: bool) -> float:
    from django.core.management import call_command
    from django.db import connection

    clock = SqlClock()
    cpu = CpuClock()
    out = io.StringIO()
    profiler = cProfile.Profile() if profile else None
    started = time.perf_counter()
    with connection.execute_wrapper(clock):
        if profiler is not None:
            profiler.enable()
        call_command("ratings_recompute", stdout=out)
        if profiler is not None:
            profiler.disable()
    seconds = time.perf_counter() - started
    print(f"recompute: {out.getvalue().strip()}")
    print(
        f"recompute: {seconds:.1f} s in all; {clock.seconds:.1f} s inside {clock.statements} SQL statements, "
        f"{seconds - clock.seconds:.1f} s in Python; {cpu.since_start()}"
    )
    verdict = "met" if seconds <= TARGET_RECOMPUTE_SECONDS else "MISSED"
    print(f"# target recompute <= {TARGET_RECOMPUTE_SECONDS:.0f} s: {verdict} ({seconds:.1f} s)")
    if profiler is not None:
        stream = io.StringIO()
        pstats.Stats(profiler, stream=stream).sort_stats("cumulative").print_stats(25)
        print(stream.getvalue())
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument(
        "--matches", type=int, default=100_000, help="matches in the recompute (default 100000)"
    )
    parser.add_argument("--updates", type=int, default=500, help="matches in each update measurement")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--profile", action="store_true", help="cProfile the recompute")
    parser.add_argument("--keep", action="store_true", help="keep the database tute_bench_ratings")
    parser.add_argument(
        "--postgres", default=os.environ.get("BENCH_POSTGRES_URL", DEFAULT_POSTGRES_URL), help="server URL"
    )
    args = parser.parse_args()
    postgres_url = args.postgres.rstrip("/")
    rng = random.Random(args.seed)
    total_started = time.perf_counter()

    with tempfile.TemporaryDirectory(prefix="tute-bench-ratings-") as data_dir:
        recreate_database(postgres_url, BENCH_DB)
        try:
            bench_environment(f"{postgres_url}/{BENCH_DB}", data_dir)
            migrated = migrate()
            sys.path.insert(0, str(PROJECT_DIR))
            import django

            django.setup()
            from django.db import connection

            from ratings.services import match_ratings_apply
            from ratings.tasks import apply_match_ratings

            with connection.cursor() as cursor:
                cursor.execute("SELECT version()")
                row = cursor.fetchone()
            server = row[0].split(" on ")[0] if row else "?"
            print(
                f"# Python {platform.python_version()} on {platform.platform()}, {os.cpu_count()} CPUs; "
                f"{server}; seed {args.seed}; migrate {migrated:.1f} s"
            )
            people = make_people(rng)
            start = datetime(2026, 1, 1, tzinfo=UTC)
            writer = Writer(rng=rng, people=people, start=start)
            active = people[:ACTIVE_PLAYERS]

            # (a) updates through the service, and through the task's function
            commit_baseline()
            ids = writer.write(args.updates, active)
            timed_updates("updates, match_ratings_apply", ids, lambda m: match_ratings_apply(match_id=m))
            ids = writer.write(args.updates, active)
            timed_updates("updates, apply_match_ratings task function", ids, lambda m: apply_match_ratings(m))

            # (b) a full recompute of --matches matches
            started = time.perf_counter()
            while writer.written < args.matches:
                writer.write(min(10_000, args.matches - writer.written), people)
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE")
            counts = ", ".join(f"{game} {count}" for game, count in sorted(writer.counts.items()))
            print(
                f"history: {writer.written} matches ({counts}) written in {time.perf_counter() - started:.1f} s"
            )
            recompute(args.profile)

            # (c) updates with that history behind them
            ids = writer.write(LONG_HISTORY_UPDATES, active)
            timed_updates(
                f"updates on a {args.matches}-match history, apply_match_ratings task function",
                ids,
                lambda m: apply_match_ratings(m),
            )
            ids = writer.write(LONG_HISTORY_UPDATES, active)
            timed_updates(
                f"updates on a {args.matches}-match history, match_ratings_apply",
                ids,
                lambda m: match_ratings_apply(match_id=m),
            )
            backlog_query(ids)
            connection.close()
        finally:
            if not args.keep:
                drop_database(postgres_url, BENCH_DB)
    print(f"(total {time.perf_counter() - total_started:.0f} s)")


if __name__ == "__main__":
    main()
