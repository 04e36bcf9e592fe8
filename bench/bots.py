"""Bots benchmark (issue 4): a house bot's reply over HTTP, a no-op task's round trip, and house-bot
matches per minute, with Redis, one Celery worker and PostgreSQL.

Run by hand from the project root (PostgreSQL and Redis must be up)::

    python bench/bots.py [--replies N] [--noops N] [--matches M] [--redis URL] [--postgres URL]

What it does, in order:

1. Drops and recreates the PostgreSQL database ``tute_bench_bots`` (``--postgres``), migrates it with
   ``bench.bench_settings`` (production settings, DEBUG off, throttle limits out of reach) and flushes the
   Redis database of ``--redis`` (default ``redis://127.0.0.1:6379/14``), the broker of this run.
2. Starts one Celery worker as production does, with one pool process (``celery -A tute_site worker
   --concurrency 1``, plus ``-I bench.noop_tasks``), and gunicorn (gthread, 2 workers x 4 threads) on a
   free loopback port (bench/api.py's ``Server``), both on that database and broker; waits until the
   worker answers a ping.
3. **No-op round trip**: N times, one after the other, sends the task ``bench.noop`` and waits for it
   to have run (it pushes onto a Redis list the bench waits on with BLPOP). Prints p50 and p99.
4. **House bot's reply**: a person plays Tute 2 against the ``--level`` house bot (``rule`` unless told) through the API (``GET
   .../view/`` for its legal codes, ``POST .../actions/``). Every commit of a move publishes the match's
   new ply on the person's Redis channel (the wake-up that event streams use); a listener thread of the
   bench timestamps each publication as it arrives. For every POST after which the house bot is to act,
   two times to the publication of the bot's reply (its move committed by the worker): from sending the
   POST, and from the publication of the person's move (its commit, right after which the bot's task was
   sent). The first replies are a warm-up, not counted. Prints p50 and p99 of each, and of the POST.
5. **The bot's thinking time**: in a child process, for every measured reply, the house bot's choice
   (``games.services.house_bot_action``: the seat's view, the legal codes, ``choose``) on the very position
   it answered, the median of 5 runs. Prints its p50 and p99, and those of each reply's time minus its
   own thinking time. Target (issue 4): the reply's p99 at most the thinking time plus 25 ms; it is
   judged on the reply counted from the person's move applied (the broker, the worker and the bot's own
   transaction: what a worker adds), and printed for the count from the POST too (which adds the
   person's own request, issue 3's subject). For the breakdown, also the house bot's whole service
   (``bot_turn_play``: lock, state, choice, insert, next turn, commit, wake-up) timed in a child process
   over a few house-bot-only matches.
6. **Matches per minute**: M unrated matches of house bots only, created at once, played by the one
   worker: Tute 2 (``random`` against ``rule``) and Tute 4 (``rule``, ``random``, ``rule``, ``random``).
   Each rate is M divided by the time from the first match's start to the last one's finish (both
   from the database). Also prints the house-bot moves a second that makes.

Matches are unrated (``rated: false``), so that no ratings task shares the worker with the bots. Worker
and gunicorn are stopped at the end, also on errors and on Ctrl-C, and the database is dropped (keep it
with ``--keep``). Everything runs on one machine and shares its CPUs. docs/PERFORMANCE.md records the
figures.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import secrets
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

PROJECT_DIR = Path(__file__).resolve().parent.parent
if str(PROJECT_DIR) not in sys.path:  # run as `python bench/bots.py`: bench/api.py is a sibling module
    sys.path.insert(0, str(PROJECT_DIR))

from bench._common import Child, drop_database, recreate_database, run_child  # noqa: E402
from bench.api import (  # noqa: E402
    Client,
    Server,
    child_env,
    describe_machine,
    load_average,
    ms,
    percentile,
)

BENCH_DB = "tute_bench_bots"
DEFAULT_POSTGRES_URL = "postgresql://postgres@127.0.0.1:5432"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/14"
#: Target of issue 4: a reply's p99 at most the bot's thinking time plus this.
TARGET_OVERHEAD_MS = 25.0
WARMUP_REPLIES = 20
THINK_RUNS = 5
#: Any single wait (a reply, a no-op, a worker start) longer than this is an error.
WAIT_SECONDS = 30.0

BOT_SEAT = 1
HOUSE_ONLY = {
    "tute2": ["random", "rule"],
    "tute4": ["rule", "random", "rule", "random"],
}


# -- set-up ---------------------------------------------------------------------------------------------


class Worker(Child):
    """``celery -A tute_site worker --concurrency 1`` in its own process group."""

    def __init__(self, env: dict[str, str], concurrency: int) -> None:
        self.nodename = f"bench-bots-{secrets.token_hex(3)}@{os.uname().nodename}"
        command = [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "tute_site",
            "worker",
            "--concurrency",
            str(concurrency),
            "-I",
            "bench.noop_tasks",
            "--loglevel",
            "WARNING",
            "-n",
            self.nodename,
        ]
        super().__init__(command, env, log_prefix="tute-bench-worker-", grace=15)

    def wait_ready(self, app: Any) -> None:
        deadline = time.monotonic() + WAIT_SECONDS
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the worker exited with {self.proc.returncode}:\n{self.log_tail()}")
            if app.control.ping(destination=[self.nodename], timeout=0.5):
                return
        raise RuntimeError(
            f"the worker did not answer a ping within {WAIT_SECONDS:.0f} s:\n{self.log_tail()}"
        )

    def log_tail(self, lines: int = 30) -> str:
        self.log.flush()
        return "\n".join(Path(self.log.name).read_text(errors="replace").splitlines()[-lines:])

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)  # warm shutdown: finishes the task at hand
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)  # the group this bench started, by its id
                self.proc.wait(timeout=5)
        self.log.close()


# -- Redis: the channel listener and the no-op round trip ------------------------------------------------


class PlyListener:
    """A thread subscribed to a player's channel: when each (match, ply) was published, as it arrives."""

    def __init__(self, redis_url: str, player_id: int) -> None:
        import redis

        self.client = redis.Redis.from_url(redis_url)
        self.pubsub = self.client.pubsub()
        self.pubsub.subscribe(f"tute:player:{player_id}")
        self.pubsub.get_message(timeout=5)  # the subscription's confirmation
        self.seen: dict[int, list[tuple[int, float]]] = {}
        self.changed = threading.Condition()
        self.running = True
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        while self.running:
            message = self.pubsub.get_message(ignore_subscribe_messages=True, timeout=0.5)
            if message is None:
                continue
            arrived = time.perf_counter()
            data: Any = message["data"]
            match_id, _, ply = (data.decode() if isinstance(data, bytes) else str(data)).partition(":")
            with self.changed:
                self.seen.setdefault(int(match_id), []).append((int(ply), arrived))
                self.changed.notify_all()

    def wait_ply(self, match_id: int, ply: int, since: float) -> float | None:
        """When the match reached ``ply`` or later (first such publication after ``since``), or None."""
        deadline = time.perf_counter() + WAIT_SECONDS
        with self.changed:
            while True:
                for seen_ply, arrived in self.seen.get(match_id, []):
                    if seen_ply >= ply and arrived >= since:
                        return arrived
                left = deadline - time.perf_counter()
                if left <= 0:
                    return None
                self.changed.wait(left)

    def close(self) -> None:
        self.running = False
        self.thread.join(timeout=2)
        self.pubsub.close()
        self.client.close()


