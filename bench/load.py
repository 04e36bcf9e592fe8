"""Load on the production layout (issue 30): N simulated people playing house bots through the API.

Run by hand from the project root (PostgreSQL up; redis-server installed)::

    python bench/load.py [--people 16,40] [--seconds 180] [--bot search] [--http-port 8170] [--redis-port 6399]

It makes a throwaway PostgreSQL database (``tute_load``, dropped and made again), starts a private
redis-server (broker, events and cache) and the service as docs/DEPLOY.md runs it on production settings
(DEBUG off): gunicorn ``--worker-class gthread --workers 3 --threads 16 --preload``, one Celery worker
``--concurrency 2`` and beat. Then, for each number of people in ``--people`` in turn, that many people
(each an account with an API token, on one HTTP/1.1 connection of its own) play for ``--seconds``:
each plays matches against the ``--bot`` house level in turn of Tute 2 (one bot), Tute 4 (a bot
partner and two bot opponents) and a short Pocha (two bots; hands 3, 4, 5), unrated, a new match as
soon as one ends. A person reads the seat's view (``GET .../view/``), thinks 1 to 3 s when it is to
act and plays a random legal code (``POST .../actions/``), and while the bots play looks again every
0.25 s, as the website's fallback does when it holds no event stream.

It prints, per round: moves played, matches finished, the view's and the action's p50/p99 latency (as
the person measured them), the house bots' reply p50/p99 (from the action before each bot move to the
move, the database's timestamps: the worker's queueing and thinking), and answers with 5xx and other
failures. The machine's load average is printed with each round.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import statistics
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as `python bench/load.py`: bench/_common.py is a sibling module
    sys.path.insert(0, str(ROOT))

from bench._common import Child, drop_database, recreate_database  # noqa: E402
from bench.faults import manage  # noqa: E402
from bench.soak import percentile  # noqa: E402

PY = sys.executable
GAMES = ("tute2", "tute4", "pocha")
POLL_SECONDS = 0.25


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", flush=True)


PEOPLE = r"""
import json
from django.contrib.auth.models import User
from games.services import player_for_user, token_create
out = []
for i in range(COUNT):
    user = User.objects.create_user(username=f"PREFIX-{i}")
    out.append({"handle": player_for_user(user=user).handle, "token": token_create(user=user)})
print(json.dumps(out))
"""

BOT_REPLIES = r"""
import json
from games.models import Action
previous = {}
replies = []
for match_id, kind, created in (
    Action.objects.filter(match_id__in=MATCHES).order_by("match_id", "ply").values_list("match_id", "kind", "created_at")
):
    before = previous.get(match_id)
    previous[match_id] = created
    if before is not None and kind == "house_bot":
        replies.append((created - before).total_seconds())
print(json.dumps(replies))
"""


def accounts(env: dict[str, str], count: int, prefix: str) -> list[dict[str, str]]:
    """``count`` new accounts (``prefix-0``, ...): each one's handle and API token."""
    out = manage(env, code=PEOPLE.replace("COUNT", str(count)).replace("PREFIX", prefix))
    return json.loads(out.strip().splitlines()[-1])


