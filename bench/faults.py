"""Faults with real processes: does every match resume, nothing lost or doubled, every rating once?

Run by hand (never in the test suite), on production settings (DEBUG off):

    python bench/faults.py [--db tute_faults] [--redis-port 6398] [--http-port 8160] [--faults redis --repeat 20]

It makes its own throwaway PostgreSQL database (dropped and made again), starts a private redis-server on
its own port, gunicorn, one Celery worker and beat against them, sets up people playing house bots (the
bench plays the people through the HTTP API, with an Idempotency-Key, retrying what fails), matches of
house bots only and a small rated house-bot tournament, then in turn:

1. kills the worker with SIGKILL (a supervisor starts a new one at once; the time includes its start),
2. restarts Redis while the worker is busy (down 3 s),
3. terminates every PostgreSQL backend of the database,
4. stops beat for a minute.

Per fault it prints: matches in play when it struck / resumed (a ply more, or finished) within 60 s of
the service being back, the seconds that took (the slowest match: from the service back to its first
action or end, as the database's timestamps have them, not when this bench's polling saw it), turns lost (a match whose ply differs
from its actions) or duplicated (two actions at a ply: the database refuses them), finished rated matches
rated exactly once (one ledger row, one rating change per competitor) and stuck rows (a turn overdue by
more than a minute, a tournament match whose games match ended but was never recorded).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as `python bench/faults.py`: bench/_common.py is a sibling module
    sys.path.insert(0, str(ROOT))

from bench._common import recreate_database  # noqa: E402

PY = sys.executable
RESUME_TIMEOUT = 60.0


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", flush=True)


class Service:
    """The processes under test, all children of this bench (each in its own process group)."""

    def __init__(self, env: dict[str, str], redis_port: int, http_port: int, tmp: Path) -> None:
        self.env = env
        self.redis_port = redis_port
        self.http_port = http_port
        self.tmp = tmp
        self.procs: dict[str, subprocess.Popen[bytes]] = {}

    def start(self, name: str) -> None:
        commands = {
            "redis": ["redis-server", "--port", str(self.redis_port), "--save", "", "--appendonly", "no"],
            "web": [
                PY, "-m", "gunicorn", "tute_site.wsgi", "--bind", f"127.0.0.1:{self.http_port}",
                "--worker-class", "gthread", "--workers", "2", "--threads", "8",
            ],
            "worker": [
                PY, "-m", "celery", "-A", "tute_site", "worker", "--concurrency", "2", "--loglevel", "WARNING",
                "--without-mingle",
            ],
            "beat": [
                PY, "-m", "celery", "-A", "tute_site", "beat", "--loglevel", "WARNING",
                "--schedule", str(self.tmp / "celerybeat-schedule"),
            ],
        }  # fmt: skip
        out = open(self.tmp / f"{name}.log", "ab")  # noqa: SIM115  (the child keeps it)
        self.procs[name] = subprocess.Popen(
            commands[name], cwd=ROOT, env=self.env, stdout=out, stderr=out, start_new_session=True
        )

    def kill(self, name: str, sig: int = signal.SIGTERM) -> None:
        proc = self.procs.pop(name, None)
        if proc is None:
            return
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()

    def stop_all(self) -> None:
        for name in ("web", "beat", "worker", "redis"):
            self.kill(name)


def manage(env: dict[str, str], *args: str, code: str | None = None) -> str:
    cmd = [PY, "manage.py", *args] if code is None else [PY, "manage.py", "shell", "-c", code]
    return subprocess.run(cmd, cwd=ROOT, env=env, check=True, capture_output=True, text=True).stdout


SETUP = r"""
import json
from django.contrib.auth.models import User
from games.services import SeatSpec, match_create, match_spec, player_for_user, token_create
from tournaments.services import Settings, club_create, entrant_bot_fill, tournament_create, tournament_start
people = []
for i in range(PEOPLE):
    user = User.objects.create_user(username=f"fault-person-{i}")
    me = player_for_user(user=user)
    game = "tute2" if i % 2 == 0 else "pocha"
    seats = [SeatSpec(player=me.handle)] + [SeatSpec(bot="rule")] * (1 if game == "tute2" else 2)
    match = match_create(spec=match_spec(created_by=me, game=game, seats=seats, rated=True, options={"pocha_sequence": [3, 4, 5, 4, 3]} if game == "pocha" else None))
    people.append({"match": match.pk, "token": token_create(user=user), "handle": me.handle, "game": game})