def noop_round_trips(app: Any, redis_url: str, count: int) -> list[float]:
    import redis

    client = redis.Redis.from_url(redis_url)
    key = f"bench:noop:{secrets.token_hex(4)}"
    times = []
    try:
        for i in range(count + WARMUP_REPLIES):
            token = str(i)
            start = time.perf_counter()
            app.send_task("bench.noop", args=[key, redis_url, token])
            done: Any = client.blpop([key], timeout=WAIT_SECONDS)
            elapsed = time.perf_counter() - start
            if done is None or done[1] != token.encode():
                raise RuntimeError(f"the no-op task {i} did not come back within {WAIT_SECONDS:.0f} s")
            if i >= WARMUP_REPLIES:
                times.append(elapsed)
    finally:
        client.close()
    return times


# -- the person against the house bot --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Reply:
    match: int
    ply: int  # the ply of the bot's reply
    from_post: float  # from sending the person's POST to the reply's publication
    from_applied: float  # from the person's move's publication (its commit) to the reply's
    post_seconds: float  # the POST's own round trip


def house_bot_replies(
    port: int, account: dict[str, Any], listener: PlyListener, count: int, seed: int, level: str = "rule"
) -> tuple[list[Reply], int]:
    """Play Tute 2 against the house bot of ``level`` until ``count`` replies are measured (after a
    warm-up)."""
    client = Client(port)
    rng = random.Random(seed)
    token = account["token"]
    replies: list[Reply] = []
    matches = 0
    match_id: int | None = None
    try:
        while len(replies) < count + WARMUP_REPLIES:
            if match_id is None:
                body = {
                    "game": "tute2",
                    "rated": False,
                    "seats": [{"player": account["handle"]}, {"bot": level}],
                }
                status, out, _ = client.call("POST", "/api/v1/matches/", token=token, body=body)
                if status != 201:
                    raise RuntimeError(f"creating a match: {status} {out}")
                match_id = int(out["id"])
                matches += 1
            status, view, _ = client.call("GET", f"/api/v1/matches/{match_id}/view/", token=token)
            if status != 200:
                raise RuntimeError(f"view: {status} {view}")
            if view["status"] != "in_progress":
                match_id = None
                continue
            if not view["legal"]:  # the house bot's turn: wait for its move's publication, then look again
                listener.wait_ply(match_id, view["ply"] + 1, since=0.0)
                continue
            ply = view["ply"]
            body = {"action": rng.choice(view["legal"]), "ply": ply}
            sent = time.perf_counter()
            status, out, post_seconds = client.call(
                "POST", f"/api/v1/matches/{match_id}/actions/", token=token, body=body
            )
            if status != 200:
                raise RuntimeError(f"action: {status} {out}")
            if out["status"] != "in_progress" or out["to_act"] != BOT_SEAT:
                continue  # the person acts again (or the match is over): no reply to wait for
            applied = listener.wait_ply(match_id, ply + 1, since=sent)
            arrived = listener.wait_ply(match_id, ply + 2, since=sent)
            if applied is None or arrived is None:
                raise RuntimeError(
                    f"no reply of the house bot within {WAIT_SECONDS:.0f} s (match {match_id})"
                )
            replies.append(
                Reply(
                    match=match_id,
                    ply=ply + 1,
                    from_post=arrived - sent,
                    from_applied=arrived - applied,
                    post_seconds=post_seconds,
                )
            )
    finally:
        client.close()
    return replies[WARMUP_REPLIES:], matches


