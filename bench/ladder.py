"""Ladder benchmark (issue 21): simulated bots on the ladder for minutes, with the real service.

Run by hand from the project root (PostgreSQL and Redis must be up)::

    python bench/ladder.py [--bots 50] [--minutes 10] [--redis URL] [--postgres URL] [--poll-share 0.2]

What it does:

1. Drops and recreates the PostgreSQL database ``tute_bench_ladder``, migrates it with
   ``bench.bench_settings`` (production settings, throttle limits out of reach) and flushes the Redis
   database of ``--redis`` (default ``redis://127.0.0.1:6379/13``), this run's broker.
2. Makes ``--bots`` bot accounts (two per owner, so the per-owner limits are the defaults' and never
   the bottleneck), each validated for Tute 2 (validation is issue 21's too, but not what this measures)
   and opted in to the Tute 2 ladder.
3. Starts gunicorn (gthread, 2 workers x 40 threads, at most 30 open event streams each) and, as
   docs/DEPLOY.md lays them out, one Celery worker with its beat (``-B``: the matchmaker every
   ``TUTE_LADDER_TICK_SECONDS``, the clock's sweeper) on the queues players and bots wait for
   (``celery``, ``bots``), concurrency 2, and one on the ``background`` queue (games' luck figures),
   concurrency 1 at nice 10; everything with the default ladder settings.
4. Runs every bot as ``client.tute_client.run_bot`` in a thread of this process: a share of them
   (``--poll-share``) by polling (every ``--poll-interval`` seconds, the client's default 1 s), the
   rest on the event stream. Bot ``i`` of ``N`` has a true strength
   ``s = i / (N - 1)``: on each turn it plays the ``rule`` house bot's move (the same code, on the view
   it was sent) with probability ``s``, else a random legal move.
5. After ``--minutes``: prints the ladder matches finished per bot per minute, the matchmaker's run time
   per tick (from the worker's log of ``ladder.tick``), the bots' reply latency (the action POST,
   and from the ``your_turn`` received to the action accepted) p50/p99, how long after its clock
   started a turn reached the bot (the event's deadline less the move's seconds), the errors (requests that failed,
   refused actions, timeouts), and the Spearman rank correlation between the true strengths and the
   final Tute 2 ratings (with the mean rating of the weakest and strongest fifth).

The machine is shared: gunicorn, the worker, PostgreSQL, Redis and the 50 bots run on the same CPUs.
docs/PERFORMANCE.md records the figures.
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from types import FrameType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import Child, drop_database, recreate_database, run_child
from bench.api import (
    PROJECT_DIR,
    Server,
    child_env,
    describe_machine,
    load_average,
    percentile,
)

BENCH_DB = "tute_bench_ladder"
THREADS = 40  # gunicorn's threads per worker (2 workers)
DEFAULT_POSTGRES_URL = "postgresql://postgres@127.0.0.1:5432"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/13"  # flushed: give a database of your own
TICK_LINE = re.compile(r"ladder tick: \d+ matches, \d+ validation matches, \d+ settled in ([0-9.]+) s")


# -- set-up and report (children with Django) -----------------------------------------------------------


def child(mode: str, args: list[str]) -> None:
    import django

    django.setup()
    from django.contrib.auth.models import User

    from games.models import Player
    from games.services import bot_create
    from ladder.models import GAMES, BotIncident, BotProfile, LadderMatch, Validation

    if mode == "setup":
        count = int(args[0])
        for i in range(count):
            owner, _ = User.objects.get_or_create(username=f"owner-{i // 2}")
            bot, token = bot_create(owner=owner, handle=f"ladder-{i:02d}")
            for game in GAMES:
                Validation.objects.create(player=bot, game=game, status="passed", required=0, passed=0)
            BotProfile.objects.create(player=bot, ladder_games=["tute2"])
            print(json.dumps({"handle": bot.handle, "token": token}))
    elif mode == "report":
        from ratings.models import Rating

        started, stopped = float(args[0]), float(args[1])
        for bot in Player.objects.filter(is_bot=True, handle__startswith="ladder-").order_by("handle"):
            finished = LadderMatch.objects.filter(
                bots=bot,
                kind="ladder",
                match__finished_at__gte=_dt(started),
                match__finished_at__lte=_dt(stopped),
            ).count()
            rating = Rating.objects.filter(pool="tute2", player=bot).first()
            incidents = BotIncident.objects.filter(  # while the bots ran (not their matches left after)
                player=bot, created_at__gte=_dt(started), created_at__lte=_dt(stopped)
            )
            print(
                json.dumps(
                    {
                        "handle": bot.handle,
                        "finished": finished,
                        "rating": rating.rating if rating else None,
                        "rated": rating.rated_matches if rating else 0,
                        "illegal": incidents.filter(kind="illegal").count(),
                        "timeouts": incidents.filter(kind="timeout").count(),
                    }
                )
            )
        anchors = Rating.objects.filter(pool="tute2", house_bot__in=["random", "rule"])
        print(json.dumps({"anchors": {a.house_bot: round(a.rating) for a in anchors}}))
    else:
        raise SystemExit(f"unknown child mode {mode!r}")


def _dt(unix: float) -> Any:
    from datetime import UTC, datetime

    return datetime.fromtimestamp(unix, tz=UTC)


# -- the simulated bots ---------------------------------------------------------------------------------


def seat_view(data: dict[str, Any]) -> Any:
    """The engine's SeatView rebuilt from the API's JSON view, for the rule bot's code."""
    from games.engine.views import SeatView, TrickView

    fields = {name: data[name] for name in SeatView.__dataclass_fields__ if name in data}
    fields.update(
        hand=tuple(data["hand"]),
        hand_sizes=tuple(data["hand_sizes"]),
        known=tuple(tuple(k) for k in data["known"]),
        trick=tuple((s, c) for s, c in data["trick"]),
        tricks=tuple(
            TrickView(t["leader"], tuple((s, c) for s, c in t["cards"]), t["winner"], t["points"])
            for t in data["tricks"]
        ),
        exchanges=tuple((e["seat"], e["gave"], e["took"]) for e in data["exchanges"]),
        cantes=tuple((c["seat"], c["suit"], c["points"]) for c in data["cantes"]),
        passes=tuple(data["passes"]),
        bids=tuple(data["bids"]),
        tricks_won=tuple(data["tricks_won"]),
        points=tuple(data["points"]),
        scores=tuple(data["scores"]),
        hands_played=tuple(data["hands_played"]),
        actions=tuple(data["actions"]),
    )
    return SeatView(**fields)


