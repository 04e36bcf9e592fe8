"""API benchmark (issue 3): Tute 2 moves per second through the REST API, against a plain Django view.

Run by hand from the project root (PostgreSQL must be up; nothing else is needed)::

    python bench/api.py [--seconds S] [--rounds R] [--concurrency C] [--workers W] [--worker-class sync|gthread]

What it does, in order:

1. Drops and recreates the PostgreSQL database ``tute_bench`` (through the ``postgres`` maintenance
   database; ``--postgres`` or BENCH_POSTGRES_URL says where the server is), runs ``manage.py migrate``
   into it with ``bench.bench_settings`` (production settings, DEBUG off, throttle limits out of reach,
   plus the baseline view of ``bench/bench_urls.py``), and makes 6 x C players with one API token each
   through ``games.services`` (``player_for_user``, ``token_create``) in a child process.
2. Starts gunicorn on a free loopback port with W workers against that database, the application
   loaded before the fork (``--preload``, as docs/DEPLOY.md runs it), and waits for ``/health/``.
3. **Peak**: C client threads, each playing one Tute 2 match at a time with both of its seats (two
   players, two tokens): ``GET /api/v1/matches/{id}/view/`` with the token of the seat to act gives
   ``legal`` and ``ply``, then ``POST /api/v1/matches/{id}/actions/`` ``{"action", "ply"}`` plays a
   random legal code. The POST answers with the caller's new view, which holds ``legal`` when the same
   seat is to act again (it won the trick, or may sing or swap): the client then plays from that answer
   without a GET, as a bot does (about 3 moves in 10 of a Tute 2 game). A finished match is followed
   by a new one (``POST /api/v1/matches/`` by the first player with seat 1 empty, then
   ``POST .../join/`` by the second, which starts it). Prints moves/s
   (successful action POSTs a second) and the action POST's p50 and p99 latency.
4. **Baseline**: C client threads calling ``GET /bench/plain/`` (a plain Django JsonResponse view that
   does one one-row ORM query) on the same server; prints its requests/s and the ratio moves/s ÷ that.
5. **70 % of peak**: 2 x C client threads playing the same way, but each move (its GET and its POST)
   starts at the next slot of a fixed schedule of 0.7 x the round's peak moves a second (an open-loop
   pace that does not slow down when the server does); prints the action POST's p99 there.

Peak, baseline and 70 % of that peak follow each other in ``--rounds`` rounds (3) of
``--seconds / --rounds`` seconds each, so that they see the same spells of a shared machine's drifting
pace (the 70 % phase runs at 70 % of the peak measured seconds before); each phase totals
``--seconds`` seconds (15) measured, after a warm-up that is not counted (3 s, then 1 s a round; 3 s
for every 70 % phase, whose schedule runs from the start of its warm-up while its clients start new
matches). A phase's client threads start 25 ms apart, as real clients arrive
spread out rather than in one millisecond. Any answer other than 200 (201 for a match created) is an
error, counted and printed. Every seat (and every baseline thread) keeps one HTTP/1.1 connection
(``http.client``), reconnecting when the server closes it. After each phase the bench prints the CPU
that gunicorn, the PostgreSQL backends of ``tute_bench`` and the bench itself used a move (or a plain
request), read from /proc: unlike the rates, these hold on a machine that other work shares. gunicorn
is stopped at the end, also on errors, Ctrl-C and SIGTERM. The load generator runs on the same machine
as gunicorn and PostgreSQL and takes its share of the CPU.
docs/PERFORMANCE.md records the figures and the targets.
"""

from __future__ import annotations

import argparse
import http.client
import json
import math
import os
import platform
import random
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

PROJECT_DIR = Path(__file__).resolve().parent.parent
if str(PROJECT_DIR) not in sys.path:  # run as `python bench/...py`: bench/_common.py is a sibling module
    sys.path.insert(0, str(PROJECT_DIR))

from bench._common import Child, recreate_database  # noqa: E402

SETTINGS_MODULE = "bench.bench_settings"
#: The bench database (``BENCH_DB`` overrides it: several benches on one server each take their own).
BENCH_DB = os.environ.get("BENCH_DB") or "tute_bench"
DEFAULT_POSTGRES_URL = "postgresql://postgres@127.0.0.1:5432"