# -- house bots alone ------------------------------------------------------------------------------------


def matches_per_minute(
    env: dict[str, str], postgres_url: str, game: str, count: int
) -> tuple[float, float, int]:
    """Create ``count`` house-bot-only matches at once; (elapsed seconds, house-bot moves, finished)."""
    import psycopg

    rows = run_child(__file__, "matches", env, game, str(count))
    ids = [int(row["id"]) for row in rows]
    deadline = time.monotonic() + max(120.0, 10.0 * count)
    with psycopg.connect(f"{postgres_url}/{BENCH_DB}", autocommit=True) as conn:
        while True:
            row = conn.execute(
                "SELECT count(*) FROM games_match WHERE id = ANY(%s) AND status = 'finished'", [ids]
            ).fetchone()
            finished = int(row[0]) if row else 0
            if finished == len(ids) or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        span = conn.execute(
            "SELECT extract(epoch FROM max(finished_at) - min(started_at)) FROM games_match WHERE id = ANY(%s)",
            [ids],
        ).fetchone()
        moves = conn.execute(
            "SELECT count(*) FROM games_action WHERE match_id = ANY(%s) AND kind = 'house_bot'", [ids]
        ).fetchone()
    if finished != len(ids):
        raise RuntimeError(f"{game}: only {finished} of {len(ids)} matches finished in time")
    assert span is not None and moves is not None
    return float(span[0]), float(moves[0]), finished


# -- child processes (Django set up, bench settings, bench database) -------------------------------------