class Person(threading.Thread):
    """One person: plays match after match against the house bots through the API until told to stop."""

    THINK = (1.0, 3.0)  # seconds a person thinks before acting
    POLL = POLL_SECONDS

    def __init__(
        self, port: int, index: int, handle: str, token: str, bot: str, stop: threading.Event
    ) -> None:
        super().__init__(daemon=True)
        self.port, self.index, self.handle, self.token, self.bot, self.stop = (
            port,
            index,
            handle,
            token,
            bot,
            stop,
        )
        self.rng = random.Random(index)
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.views: list[float] = []
        self.actions: list[float] = []
        self.server_errors = 0
        self.failures: list[str] = []
        self.moves = 0
        self.matches: list[int] = []
        self.finished = 0

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any, float]:
        """One request on the person's connection. gunicorn closes a connection idle for 2 s (its
        keep-alive), as a person's thinking often leaves it: like a browser, the person then sends the
        request again once on a new connection (an action with the same Idempotency-Key)."""
        headers = {"Authorization": f"Token {self.token}", "Content-Type": "application/json"}
        if method == "POST":
            headers["Idempotency-Key"] = uuid.uuid4().hex
        data = json.dumps(body) if body is not None else None
        for attempt in (1, 2):
            started = time.perf_counter()
            try:
                self.conn.request(method, path, body=data, headers=headers)
                response = self.conn.getresponse()
                raw = response.read()
                break
            except (OSError, http.client.HTTPException) as exc:
                self.conn.close()
                if attempt == 2 or not isinstance(
                    exc, BrokenPipeError | ConnectionResetError | http.client.RemoteDisconnected
                ):
                    self.failures.append(f"{method} {path}: {type(exc).__name__}: {exc}")
                    return 0, None, time.perf_counter() - started
        seconds = time.perf_counter() - started
        if response.status >= 500:
            self.server_errors += 1
        try:
            return response.status, json.loads(raw or b"null"), seconds
        except ValueError:
            return response.status, None, seconds

    def failed(self, what: str, status: int, out: Any) -> None:
        """An answer other than the one expected."""
        self.failures.append(f"{what}: {status} {out}")

    def new_match(self) -> int | None:
        game = GAMES[(self.index + len(self.matches)) % len(GAMES)]
        bots = {"tute2": 1, "tute4": 3, "pocha": 2}[game]
        body: dict[str, Any] = {
            "game": game,
            "rated": False,
            "seats": [{"player": self.handle}] + [{"bot": self.bot}] * bots,
        }
        if game == "pocha":
            body["options"] = {"pocha_sequence": [3, 4, 5]}
        status, out, _ = self.call("POST", "/api/v1/matches/", body)
        if status != 201:
            self.failed("create", status, out)
            return None
        self.matches.append(int(out["id"]))
        return int(out["id"])

    def play(self, match: int) -> str | None:
        """Play the seat's turns of ``match`` until it ends (its final status) or the person is told to stop
        (None)."""
        while not self.stop.is_set():
            status, view, seconds = self.call("GET", f"/api/v1/matches/{match}/view/")
            if status != 200:
                self.failed("view", status, view)
                time.sleep(1)
                continue
            self.views.append(seconds)
            if view["status"] != "in_progress":
                self.finished += view["status"] == "finished"
                return str(view["status"])
            while view.get("legal") and not self.stop.is_set():
                time.sleep(self.rng.uniform(*self.THINK))  # a person thinks
                body = {"action": self.rng.choice(view["legal"]), "ply": view["ply"]}
                status, out, seconds = self.call("POST", f"/api/v1/matches/{match}/actions/", body)
                if status != 200:
                    self.failed("action", status, out)
                    break
                self.actions.append(seconds)
                self.moves += 1
                view = out  # the answer is the seat's new view: it plays on from it when it acts again
            time.sleep(self.POLL)
        return None

    def run(self) -> None:
        while not self.stop.is_set():
            match = self.new_match()
            if match is None:
                time.sleep(1)
                continue
            self.play(match)
        self.conn.close()


def service_commands(http_port: int, schedule: Path) -> dict[str, list[str]]:
    """docs/DEPLOY.md's three processes."""
    return {
        "web": [
            PY, "-m", "gunicorn", "tute_site.wsgi", "--bind", f"127.0.0.1:{http_port}",
            "--worker-class", "gthread", "--workers", "3", "--threads", "16", "--preload",
        ],
        "worker": [PY, "-m", "celery", "-A", "tute_site", "worker", "--loglevel=WARNING", "--concurrency", "2", "--without-mingle"],
        "beat": [PY, "-m", "celery", "-A", "tute_site", "beat", "--loglevel=WARNING", "--schedule", str(schedule)],
    }  # fmt: skip