#: Targets of issue 3.
TARGET_RATIO = 0.2  # issue 15: at least 0.2 (a naive move endpoint measured 0.15)
TARGET_P99_MS = 50.0
LOAD_FRACTION = 0.7

WARMUP_SECONDS = 3.0
#: Warm-up of each later round: the server and its caches are warm by then.
ROUND_WARMUP_SECONDS = 1.0
#: Seconds between the starts of a phase's client threads (well inside the warm-up).
CLIENT_START_STAGGER = 0.025
#: A match whose requests keep failing is given up after this many errors in a row.
MAX_ERRORS_IN_A_ROW = 5

Json = Any


# -- setup: database, players, server -------------------------------------------------------------------


#: Variables of the caller's environment that would point the bench's processes at a real deployment's
#: services (its broker, its cache, its event channel) or change the settings under test.
ISOLATED_VARIABLES = (
    "DJANGO_DEBUG",
    "DJANGO_ALLOWED_HOSTS",
    "CACHE_URL",
    "CELERY_BROKER_URL",
    "CELERY_RESULT_BACKEND",
    "TUTE_EVENTS_URL",
)


def child_env(database_url: str, cache_url: str, data_dir: str) -> dict[str, str]:
    """The environment of every process the bench starts: bench settings on the bench database.

    ``data_dir`` (TUTE_DATA_DIR) is a private folder: the tasks the service queues (ratings of finished
    matches) go to an embedded broker there, never to a queue that a developer's worker reads, since their
    match ids name rows of the bench database.
    """
    env = dict(os.environ)
    for name in ISOLATED_VARIABLES:
        env.pop(name, None)
    env.update(
        DJANGO_SETTINGS_MODULE=SETTINGS_MODULE,
        DATABASE_URL=database_url,
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_LOG_LEVEL="WARNING",
        TUTE_DATA_DIR=data_dir,
        PYTHONPATH=os.pathsep.join(p for p in (str(PROJECT_DIR), env.get("PYTHONPATH", "")) if p),
    )
    if cache_url:
        env["CACHE_URL"] = cache_url
    return env


def make_players(count: int) -> None:
    """In a child process with the bench settings: ``count`` players with a token each, as JSON lines."""
    import django

    django.setup()
    from django.contrib.auth.models import User

    from games.services import player_for_user, token_create

    for i in range(count):
        user = User.objects.create_user(username=f"bench{i:04d}")
        player = player_for_user(user=user)
        print(json.dumps({"handle": player.handle, "token": token_create(user=user)}))


@dataclass(frozen=True, slots=True)
class Account:
    handle: str
    token: str


def create_players(count: int, env: dict[str, str]) -> list[Account]:
    out = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--make-players", str(count)],
        cwd=PROJECT_DIR,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    rows = [json.loads(line) for line in out.stdout.splitlines() if line.strip()]
    return [Account(handle=row["handle"], token=row["token"]) for row in rows]


def free_port() -> int:
    """A free loopback port, or ``BENCH_PORT`` when set (a machine shared by several runs gives each its
    own)."""
    if os.environ.get("BENCH_PORT"):
        return int(os.environ["BENCH_PORT"])
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", int(os.environ.get("BENCH_PORT") or 0)))  # BENCH_PORT: a port of your own
        port: int = sock.getsockname()[1]
        return port


class Server(Child):
    """gunicorn in its own process group, stopped by ``stop`` (SIGTERM, then SIGKILL to the group)."""

    def __init__(self, *, workers: int, worker_class: str, threads: int, env: dict[str, str]) -> None:
        self.port = free_port()
        command = [
            sys.executable,
            "-m",
            "gunicorn",
            "tute_site.wsgi",
            "--bind",
            f"127.0.0.1:{self.port}",
            "--workers",
            str(workers),
            "--worker-class",
            worker_class,
            "--threads",
            str(threads),
            "--keep-alive",
            "30",
            "--backlog",
            "2048",
            # The application is loaded before the fork, as docs/DEPLOY.md runs it: every worker is
            # ready when /health/ first answers. Without it a worker still importing Django missed the
            # first clients' connections, which then stayed with the other worker for the whole phase.
            "--preload",
            "--graceful-timeout",
            "5",
            "--log-level",
            "warning",
        ]
        super().__init__(command, env, log_prefix="tute-bench-gunicorn-")

    def wait_healthy(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {self.proc.returncode}:\n{self.log_tail()}")
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                conn.request("GET", "/health/")
                if conn.getresponse().status == 200:
                    conn.close()
                    return
                conn.close()
            except OSError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"gunicorn did not answer /health/ within {timeout:.0f} s:\n{self.log_tail()}")