host = player_for_user(user=User.objects.create_user(username="fault-host"))
for i in range(BOT_ONLY):
    match_create(spec=match_spec(created_by=host, game="pocha", seats=[SeatSpec(bot="rule")] * 4, rated=True))
club = club_create(name="Faults", slug="faults", by=host)
t = tournament_create(club=club, by=host, settings=Settings(name="Faults", game="tute2", format="round_robin", rated=True))
entrant_bot_fill(tournament_id=t.pk, by=host, level="random", count=2)
entrant_bot_fill(tournament_id=t.pk, by=host, level="rule", count=2)
tournament_start(tournament_id=t.pk, by=host)
print(json.dumps({"people": people, "tournament": t.pk}))
"""

SNAPSHOT = r"""
import json
from datetime import datetime, timedelta, timezone as dt_timezone
from django.db.models import Count, Min
from django.utils import timezone
from games.models import Action, Match
from ratings.models import RatedMatch, RatingChange
from tournaments.models import TournamentMatch
# One statement for the rows and their actions: a consistent picture while the matches play on.
rows = {
    m["id"]: m
    for m in Match.objects.annotate(n=Count("actions")).values("id", "ply", "n", "status", "rated", "finished_at")
}
# When each match first moved after SINCE (an action, or its end): the resume time, to the millisecond,
# however long this snapshot itself takes to start.
since = datetime.fromtimestamp(SINCE, tz=dt_timezone.utc)
moved = {m: r["finished_at"] for m, r in rows.items() if r["finished_at"] and r["finished_at"] > since}
for m, at in Action.objects.filter(created_at__gt=since).values_list("match").annotate(at=Min("created_at")):
    moved[m] = min(at, moved.get(m, at))
lost = sorted(m for m, r in rows.items() if r["n"] != r["ply"])
finished_rated = [m for m, r in rows.items() if r["status"] == "finished" and r["rated"]]
ledger = set(RatedMatch.objects.values_list("match_id", flat=True))
dup_turns = Action.objects.values("match", "ply").annotate(n=Count("id")).filter(n__gt=1).count()
doubled = RatingChange.objects.values("match", "subject").annotate(n=Count("id")).filter(n__gt=1).count()
now = timezone.now()
overdue = Match.objects.filter(status="in_progress", turn_deadline__lt=now - timedelta(seconds=60)).count()
unrecorded = TournamentMatch.objects.filter(status="playing", match__status__in=["finished", "aborted"], match__finished_at__lt=now - timedelta(seconds=60)).count()
print(json.dumps({
    "plies": {str(m): r["ply"] for m, r in rows.items()},
    "moved_at": {str(m): at.timestamp() for m, at in moved.items()},
    "status": {str(m): r["status"] for m, r in rows.items()},
    "finished_at": {str(m): r["finished_at"].timestamp() for m, r in rows.items() if r["finished_at"]},
    "lost": lost,
    "rated_ok": sum(1 for m in finished_rated if m in ledger),
    "rated_total": len(finished_rated),
    "doubled_ratings": doubled,
    "dup_turns": dup_turns,
    "stuck": overdue + unrecorded,
}))
"""


class People(threading.Thread):
    """The people's side: each plays its seat through the HTTP API, retrying through every fault."""

    def __init__(self, base: str, people: list[dict[str, Any]]) -> None:
        super().__init__(daemon=True)
        self.base = base
        self.people = people
        self.stop = threading.Event()
        self.errors = 0

    def request(self, method: str, path: str, token: str, body: Any = None, key: str | None = None) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, method=method)
        req.add_header("Authorization", f"Token {token}")
        req.add_header("Content-Type", "application/json")
        if key:
            req.add_header("Idempotency-Key", key)
        with urllib.request.urlopen(req, timeout=10) as response:
            return json.loads(response.read() or b"null")

    def rematch(self, person: dict[str, Any]) -> None:
        """A finished match is followed by a new one of the same kind, so every fault finds people in play
        however fast the machine plays (a lost answer retried may leave one extra open match: harmless)."""
        game = person["game"]
        seats = [{"player": person["handle"]}] + [{"bot": "rule"}] * (1 if game == "tute2" else 2)
        body: dict[str, Any] = {"game": game, "seats": seats, "rated": True}
        if game == "pocha":
            body["options"] = {"pocha_sequence": [3, 4, 5, 4, 3]}
        person["match"] = self.request("POST", "/api/v1/matches/", person["token"], body)["id"]

    def run(self) -> None:
        keys: dict[tuple[int, int], str] = {}
        while not self.stop.is_set():
            for person in self.people:
                match = person["match"]
                try:
                    view = self.request("GET", f"/api/v1/matches/{match}/view/", person["token"])
                    if view.get("status") == "finished":
                        self.rematch(person)
                        continue
                    legal = view.get("legal") or []
                    if view.get("status") != "in_progress" or not legal:
                        continue
                    ply = view["ply"]
                    key = keys.setdefault((match, ply), uuid.uuid4().hex)  # the same key on every retry
                    self.request(
                        "POST",
                        f"/api/v1/matches/{match}/actions/",
                        person["token"],
                        {"action": legal[0], "ply": ply},
                        key,
                    )
                except (urllib.error.URLError, OSError, ValueError, TimeoutError):
                    self.errors += 1
            time.sleep(0.2)