class Measures:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.posts: list[float] = []
        self.replies: list[float] = []
        self.notice_delays: list[float] = []  # the turn's clock started to the your_turn in the bot's hands
        self.failed_requests = 0
        self.warnings: list[str] = []


def make_bot(strength: float, measures: Measures, seed: int) -> Callable[[dict[str, Any]], str]:
    from games.bots import get_bot

    rule = get_bot("rule")
    rng = random.Random(seed)

    def choose(event: dict[str, Any]) -> str:
        legal = event["legal"]
        if rng.random() < strength:
            return rule(seat_view(event["view"]), tuple(legal), rng)
        return rng.choice(legal)

    return choose


class EventLog:
    """One line per event a bot heard (UTC time, bot, type, match, ply, and a bye's reason), to trace a
    timeout from the bot's side: when its turn reached it, if it did."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.file = path.open("w", buffering=1)
        self.lock = threading.Lock()

    def write(self, handle: str, event: dict[str, Any]) -> None:
        now = datetime.now(UTC).strftime("%H:%M:%S.%f")[:-3]
        extra = event.get("reason") or event.get("deadline") or ""
        with self.lock:
            if self.file.closed:  # a bot still finishing its last turn after the run
                return
            self.file.write(
                f"{now} {handle} {event.get('type')} {event.get('match', '-')} {event.get('ply', '-')} {extra}\n"
            )

    def close(self) -> None:
        with self.lock:
            self.file.close()


class WarningCounter(logging.Handler):
    def __init__(self, measures: Measures) -> None:
        super().__init__(logging.WARNING)
        self.measures = measures

    def emit(self, record: logging.LogRecord) -> None:
        with self.measures.lock:
            self.measures.warnings.append(record.getMessage()[:200])


def timed_client(base: str, token: str, measures: Measures) -> Any:
    """A client that times each action POST and, with ``turn_began`` set by the bot's choice, the whole
    reply: from the ``your_turn`` received to the action accepted."""
    from client.tute_client import ApiError, TuteClient

    class Timed(TuteClient):
        turn_began: float | None = None

        def act(self, match_id: int, action: str, ply: int, idempotency_key: str | None = None) -> Any:
            began = time.perf_counter()
            try:
                answer = super().act(match_id, action, ply, idempotency_key)
            except ApiError as exc:
                if exc.code not in ("stale_ply", "not_your_turn", "match_not_in_progress"):
                    with measures.lock:
                        measures.failed_requests += 1
                raise
            end = time.perf_counter()
            with measures.lock:
                measures.posts.append(end - began)
                if self.turn_began is not None:
                    measures.replies.append(end - self.turn_began)
            self.turn_began = None
            return answer

    return Timed(base, token)


def run_bots(
    base: str,
    accounts: list[dict[str, Any]],
    poll_share: float,
    minutes: float,
    measures: Measures,
    poll_interval: float = 1.0,
    move_seconds: float = 15.0,
    trace: Callable[[str, dict[str, Any]], None] | None = None,
    stream_seconds: float = 300.0,
) -> float:
    """Run the bots for ``minutes``; the time they were told to stop. ``trace`` sees each bot's events."""
    from client.tute_client import run_bot

    stop = threading.Event()
    threads = []
    n = len(accounts)
    for i, account in enumerate(accounts):
        strength = i / (n - 1) if n > 1 else 1.0
        client = timed_client(base, account["token"], measures)
        choose = make_bot(strength, measures, seed=i)
        poll = int((i + 1) * poll_share) > int(i * poll_share)  # spread over the strengths
        options: dict[str, Any] = {"stop": stop}
        if trace is not None:
            options["on_event"] = lambda event, handle=account["handle"]: trace(handle, event)
        options.update(
            {"poll": True, "poll_interval": poll_interval} if poll else {"stream_seconds": stream_seconds}
        )

        def turn(event: dict[str, Any], client: Any = client, choose: Any = choose) -> str:
            client.turn_began = time.perf_counter()
            if event.get("deadline"):
                left = (
                    datetime.fromisoformat(event["deadline"].replace("Z", "+00:00")).timestamp() - time.time()
                )
                with measures.lock:
                    measures.notice_delays.append(move_seconds - left)
            return str(choose(event))

        def play(client: Any = client, turn: Any = turn, options: dict[str, Any] = options) -> None:
            try:
                run_bot(client, turn, **options)
            except Exception as exc:  # counted, never silent
                with measures.lock:
                    measures.warnings.append(f"bot stopped: {exc}")

        thread = threading.Thread(target=play, daemon=True, name=account["handle"])
        threads.append(thread)
        thread.start()
        time.sleep(0.02)
    time.sleep(minutes * 60)
    stopped = time.time()  # from here the bots quit, each after its next event: their turns may time out
    stop.set()
    for thread in threads:
        thread.join(timeout=360)
    return stopped