# -- HTTP -----------------------------------------------------------------------------------------------


class Client:
    """One persistent HTTP/1.1 connection; reconnects when the server closed it."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def call(
        self, method: str, path: str, *, token: str | None = None, body: Json = None
    ) -> tuple[int, Json, float]:
        """(status, parsed JSON body, seconds from sending the request to the last byte of the answer)."""
        headers = {"Accept": "application/json"}
        if token is not None:
            headers["Authorization"] = f"Token {token}"
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        for attempt in range(2):
            start = time.perf_counter()
            try:
                self.conn.request(method, path, body=data, headers=headers)
                response = self.conn.getresponse()
                raw = response.read()
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                # Most likely an idle keep-alive connection the server had closed, so the request never
                # reached a view; if it had, the retry gets a 409 (stale ply) and is counted as an error.
                self.conn.close()
                if attempt:
                    raise
                continue
            elapsed = time.perf_counter() - start
            try:
                parsed = json.loads(raw) if raw else None
            except ValueError:
                parsed = raw[:200].decode(errors="replace")
            return response.status, parsed, elapsed
        raise AssertionError("unreachable")

    def close(self) -> None:
        self.conn.close()


# -- load -----------------------------------------------------------------------------------------------


@dataclass
class Stats:
    """What one client thread saw inside the measured window."""

    action_latencies: list[float] = field(default_factory=list)
    view_latencies: list[float] = field(default_factory=list)
    lags: list[float] = field(default_factory=list)
    requests: int = 0
    matches_created: int = 0
    matches_finished: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    error_samples: list[str] = field(default_factory=list)

    def error(self, what: str, status: int, body: Json) -> None:
        self.errors[f"{what} {status}"] += 1
        if len(self.error_samples) < 3:
            self.error_samples.append(f"{what} {status}: {str(body)[:300]}")

    def merge(self, other: Stats) -> None:
        self.action_latencies += other.action_latencies
        self.view_latencies += other.view_latencies
        self.lags += other.lags
        self.requests += other.requests
        self.matches_created += other.matches_created
        self.matches_finished += other.matches_finished
        self.errors.update(other.errors)
        self.error_samples += other.error_samples[: max(0, 5 - len(self.error_samples))]


@dataclass
class Window:
    """The measured window of a phase: events from ``start`` to ``end`` count; the phase stops at ``end``."""

    start: float
    end: float

    def counts(self, t: float) -> bool:
        return self.start <= t < self.end


class Pacer:
    """Hands out start times on a fixed grid of ``rate`` a second, one per call, whoever asks."""

    def __init__(self, rate: float, start: float) -> None:
        self.interval = 1.0 / rate
        self.next = start
        self.lock = threading.Lock()

    def take(self) -> float:
        with self.lock:
            slot = self.next
            self.next += self.interval
            return slot


class MatchPlayer:
    """One client thread's loop: play Tute 2 matches with two accounts, one after the other."""

    def __init__(
        self, port: int, accounts: tuple[Account, Account], window: Window, seed: int, pacer: Pacer | None
    ) -> None:
        # One connection per seat, as two players' clients would have: with several workers the two seats
        # may be served by different processes, whose engine-state caches then miss now and then.
        self.clients = (Client(port), Client(port))
        self.accounts = accounts
        self.window = window
        self.rng = random.Random(seed)
        self.pacer = pacer
        self.stats = Stats()
        self.match_id: int | None = None
        self.to_act = 0
        #: The acting seat's view when the last action's answer gave it (the same seat acts again).
        self.known_view: Json = None
        self.errors_in_a_row = 0

    def run(self) -> None:
        try:
            while time.perf_counter() < self.window.end:
                if self.match_id is None:
                    self.create_match()
                    continue
                if self.pacer is not None:
                    slot = self.pacer.take()
                    if slot >= self.window.end:
                        return
                    wait = slot - time.perf_counter()
                    if wait > 0:
                        time.sleep(wait)
                    if self.window.counts(slot):
                        self.stats.lags.append(max(0.0, time.perf_counter() - slot))
                self.move()
        finally:
            for client in self.clients:
                client.close()

    def failed(self, what: str, status: int, body: Json) -> None:
        if self.window.counts(time.perf_counter()):
            self.stats.error(what, status, body)
        self.errors_in_a_row += 1
        if self.errors_in_a_row >= MAX_ERRORS_IN_A_ROW:
            self.match_id = None  # give this match up and start another
            self.errors_in_a_row = 0

    def create_match(self) -> None:
        """The first account creates a Tute 2 match at seat 0; the second joins seat 1, which starts it."""
        first, second = self.accounts
        body = {"game": "tute2", "seats": [{"player": first.handle}, {}]}
        status, out, _ = self.clients[0].call("POST", "/api/v1/matches/", token=first.token, body=body)
        self.stats.requests += self.window.counts(time.perf_counter())
        if status != 201:
            self.failed("create", status, out)
            return
        match_id = int(out["id"])
        status, out, _ = self.clients[1].call(
            "POST", f"/api/v1/matches/{match_id}/join/", token=second.token, body={"seat": 1}
        )
        self.stats.requests += self.window.counts(time.perf_counter())
        if status != 200 or out["status"] != "in_progress":
            self.failed("join", status, out)
            return
        self.match_id = match_id
        self.to_act = 0
        self.known_view = None
        self.errors_in_a_row = 0
        if self.window.counts(time.perf_counter()):
            self.stats.matches_created += 1

    def move(self) -> None:
        """GET the acting seat's view (its legal codes and the ply) unless the last answer gave it, then
        POST one of the codes."""
        match_id = self.match_id
        assert match_id is not None
        client, token = self.clients[self.to_act], self.accounts[self.to_act].token
        view, self.known_view = self.known_view, None
        if view is None:
            path = f"/api/v1/matches/{match_id}/view/"
            view = self.counted("view", self.stats.view_latencies, client, "GET", path, token)
            if view is None:
                return
        if view["status"] != "in_progress":
            self.match_finished()
            return
        if not view["legal"]:  # the other seat is to act: ask with its token
            self.to_act = int(view["to_act"])
            return
        body = {"action": self.rng.choice(view["legal"]), "ply": view["ply"]}
        path = f"/api/v1/matches/{match_id}/actions/"
        out = self.counted("action", self.stats.action_latencies, client, "POST", path, token, body)
        if out is None:
            return
        self.errors_in_a_row = 0
        if out["status"] != "in_progress":
            self.match_finished()
        elif out["to_act"] is not None:
            self.to_act = int(out["to_act"])
            if out["legal"]:  # the caller acts again: its answer is the view to play from
                self.known_view = out

    def counted(
        self,
        what: str,
        latencies: list[float],
        client: Client,
        method: str,
        path: str,
        token: str,
        body: Json = None,
    ) -> Json:
        """One request of a move: its answer when 200 (its latency kept when inside the window), else
        None with the error counted."""
        status, out, latency = client.call(method, path, token=token, body=body)
        in_window = self.window.counts(time.perf_counter())
        self.stats.requests += in_window
        if status != 200:
            self.failed(what, status, out)
            return None
        if in_window:
            latencies.append(latency)
        return out

    def match_finished(self) -> None:
        self.match_id = None
        if self.window.counts(time.perf_counter()):
            self.stats.matches_finished += 1