def wait_healthy(port: int, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/health/")
            if conn.getresponse().status == 200:
                return
        except OSError:
            pass
        time.sleep(0.5)
    raise SystemExit(f"gunicorn did not answer /health/ on port {port} within {timeout:g} s")


def ms(values: list[float]) -> str:
    if not values:
        return "none"
    return f"p50 {1000 * statistics.median(values):.0f} ms, p99 {1000 * percentile(values, 0.99):.0f} ms"


def crowd(people: list[Person], seconds: float, stop: threading.Event) -> tuple[float, float, float]:
    """Start ``people`` spread out, let them play ``seconds``, stop them: the load average then."""
    for person in people:
        person.start()
        time.sleep(0.05)  # people arrive spread out, not in one millisecond
    time.sleep(seconds)
    stop.set()
    for person in people:
        person.join(timeout=60)
    return os.getloadavg()


def round_of(env: dict[str, str], port: int, count: int, seconds: float, bot: str) -> None:
    stop = threading.Event()
    people = [
        Person(port, i, a["handle"], a["token"], bot, stop)
        for i, a in enumerate(accounts(env, count, f"load-{count}-{os.getpid()}"))
    ]
    log(f"{count} people playing the {bot} house bots for {seconds:g} s")
    load = crowd(people, seconds, stop)
    matches = [m for p in people for m in p.matches]
    replies: list[float] = json.loads(
        manage(env, code=BOT_REPLIES.replace("MATCHES", repr(matches))).strip().splitlines()[-1]
    )
    views = [s for p in people for s in p.views]
    actions = [s for p in people for s in p.actions]
    failures = [f for p in people for f in p.failures]
    print()
    print(f"=== {count} people vs the {bot} house bots, {seconds:g} s (load average {load[0]:.2f}) ===")
    print(
        f"moves by people {sum(p.moves for p in people)}, by house bots {len(replies)}; "
        f"matches finished {sum(p.finished for p in people)} of {len(matches)} started"
    )
    print(f"view GET     ({len(views)}): {ms(views)}")
    print(f"action POST  ({len(actions)}): {ms(actions)}")
    print(f"bot reply    ({len(replies)}): {ms(replies)}")
    print(f"5xx answers: {sum(p.server_errors for p in people)}; other failures: {len(failures)}")
    for failure in failures[:10]:
        print(f"  {failure}")
    print(flush=True)


def arguments(
    description: str, *, people: str, seconds: float, db: str, http_port: int, redis_port: int
) -> argparse.ArgumentParser:
    """The options every round-by-round bench of the production layout takes."""
    parser = argparse.ArgumentParser(
        description=description, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--people", default=people, help=f"a round per number, in turn (default {people})")
    parser.add_argument(
        "--seconds", type=float, default=seconds, help=f"each round's length (default {seconds:g})"
    )
    parser.add_argument("--db", default=db)
    parser.add_argument(
        "--postgres", default=os.environ.get("BENCH_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432")
    )
    parser.add_argument("--http-port", type=int, default=http_port)
    parser.add_argument("--redis-port", type=int, default=redis_port)
    return parser


@contextmanager
def service(args: argparse.Namespace, name: str) -> Iterator[dict[str, str]]:
    """The throwaway database ``args.db``, a private redis-server and docs/DEPLOY.md's processes on
    production settings, up and answering: the environment to run manage.py in. All stopped and the
    database dropped on the way out."""
    recreate_database(args.postgres, args.db)
    redis = f"redis://127.0.0.1:{args.redis_port}"
    env = {
        **os.environ,
        "DATABASE_URL": f"{args.postgres}/{args.db}",
        "CELERY_BROKER_URL": f"{redis}/0",
        "TUTE_EVENTS_URL": f"{redis}/0",
        "CACHE_URL": f"{redis}/1",
        # Production settings (DEBUG off), as a deployment runs them; plain HTTP on loopback. The
        # per-account and per-address limits stay out of the way of one machine's simulated crowd.
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": f"{name}-bench-only-" + uuid.uuid4().hex * 2,
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "TUTE_THROTTLE_USER": "100000/min",
        "TUTE_THROTTLE_ADDRESS": "100000/min",
        "PYTHONPATH": str(ROOT),
    }
    redis_server = Child(
        [
            "redis-server",
            "--port",
            str(args.redis_port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
        ],
        env,
        log_prefix=f"tute-{name}-redis-",
    )
    children: list[Child] = []
    tmp = tempfile.TemporaryDirectory(prefix=f"tute-{name}-")
    try:
        manage(env, "migrate", "--verbosity", "0")
        for process, command in service_commands(
            args.http_port, Path(tmp.name) / "celerybeat-schedule"
        ).items():
            children.append(Child(command, env, log_prefix=f"tute-{name}-{process}-"))
        wait_healthy(args.http_port)
        time.sleep(3)  # the worker and beat under way
        yield env
    finally:
        for child in reversed(children):
            exited = child.proc.poll()
            if exited is not None:
                print(
                    f"a service process exited during the bench ({child.proc.args[:4]}): {exited}\n{child.log_tail()}"
                )
            child.stop()
        redis_server.stop()
        drop_database(args.postgres, args.db)
        tmp.cleanup()


def main() -> None:
    parser = arguments(
        __doc__, people="16,40", seconds=180.0, db="tute_load", http_port=8170, redis_port=6399
    )
    parser.add_argument("--bot", default="search", help="the house level the people play (default search)")
    args = parser.parse_args()
    with service(args, "load") as env:
        for count in (int(n) for n in args.people.split(",")):
            round_of(env, args.http_port, count, args.seconds, args.bot)


if __name__ == "__main__":
    main()