def child(mode: str, args: list[str]) -> None:
    import django

    django.setup()
    from django.contrib.auth.models import User

    from games.models import Action, Match
    from games.services import (
        SeatSpec,
        house_bot_action,
        match_create,
        match_spec,
        player_for_user,
        token_create,
    )
    from games.states import game_state

    if mode == "setup":
        for name in ("bench-person", "bench-host"):
            user = User.objects.create_user(username=name)
            player = player_for_user(user=user)
            print(json.dumps({"handle": player.handle, "id": player.pk, "token": token_create(user=user)}))
    elif mode == "matches":
        game, count = args[0], int(args[1])
        host = player_for_user(user=User.objects.get(username="bench-host"))
        for _ in range(count):
            seats = [SeatSpec(bot=level) for level in HOUSE_ONLY[game]]
            match = match_create(spec=match_spec(created_by=host, game=game, seats=seats, rated=False))
            print(json.dumps({"id": match.pk}))
    elif mode == "think":
        for line in sys.stdin:
            if not line.strip():
                continue
            sample = json.loads(line)
            match = Match.objects.get(pk=sample["match"])
            action = Action.objects.select_related("game").get(match=match, ply=sample["ply"])
            state = game_state(match=match, game=action.game, ply=sample["ply"])
            seat = match.seats.get(index=action.seat)
            seed = f"{action.game.seed}:{sample['ply']}"
            runs = []
            for _ in range(THINK_RUNS):
                start = time.perf_counter()
                code = house_bot_action(seat.bot_level, state, action.seat, seed=seed)
                runs.append(time.perf_counter() - start)
            assert code == action.code, "the bot's choice replays exactly"
            runs.sort()
            print(json.dumps({**sample, "think": runs[len(runs) // 2]}))
    elif mode == "service":
        # The house bot's whole service, in this process: lock, state, choice, insert, next turn, commit,
        # wake-up. The tasks it would queue are dropped: this process plays every turn itself.
        import games.tasks
        from games.services import bot_turn_play

        class NoQueue:
            def delay(self, match_id: int, ply: int) -> None:  # what queue_house_bot calls on commit
                pass

        games.tasks.bot_play_turn = NoQueue()  # type: ignore[assignment]
        host = player_for_user(user=User.objects.get(username="bench-host"))
        for _ in range(int(args[0])):
            seats = [SeatSpec(bot=level) for level in HOUSE_ONLY["tute2"]]
            match = match_create(spec=match_spec(created_by=host, game="tute2", seats=seats, rated=False))
            while match.status == Match.Status.IN_PROGRESS:
                start = time.perf_counter()
                bot_turn_play(match_id=match.pk, ply=match.ply)
                print(json.dumps({"service": time.perf_counter() - start}))
                match.refresh_from_db()
    else:
        raise SystemExit(f"unknown child mode {mode!r}")


# -- main -----------------------------------------------------------------------------------------------


@contextmanager
def celery_client(redis_url: str) -> Iterator[Any]:
    """A bare Celery app on the bench broker (no Django): to ping the worker and send the no-op task."""
    from celery import Celery

    with Celery("bench.bots", broker=redis_url, set_as_current=False) as app:
        app.conf.task_serializer = "json"
        yield app


def summary(name: str, values: list[float]) -> str:
    return f"{name} p50 {ms(percentile(values, 0.5))} ms, p99 {ms(percentile(values, 0.99))} ms (n={len(values)})"


def bench(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory(prefix="tute-bench-bots-") as data_dir:
        return run_bench(args, data_dir)


def run_bench(args: argparse.Namespace, data_dir: str) -> int:
    import redis

    began = time.perf_counter()
    database_url = f"{args.postgres}/{BENCH_DB}"
    # This process's Celery app and every child take the broker from CELERY_BROKER_URL (Celery prefers
    # the variable to any configuration), so it is set once, here; the children's environment is
    # bench/api.py's (bench settings, a private TUTE_DATA_DIR) with this broker and its wake-ups.
    os.environ["CELERY_BROKER_URL"] = args.redis
    env = child_env(database_url, "", data_dir)
    env.update(CELERY_BROKER_URL=args.redis, TUTE_EVENTS_URL=args.redis)

    recreate_database(args.postgres, BENCH_DB)
    flush = redis.Redis.from_url(args.redis)
    flush.flushdb()
    flush.close()
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "--verbosity", "0"],
        cwd=PROJECT_DIR,
        env=env,
        check=True,
    )
    person, _host = run_child(__file__, "setup", env)
    print(f"# {describe_machine()}; {load_average()} at the start")
    print(
        f"# PostgreSQL database {BENCH_DB}; broker {args.redis}; one Celery worker, prefork, concurrency "
        f"{args.concurrency}; gunicorn gthread, {args.web_workers} workers x {args.threads} threads; "
        f"{WARMUP_REPLIES} warm-up replies and no-ops not counted",
        flush=True,
    )

    worker = Worker(env, args.concurrency)
    server: Server | None = None
    listener: PlyListener | None = None
    try:
        with celery_client(args.redis) as app:
            worker.wait_ready(app)
            server = Server(workers=args.web_workers, worker_class="gthread", threads=args.threads, env=env)
            server.wait_healthy()
            print(f"# setup took {time.perf_counter() - began:.1f} s", flush=True)

            noops = noop_round_trips(app, args.redis, args.noops)
            print(summary("no-op task round trip:", noops), flush=True)

        listener = PlyListener(args.redis, int(person["id"]))
        replies, played = house_bot_replies(
            server.port, person, listener, args.replies, args.seed, args.level
        )
        from_post = [r.from_post for r in replies]
        from_applied = [r.from_applied for r in replies]
        print(summary("house bot reply, from the person's POST sent:", from_post))
        print(summary("house bot reply, from the person's move applied:", from_applied))
        print(f"# {summary('the POST itself:', [r.post_seconds for r in replies])}; {played} matches")

        thought = run_child(
            __file__,
            "think",
            env,
            stdin="".join(json.dumps({"match": r.match, "ply": r.ply}) + "\n" for r in replies),
        )
        think = {(t["match"], t["ply"]): float(t["think"]) for t in thought}
        thinks = [think[(r.match, r.ply)] for r in replies]
        overheads = [r.from_applied - think[(r.match, r.ply)] for r in replies]
        overheads_post = [r.from_post - think[(r.match, r.ply)] for r in replies]
        print(summary(f"{args.level} bot thinking time on those positions:", thinks))
        print(summary("reply from the move applied, minus thinking time:", overheads))
        print(summary("reply from the POST sent, minus thinking time:", overheads_post), flush=True)
        service = [
            float(row["service"]) for row in run_child(__file__, "service", env, str(args.service_matches))
        ]
        print(f"# {summary('bot_turn_play service time, in-process (tute2 random vs rule):', service)}")

        rates = {}
        for game in ("tute2", "tute4"):
            seconds, moves, finished = matches_per_minute(env, args.postgres, game, args.matches)
            rates[game] = finished / seconds * 60
            print(
                f"{game} house bots only ({' vs '.join(HOUSE_ONLY[game])}): {rates[game]:.0f} matches/min "
                f"({finished} matches in {seconds:.1f} s, {moves / seconds:.0f} house-bot moves/s)",
                flush=True,
            )
    finally:
        if listener is not None:
            listener.close()
        if server is not None:
            server.stop()
        worker.stop()
        if not args.keep:
            drop_database(args.postgres, BENCH_DB)

    for name, values in (("from the move applied", overheads), ("from the POST sent", overheads_post)):
        p99 = percentile(values, 0.99) * 1000
        verdict = "met" if p99 <= TARGET_OVERHEAD_MS else "MISSED"
        print(
            f"# target reply p99 <= thinking time + {TARGET_OVERHEAD_MS:g} ms, {name}: {verdict} "
            f"(p99 of the reply minus its thinking time: {p99:.1f} ms)"
        )
    print(f"# total run time {time.perf_counter() - began:.0f} s; {load_average()} at the end")
    return 0


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--replies", type=int, default=400, help="house-bot replies measured (400)")
    parser.add_argument("--noops", type=int, default=400, help="no-op task round trips measured (400)")
    parser.add_argument("--matches", type=int, default=30, help="house-bot-only matches per game (30)")
    parser.add_argument(
        "--service-matches",
        type=int,
        default=5,
        help="matches whose bot_turn_play calls are timed in-process (5)",
    )
    parser.add_argument("--concurrency", type=int, default=1, help="the worker's pool processes (1)")
    parser.add_argument("--web-workers", type=int, default=2, help="gunicorn gthread workers (2)")
    parser.add_argument("--threads", type=int, default=4, help="threads per gunicorn worker (4)")
    parser.add_argument(
        "--redis", default=DEFAULT_REDIS_URL, help=f"the broker, flushed first ({DEFAULT_REDIS_URL})"
    )
    parser.add_argument(
        "--postgres",
        default=os.environ.get("BENCH_POSTGRES_URL", DEFAULT_POSTGRES_URL),
        help=f"PostgreSQL server URL without a database name ({DEFAULT_POSTGRES_URL})",
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the person's move choices (1)")
    parser.add_argument("--level", default="rule", help="the house bot the person plays (rule; search...)")
    parser.add_argument("--keep", action="store_true", help=f"keep the database {BENCH_DB} afterwards")
    parser.add_argument("--child", nargs="+", metavar="MODE", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.child:
        child(args.child[0], args.child[1:])
        return 0
    if min(args.replies, args.noops, args.matches, args.concurrency, args.web_workers) < 1:
        raise SystemExit("--replies, --noops, --matches, --concurrency and --web-workers must be positive")

    def terminate(signum: int, frame: FrameType | None) -> None:
        raise SystemExit(128 + signum)  # unwinds through bench()'s `finally`, which stops the processes

    signal.signal(signal.SIGTERM, terminate)
    try:
        return bench(args)
    except KeyboardInterrupt:
        print("interrupted; worker and gunicorn stopped", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