# -- the worker with its beat ---------------------------------------------------------------------------


class Worker(Child):
    """``celery -A tute_site worker -B`` (the beat inside) in its own process group, logging at INFO."""

    def __init__(
        self,
        env: dict[str, str],
        concurrency: int,
        data_dir: str,
        *,
        queues: str = "",
        beat: bool = True,
        nice: int = 0,
    ) -> None:
        command = [
            *(["nice", "-n", str(nice)] if nice else []),
            sys.executable,
            "-m",
            "celery",
            "-A",
            "tute_site",
            "worker",
            *(["-B", "-s", str(Path(data_dir) / "celerybeat-schedule")] if beat else []),
            *(["-Q", queues, "-n", f"{queues.split(',')[0]}@%h"] if queues else []),
            "--concurrency",
            str(concurrency),
            "--loglevel",
            "INFO",
        ]
        super().__init__(command, env, log_prefix="tute-bench-ladder-worker-", grace=20)


# -- figures --------------------------------------------------------------------------------------------


def ranks(values: list[float]) -> list[float]:
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(a: list[float], b: list[float]) -> float:
    ra, rb = ranks(a), ranks(b)
    n = len(a)
    ma, mb = sum(ra) / n, sum(rb) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb, strict=True))
    va = sum((x - ma) ** 2 for x in ra) ** 0.5
    vb = sum((y - mb) ** 2 for y in rb) ** 0.5
    return cov / (va * vb) if va and vb else float("nan")