def snapshot(env: dict[str, str], since: float | None = None) -> dict[str, Any]:
    """The database's state; ``moved_at``: when each match first moved after ``since`` (epoch seconds)."""
    code = SNAPSHOT.replace("SINCE", repr(time.time() if since is None else since))
    for _ in range(30):
        try:
            return json.loads(manage(env, code=code).strip().splitlines()[-1])
        except subprocess.CalledProcessError:
            time.sleep(1)  # the database is being faulted: look again
    raise RuntimeError("no snapshot")


def wait_resumed(
    env: dict[str, str], before: dict[str, Any], back_at: float
) -> tuple[int, int, float | None]:
    """(in play, resumed, seconds to resume the slowest) for the matches in play in ``before``, from
    ``back_at`` (epoch seconds) to each one's first action or end after it, as the database recorded
    them; logs the slowest few (match id: seconds) to tell which kind of match waits."""
    in_play = {m for m, s in before["status"].items() if s == "in_progress"}
    moved: dict[str, float] = {}
    while time.time() - back_at < RESUME_TIMEOUT and len(moved) < len(in_play):
        now = snapshot(env, since=back_at)
        # A match that ended between the snapshot before and the fault was not in play when it struck.
        in_play -= {m for m, at in now["finished_at"].items() if at <= back_at}
        for m in in_play & now["moved_at"].keys():
            moved[m] = now["moved_at"][m] - back_at
        time.sleep(0.5)
    slowest = sorted(moved.items(), key=lambda item: -item[1])[:4]
    log("slowest to resume: " + ", ".join(f"match {m} {t:.1f} s" for m, t in slowest))
    return len(in_play), len(moved), (max(moved.values()) if moved and len(moved) == len(in_play) else None)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--db", default="tute_faults")
    parser.add_argument("--redis-port", type=int, default=6398)
    parser.add_argument("--http-port", type=int, default=8160)
    parser.add_argument("--people", type=int, default=6)
    parser.add_argument("--bot-only", type=int, default=4)
    parser.add_argument("--beat-stop", type=float, default=60.0)
    parser.add_argument(
        "--faults", default="kill,redis,db,beat", help="which faults, in this order (default: all four)"
    )
    parser.add_argument(
        "--repeat", type=int, default=1, help="run the list of faults this many times in a row (e.g. 20)"
    )
    args = parser.parse_args()

    tmp = Path(f"/tmp/tute-faults-{os.getpid()}")
    tmp.mkdir(parents=True, exist_ok=True)
    pg = "postgres://postgres@127.0.0.1:5432"
    recreate_database(pg, args.db)
    broker = f"redis://127.0.0.1:{args.redis_port}/0"
    env = {
        **os.environ,
        "DATABASE_URL": f"{pg}/{args.db}",
        "CELERY_BROKER_URL": broker,
        "TUTE_EVENTS_URL": broker,
        "CACHE_URL": f"redis://127.0.0.1:{args.redis_port}/1",
        # Production settings (DEBUG off), as a deployment runs them; plain HTTP on loopback.
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "faults-bench-only-" + uuid.uuid4().hex * 2,
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "TUTE_SWEEP_SECONDS": "2",
        "TUTE_TOURNAMENT_SWEEP_SECONDS": "5",
        "TUTE_THROTTLE_USER": "100000/min",
        "TUTE_THROTTLE_ADDRESS": "100000/min",
        "PYTHONPATH": str(ROOT),
    }
    service = Service(env, args.redis_port, args.http_port, tmp)
    people_thread: People | None = None
    try:
        service.start("redis")
        manage(env, "migrate", "--verbosity", "0")
        for name in ("web", "worker", "beat"):
            service.start(name)
        time.sleep(4)
        code = SETUP.replace("PEOPLE", str(args.people)).replace("BOT_ONLY", str(args.bot_only))
        world = json.loads(manage(env, code=code).strip().splitlines()[-1])
        log(f"people's matches: {[p['match'] for p in world['people']]}; the rest are house bots' only")
        people_thread = People(f"http://127.0.0.1:{args.http_port}", world["people"])
        people_thread.start()
        time.sleep(10)  # everyone under way

        def worker_kill() -> None:
            service.kill("worker", signal.SIGKILL)
            service.start("worker")

        def redis_restart() -> None:
            service.kill("redis")
            time.sleep(3)
            service.start("redis")

        def db_terminate() -> None:
            subprocess.run(
                ["psql", f"{pg}/postgres", "-qAtc",
                 f"SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = '{args.db}' AND pid <> pg_backend_pid()"],
                check=True, capture_output=True,
            )  # fmt: skip

        def beat_stop() -> dict[str, Any]:
            """A minute without beat: the matches that count are those in play when it comes back (the
            ones in play before it stopped have mostly ended by then)."""
            service.kill("beat")
            time.sleep(args.beat_stop)
            in_play = snapshot(env)
            service.start("beat")
            return in_play

        known = {
            "kill": ("kill -9 worker", worker_kill),
            "redis": ("restart Redis (3 s)", redis_restart),
            "db": ("terminate DB backends", db_terminate),
            "beat": (f"stop beat {args.beat_stop:.0f} s", beat_stop),
        }
        unknown = [name for name in args.faults.split(",") if name.strip() not in known]
        if unknown:
            parser.error(f"--faults: unknown {unknown}; known: {', '.join(known)}")
        faults = [known[name.strip()] for name in args.faults.split(",")] * args.repeat
        rows = []
        for name, fault in faults:
            before = snapshot(env)
            log(f"fault: {name}")
            before = fault() or before
            back_at = time.time()  # wall clock: the database's timestamps are compared with it
            in_play, resumed, seconds = wait_resumed(env, before, back_at)
            # A rating is a task of its own after the match's last move: give the ones queued around the
            # fault time to land (up to 30 s) before counting "rated exactly once".
            settle_until = time.time() + 30
            time.sleep(2)
            after = snapshot(env)
            while after["rated_ok"] < after["rated_total"] and time.time() < settle_until:
                time.sleep(2)
                after = snapshot(env)
            alive = {n: p.poll() is None for n, p in service.procs.items()}
            rows.append((name, in_play, resumed, seconds, after, alive))
            log(f"{name}: {resumed}/{in_play} resumed, {seconds} s; processes alive: {alive}")
            for proc_name, up in alive.items():
                if not up:  # a supervisor would restart it: so does the bench, and says so
                    log(f"{proc_name} exited after the fault: restarted")
                    service.procs.pop(proc_name)
                    service.start(proc_name)
            time.sleep(5)

        print()
        print(
            f"{'fault':<24} {'resumed':>9} {'seconds':>8} {'lost':>5} {'dup':>4} {'rated once':>11} "
            f"{'2x rated':>8} {'stuck':>6}"
        )
        for name, in_play, resumed, seconds, after, _alive in rows:
            sec = f"{seconds:.1f}" if seconds is not None else "-"
            print(
                f"{name:<24} {resumed:>4}/{in_play:<4} {sec:>8} {len(after['lost']):>5} {after['dup_turns']:>4} "
                f"{after['rated_ok']:>5}/{after['rated_total']:<5} {after['doubled_ratings']:>8} {after['stuck']:>6}"
            )
        exits = {
            name: sum(not alive.get(name, True) for *_, alive in rows) for name in ("web", "worker", "beat")
        }
        print(f"processes that exited after a fault (of {len(rows)} faults): {exits}")
        print(f"(people's client errors retried: {people_thread.errors}; logs in {tmp})")
    finally:
        if people_thread is not None:
            people_thread.stop.set()
        service.stop_all()


if __name__ == "__main__":
    main()