class PlainCaller:
    """One client thread calling the baseline view as fast as it answers."""

    def __init__(self, port: int, window: Window) -> None:
        self.client = Client(port)
        self.window = window
        self.stats = Stats()

    def run(self) -> None:
        try:
            while time.perf_counter() < self.window.end:
                status, out, latency = self.client.call("GET", "/bench/plain/")
                if not self.window.counts(time.perf_counter()):
                    continue
                self.stats.requests += 1
                if status != 200:
                    self.stats.error("plain", status, out)
                else:
                    self.stats.view_latencies.append(latency)
        finally:
            self.client.close()


#: CPU seconds used so far by each process of each part (the load generator as pid 0).
CpuSample = dict[str, dict[int, float]]


class CpuMeter:
    """CPU seconds used by gunicorn (arbiter and workers), the PostgreSQL backends serving the bench
    database, and this load generator: read from /proc, so the split holds whatever else the machine runs.
    """

    TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100

    def __init__(self, server_pid: int) -> None:
        self.server_pid = server_pid

    def sample(self) -> CpuSample:
        sample: CpuSample = {"gunicorn": {}, "postgres": {}, "client": {0: time.process_time()}}
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
                fields = stat[stat.rindex(")") + 2 :].split()
                pid, ppid = int(entry.name), int(fields[1])
                cpu = (int(fields[11]) + int(fields[12])) / self.TICK  # utime + stime
                if pid == self.server_pid or ppid == self.server_pid:
                    sample["gunicorn"][pid] = cpu
                elif stat[stat.index("(") + 1 : stat.rindex(")")] == "postgres":
                    command = (entry / "cmdline").read_bytes().replace(b"\0", b" ")
                    if f" {BENCH_DB} ".encode() in command:
                        sample["postgres"][pid] = cpu
            except (OSError, ValueError, IndexError):
                continue  # a process that ended while being read
        return sample

    @staticmethod
    def used(before: CpuSample, after: CpuSample) -> dict[str, float]:
        """CPU seconds each part used between two samples, process by process.

        Django closes a database connection older than CONN_MAX_AGE and opens another, so a PostgreSQL
        backend may end inside a phase: summing totals would then subtract all it ever used. A process
        that ended counts nothing for the phase (a slight undercount); one that started counts all it used.
        """
        return {
            part: sum(cpu - before[part].get(pid, 0.0) for pid, cpu in pids.items())
            for part, pids in after.items()
        }