def ms_summary(name: str, values: list[float]) -> str:
    return (
        f"{name} p50 {percentile(values, 0.5) * 1000:.1f} ms, p99 {percentile(values, 0.99) * 1000:.1f} ms "
        f"({len(values)} samples)"
    )


def run_bench(args: argparse.Namespace, data_dir: str) -> int:
    import redis

    began = time.perf_counter()
    database_url = f"{args.postgres}/{args.database}"
    env = child_env(database_url, "", data_dir)
    env.update(CELERY_BROKER_URL=args.redis, TUTE_EVENTS_URL=args.redis, TUTE_SWEEP_SECONDS="5")
    # Every simulated bot streams from this one address: the per-address cap (issue 16) is raised to fit
    # the bench, not removed. The per-process cap stays below gunicorn's threads, as the settings say: a
    # gthread worker takes connections whether or not it has a free thread, and one that held a stream
    # on every thread (40 of 40: the kernel gave one worker nearly all of them) left the bots' actions
    # queued behind the streams there, for seconds, till their clocks ran out. A stream refused by a full
    # process (503 streams_busy) reconnects and lands on the other.
    env.update(
        TUTE_STREAMS_PER_ADDRESS=str(args.bots * 2),
        TUTE_STREAMS_PER_PROCESS=str(THREADS * 3 // 4),
    )
    recreate_database(args.postgres, args.database)
    flush = redis.Redis.from_url(args.redis)
    flush.flushdb()
    flush.close()
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "--verbosity", "0"],
        cwd=PROJECT_DIR,
        env=env,
        check=True,
    )
    accounts = run_child(__file__, "setup", env, str(args.bots))
    print(f"# {describe_machine()}; {load_average()} at the start")
    print(
        f"# {args.bots} bots ({round(args.bots * args.poll_share)} polling every {args.poll_interval:g} s, the rest "
        "streaming), Tute 2 ladder, "
        f"{args.minutes:g} minutes; gunicorn gthread 2 x {THREADS} threads, at most {THREADS * 3 // 4} streams each; one worker, concurrency {args.concurrency}, "
        "with its beat (queues celery and bots), one for the background queue (concurrency 1, nice 10); "
        "default ladder settings (tick 10 s, 2 matches at once per bot, 15 s a move)",
        flush=True,
    )
    # docs/DEPLOY.md's layout: the tasks bots and players wait for on one worker, the background queue
    # (games' luck figures, slow and waited for by nobody) on a worker of its own at a lower CPU priority.
    worker = Worker({**env, "DJANGO_LOG_LEVEL": "INFO"}, args.concurrency, data_dir, queues="celery,bots")
    background = Worker(env, 1, data_dir, queues="background", beat=False, nice=10)
    # With --log-dir the server logs at INFO: what its streams noticed (a turn found by a periodic look,
    # not a wake-up; a slow look; a stream replaced by its bot's reconnection) is in gunicorn.log.
    server_env = {**env, "DJANGO_LOG_LEVEL": "INFO"} if args.log_dir else env
    server = Server(workers=2, worker_class="gthread", threads=THREADS, env=server_env)
    measures = Measures()
    bots_log = EventLog(Path(args.log_dir, "bots.log")) if args.log_dir else None
    worker_log = ""
    logging.getLogger("client.tute_client").addHandler(WarningCounter(measures))
    logging.getLogger("client.tute_client").propagate = False
    try:
        server.wait_healthy()
        started = time.time()
        stopped = run_bots(
            f"http://127.0.0.1:{server.port}",
            accounts,
            args.poll_share,
            args.minutes,
            measures,
            poll_interval=args.poll_interval,
            trace=bots_log.write if bots_log is not None else None,
            stream_seconds=args.stream_seconds,
        )
        time.sleep(15)  # the last ratings tasks
        rows = run_child(__file__, "report", env, str(started), str(stopped))
    finally:
        if bots_log is not None:
            bots_log.close()
        if args.log_dir:
            Path(args.log_dir).mkdir(parents=True, exist_ok=True)
            Path(args.log_dir, "gunicorn.log").write_text(server.log_tail(100_000))
        server.stop()
        worker_log = worker.text()
        if args.log_dir:
            Path(args.log_dir, "worker.log").write_text(worker_log)
        worker.stop()
        background.stop()
        if not args.keep:
            drop_database(args.postgres, args.database)
    anchors = rows.pop()["anchors"]
    ticks = [float(m) for m in TICK_LINE.findall(worker_log)]
    if not ticks:
        lines = [line for line in worker_log.splitlines() if "tick" in line][:5]
        print("# no matchmaker tick found in the worker's log:", *lines, sep="\n#   ")
    finished = [r["finished"] for r in rows]
    per_bot_minute = [f / args.minutes for f in finished]
    print(
        f"ladder matches finished per bot per minute: mean {sum(per_bot_minute) / len(rows):.2f}, "
        f"min {min(per_bot_minute):.2f}, max {max(per_bot_minute):.2f} "
        f"({sum(finished)} ladder matches finished by the bots, a match counted for each of its bots)"
    )
    if ticks:
        print(
            ms_summary("matchmaker tick (the task's run time):", ticks) + f", max {max(ticks) * 1000:.1f} ms"
        )
    print(ms_summary("bot reply, the action POST:", measures.posts))
    print(ms_summary("bot reply, your_turn received to action accepted:", measures.replies))
    print(ms_summary("your_turn in the bot's hands after its clock started:", measures.notice_delays))
    illegal = sum(r["illegal"] for r in rows)
    timeouts = sum(r["timeouts"] for r in rows)
    print(
        f"errors: {measures.failed_requests} failed requests, {illegal} refused actions, {timeouts} timeouts, "
        f"{len(measures.warnings)} client warnings"
    )
    for warning in measures.warnings[:5]:
        print(f"#   {warning}")
    rated = [(i / (len(rows) - 1), r["rating"]) for i, r in enumerate(rows) if r["rating"] is not None]
    if len(rated) > 2:
        rho = spearman([s for s, _ in rated], [r for _, r in rated])
        fifth = max(1, len(rows) // 5)
        weak = [r["rating"] for r in rows[:fifth] if r["rating"] is not None]
        strong = [r["rating"] for r in rows[-fifth:] if r["rating"] is not None]
        print(
            f"rank correlation (Spearman) of true strength and Tute 2 rating: {rho:.2f} over {len(rated)} bots; "
            f"mean rating of the weakest fifth {sum(weak) / max(1, len(weak)):.0f}, strongest fifth "
            f"{sum(strong) / max(1, len(strong)):.0f}; anchors {anchors}; "
            f"rated matches per bot {min(r['rated'] for r in rows)}-{max(r['rated'] for r in rows)}"
        )
    print(f"# total run time {time.perf_counter() - began:.0f} s; {load_average()} at the end")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    parser.add_argument("--bots", type=int, default=50)
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--poll-share", type=float, default=0.2, help="share of the bots that poll (0.2)")
    parser.add_argument(
        "--poll-interval",
        type=float,
        default=1.0,
        help="a polling bot's seconds between polls (1, the client's)",
    )
    parser.add_argument(
        "--stream-seconds",
        type=float,
        default=300.0,
        help="a streaming bot asks the server to end each connection after this long (300)",
    )
    parser.add_argument("--concurrency", type=int, default=2, help="worker pool processes (2)")
    parser.add_argument("--postgres", default=DEFAULT_POSTGRES_URL)
    parser.add_argument("--redis", default=DEFAULT_REDIS_URL)
    parser.add_argument("--keep", action="store_true", help="keep the bench database")
    parser.add_argument(
        "--database", default=BENCH_DB, help=f"the bench database, dropped and made anew ({BENCH_DB})"
    )
    parser.add_argument(
        "--log-dir",
        help="keep the worker's and gunicorn's logs, and the bots' events (bots.log), in this folder",
    )
    args = parser.parse_args(argv)
    if args.child:
        child(args.child[0], args.child[1:])
        return 0

    def terminate(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, terminate)
    with tempfile.TemporaryDirectory(prefix="tute-bench-ladder-") as data_dir:
        return run_bench(args, data_dir)


if __name__ == "__main__":
    sys.exit(main())