@dataclass
class CpuUse:
    """CPU seconds each part used inside a phase's measured window."""

    parts: dict[str, float] = field(default_factory=dict)

    def add(self, other: CpuUse) -> None:
        for name, seconds in other.parts.items():
            self.parts[name] = self.parts.get(name, 0.0) + seconds

    def busy(self, seconds: float) -> str:
        """How many CPUs gunicorn, PostgreSQL and the client kept busy on average."""
        return f"{sum(self.parts.values()) / seconds:.2f}"

    def per(self, count: int) -> str:
        if not count:
            return "n/a"
        shares = ", ".join(f"{name} {seconds / count * 1000:.2f}" for name, seconds in self.parts.items())
        return f"{shares} (total {sum(self.parts.values()) / count * 1000:.2f}) ms"


def run_threads(runners: list[Callable[[], None]], window: Window, meter: CpuMeter | None = None) -> CpuUse:
    """Run the client threads of a phase; sample the CPU meter at both ends of its measured window."""
    failures: list[BaseException] = []

    def guard(run: Callable[[], None]) -> None:
        try:
            run()
        except BaseException as exc:
            failures.append(exc)

    threads = [threading.Thread(target=guard, args=(run,), daemon=True) for run in runners]
    for thread in threads:
        thread.start()
        # Clients that open their connections in the same millisecond race gunicorn's workers to
        # accept them, and one worker may take nearly all; real clients arrive spread out.
        time.sleep(CLIENT_START_STAGGER)
    use = CpuUse()
    if meter is not None:
        time.sleep(max(0.0, window.start - time.perf_counter()))
        before = meter.sample()
        time.sleep(max(0.0, window.end - time.perf_counter()))
        after = meter.sample()
        use.parts = meter.used(before, after)
    for thread in threads:
        thread.join(timeout=max(1.0, window.end - time.perf_counter() + 60))
    if failures:
        raise RuntimeError(f"{len(failures)} client thread(s) failed; the first: {failures[0]!r}") from (
            failures[0]
        )
    if any(thread.is_alive() for thread in threads):
        raise RuntimeError("client threads did not finish a minute after the end of the phase")
    return use


def merged(parts: list[Stats]) -> Stats:
    total = Stats()
    for part in parts:
        total.merge(part)
    return total


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (0..1) by the nearest-rank method; NaN for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = min(len(ordered), max(1, math.ceil(q * len(ordered))))
    return ordered[rank - 1]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}"


def play_phase(
    port: int,
    pairs: list[tuple[Account, Account]],
    seconds: float,
    rate: float | None,
    seed: int,
    meter: CpuMeter,
    warmup: float = WARMUP_SECONDS,
) -> tuple[Stats, CpuUse]:
    start = time.perf_counter() + warmup
    window = Window(start=start, end=start + seconds)
    pacer = Pacer(rate, time.perf_counter()) if rate is not None else None
    players = [MatchPlayer(port, pair, window, seed + i, pacer) for i, pair in enumerate(pairs)]
    use = run_threads([p.run for p in players], window, meter)
    return merged([p.stats for p in players]), use


def plain_phase(
    port: int, concurrency: int, seconds: float, meter: CpuMeter, warmup: float = WARMUP_SECONDS
) -> tuple[Stats, CpuUse]:
    start = time.perf_counter() + warmup
    window = Window(start=start, end=start + seconds)
    callers = [PlainCaller(port, window) for _ in range(concurrency)]
    use = run_threads([c.run for c in callers], window, meter)
    return merged([c.stats for c in callers]), use


class NoMovesAtPeak(RuntimeError):
    pass


@dataclass
class Rounds:
    """What the alternating rounds measured, each phase merged over the rounds."""

    peak: Stats = field(default_factory=Stats)
    peak_cpu: CpuUse = field(default_factory=CpuUse)
    plain: Stats = field(default_factory=Stats)
    plain_cpu: CpuUse = field(default_factory=CpuUse)
    loaded: Stats = field(default_factory=Stats)
    loaded_cpu: CpuUse = field(default_factory=CpuUse)
    ratios: list[float] = field(default_factory=list)
    #: The pace of each round's 70 % phase, moves a second.
    loaded_rates: list[float] = field(default_factory=list)


def alternate_rounds(
    port: int,
    peak_pairs: list[tuple[Account, Account]],
    loaded_pairs: list[tuple[Account, Account]],
    args: argparse.Namespace,
    meter: CpuMeter,
) -> Rounds:
    """Peak, baseline and 70 % of that round's peak, ``args.rounds`` times; each phase totals
    ``args.seconds`` measured.

    The machine's pace drifts by tens of percent within a minute on a shared VM; alternating lets the
    phases see the same spells, so the ratio compares like with like and the 70 % phase runs at 70 % of
    the peak the machine had seconds before, not a minute before.
    """
    seconds = args.seconds / args.rounds
    out = Rounds()
    for number in range(args.rounds):
        warmup = WARMUP_SECONDS if number == 0 else ROUND_WARMUP_SECONDS
        moves, moves_cpu = play_phase(
            port, peak_pairs, seconds, None, args.seed + 100 * number, meter, warmup
        )
        baseline, baseline_cpu = plain_phase(port, args.concurrency, seconds, meter, warmup)
        if not moves.action_latencies:
            raise NoMovesAtPeak(f"no move succeeded at peak in round {number + 1}: nothing to pace 70 % by")
        rate = LOAD_FRACTION * len(moves.action_latencies) / seconds
        # The full warm-up every round: its clients start new matches, and the schedule runs from the
        # start of the warm-up, so a short one leaves a backlog of slots that bursts into the window.
        loaded, loaded_cpu = play_phase(
            port, loaded_pairs, seconds, rate, args.seed + 10_000 + 100 * number, meter, WARMUP_SECONDS
        )
        for total, part in ((out.peak, moves), (out.plain, baseline), (out.loaded, loaded)):
            total.merge(part)
        out.peak_cpu.add(moves_cpu)
        out.plain_cpu.add(baseline_cpu)
        out.loaded_cpu.add(loaded_cpu)
        out.loaded_rates.append(rate)
        if baseline.view_latencies:
            out.ratios.append(len(moves.action_latencies) / len(baseline.view_latencies))
    return out


def cpu_ratio(moves: Stats, moves_cpu: CpuUse, plain: Stats, plain_cpu: CpuUse) -> str:
    """What the ratio would be if gunicorn and PostgreSQL had the CPUs to themselves and were CPU-bound."""
    server = ("gunicorn", "postgres")
    move = sum(moves_cpu.parts.get(p, 0.0) for p in server) / max(1, len(moves.action_latencies))
    request = sum(plain_cpu.parts.get(p, 0.0) for p in server) / max(1, len(plain.view_latencies))
    return f"{request / move:.3f}" if move else "n/a"


def error_count(stats: Stats) -> int:
    return sum(stats.errors.values())


def report_errors(name: str, stats: Stats) -> None:
    if stats.errors:
        print(f"# {name} errors: {dict(stats.errors)}")
        for sample in stats.error_samples:
            print(f"#   {sample}")


# -- main -----------------------------------------------------------------------------------------------


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=15.0, help="measured seconds of each phase (15)")
    parser.add_argument(
        "--rounds",
        type=int,
        default=3,
        help="peak, baseline and 70 %% of that peak follow each other in R rounds of S/R seconds each (3)",
    )
    parser.add_argument("--concurrency", type=int, default=8, help="client threads at peak, C (8)")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers, W (4)")
    parser.add_argument(
        "--worker-class",
        choices=("sync", "gthread"),
        default="gthread",
        help="gunicorn worker class (gthread: it keeps connections alive; sync closes each one)",
    )
    parser.add_argument("--threads", type=int, default=2, help="threads per gthread worker (2)")
    parser.add_argument(
        "--cache-url", default="", help="CACHE_URL for the throttle counters, e.g. redis://127.0.0.1:6379/9"
    )
    parser.add_argument(
        "--postgres",
        default=os.environ.get("BENCH_POSTGRES_URL", DEFAULT_POSTGRES_URL),
        help=f"PostgreSQL server URL without a database name ({DEFAULT_POSTGRES_URL})",
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the clients' move choices (1)")
    parser.add_argument("--make-players", type=int, metavar="N", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def describe_machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"Python {platform.python_version()} on {platform.platform()}, {cpu}, {os.cpu_count()} CPUs "
        "shared by gunicorn, PostgreSQL and this load generator"
    )


def load_average() -> str:
    """The 1, 5 and 15 minute load averages: other work on the machine shows here."""
    try:
        return "load average " + " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "load average unknown"


def bench(args: argparse.Namespace) -> int:
    if args.concurrency < 1 or args.workers < 1 or args.seconds <= 0 or args.rounds < 1:
        raise SystemExit("--concurrency, --workers, --seconds and --rounds must be positive")
    with tempfile.TemporaryDirectory(prefix="tute-bench-") as data_dir:
        return run_bench(args, data_dir)


def run_bench(args: argparse.Namespace, data_dir: str) -> int:
    database_url = f"{args.postgres}/{BENCH_DB}"
    env = child_env(database_url, args.cache_url, data_dir)
    began = time.perf_counter()

    recreate_database(args.postgres, BENCH_DB)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "--verbosity", "0"],
        cwd=PROJECT_DIR,
        env=env,
        check=True,
    )
    loaded_threads = 2 * args.concurrency
    accounts = create_players(2 * (args.concurrency + loaded_threads), env)
    pairs = [(accounts[2 * i], accounts[2 * i + 1]) for i in range(len(accounts) // 2)]
    peak_pairs, loaded_pairs = pairs[: args.concurrency], pairs[args.concurrency :]
    threads = args.threads if args.worker_class == "gthread" else 1
    print(f"# {describe_machine()}; {load_average()}")
    print(
        f"# gunicorn {args.worker_class}, {args.workers} workers"
        + (f" x {threads} threads" if args.worker_class == "gthread" else "")
        + f"; PostgreSQL database {BENCH_DB}; throttle cache {args.cache_url or 'locmem'}; "
        f"{args.concurrency} client threads; {args.seconds:g} s a phase"
        + (
            f" in {args.rounds} rounds of peak, baseline and 70 % of that peak"
            f" (warm-up {WARMUP_SECONDS:g} s, then {ROUND_WARMUP_SECONDS:g} s a round;"
            f" {WARMUP_SECONDS:g} s before each 70 % phase)"
            if args.rounds > 1
            else f" after {WARMUP_SECONDS:g} s of warm-up"
        )
    )

    server = Server(workers=args.workers, worker_class=args.worker_class, threads=threads, env=env)
    try:
        server.wait_healthy()
        print(f"# setup took {time.perf_counter() - began:.1f} s", flush=True)

        meter = CpuMeter(server.proc.pid)
        try:
            rounds = alternate_rounds(server.port, peak_pairs, loaded_pairs, args, meter)
        except NoMovesAtPeak as exc:
            raise RuntimeError(f"{exc}\n{server.log_tail()}") from None
        peak, peak_cpu, plain, plain_cpu = rounds.peak, rounds.peak_cpu, rounds.plain, rounds.plain_cpu
        moves = len(peak.action_latencies) / args.seconds
        print(f"moves/s: {moves:.0f}")
        print(f"action p50: {ms(percentile(peak.action_latencies, 0.5))} ms")
        print(f"action p99: {ms(percentile(peak.action_latencies, 0.99))} ms")
        print(
            f"# view GET p50 {ms(percentile(peak.view_latencies, 0.5))} ms, "
            f"p99 {ms(percentile(peak.view_latencies, 0.99))} ms, "
            f"{len(peak.view_latencies) / max(1, len(peak.action_latencies)):.2f} a move; "
            f"requests/s {peak.requests / args.seconds:.0f}; matches created {peak.matches_created}, "
            f"finished {peak.matches_finished}; errors {error_count(peak)}; "
            f"CPUs busy {peak_cpu.busy(args.seconds)} of {os.cpu_count()}",
            flush=True,
        )
        report_errors("peak", peak)
        print(
            f"# CPU a move (its view GETs, action POST and share of match creation): {peak_cpu.per(len(peak.action_latencies))}"
        )

        plain_rate = len(plain.view_latencies) / args.seconds
        ratio = moves / plain_rate if plain_rate else float("nan")
        print(f"plain view requests/s: {plain_rate:.0f}")
        print(
            f"# plain view p50 {ms(percentile(plain.view_latencies, 0.5))} ms, "
            f"p99 {ms(percentile(plain.view_latencies, 0.99))} ms; errors {error_count(plain)}; "
            f"CPUs busy {plain_cpu.busy(args.seconds)} of {os.cpu_count()}"
        )
        print(f"ratio moves/plain: {ratio:.3f}", flush=True)
        if len(rounds.ratios) > 1:
            print("# ratio in each round: " + ", ".join(f"{r:.3f}" for r in rounds.ratios))
        report_errors("plain", plain)
        print(f"# CPU a plain view request: {plain_cpu.per(len(plain.view_latencies))}")
        print(
            f"# CPU ratio (server CPU a plain request / server CPU a move): {cpu_ratio(peak, peak_cpu, plain, plain_cpu)}",
            flush=True,
        )

        loaded, loaded_cpu = rounds.loaded, rounds.loaded_cpu
        rate = sum(rounds.loaded_rates) / len(rounds.loaded_rates)
        loaded_p99 = percentile(loaded.action_latencies, 0.99)
        loaded_errors = error_count(loaded)
        print(
            f"at {LOAD_FRACTION:.0%} of peak ({rate:.0f}/s): p99 {ms(loaded_p99)} ms, errors {loaded_errors}"
        )
        print(
            f"# there: {len(loaded.action_latencies) / args.seconds:.0f} moves/s done, "
            f"action p50 {ms(percentile(loaded.action_latencies, 0.5))} ms, "
            f"view GET p99 {ms(percentile(loaded.view_latencies, 0.99))} ms, "
            f"start lag behind the schedule p99 {ms(percentile(loaded.lags, 0.99))} ms "
            f"({len(pairs) - args.concurrency} client threads); "
            f"CPUs busy {loaded_cpu.busy(args.seconds)} of {os.cpu_count()}"
            + (
                "; pace of each round " + ", ".join(f"{r:.0f}/s" for r in rounds.loaded_rates)
                if len(rounds.loaded_rates) > 1
                else ""
            )
        )
        report_errors("70% of peak", loaded)
    finally:
        server.stop()

    errors = error_count(peak) + error_count(plain) + loaded_errors
    met_ratio = ratio >= TARGET_RATIO
    met_p99 = loaded_p99 <= TARGET_P99_MS / 1000
    print(f"# target ratio >= {TARGET_RATIO}: {'met' if met_ratio else 'MISSED'} ({ratio:.3f})")
    print(
        f"# target p99 <= {TARGET_P99_MS:g} ms at {LOAD_FRACTION:.0%} of peak: "
        f"{'met' if met_p99 else 'MISSED'} ({ms(loaded_p99)} ms)"
    )
    print(f"# target no errors: {'met' if errors == 0 else 'MISSED'} ({errors})")
    print(f"# total run time {time.perf_counter() - began:.0f} s; {load_average()}")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.make_players is not None:
        make_players(args.make_players)
        return 0

    def terminate(signum: int, frame: FrameType | None) -> None:
        raise SystemExit(128 + signum)  # unwinds through bench()'s `finally`, which stops gunicorn

    signal.signal(signal.SIGTERM, terminate)
    try:
        return bench(args)
    except KeyboardInterrupt:
        print("interrupted; gunicorn stopped", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
