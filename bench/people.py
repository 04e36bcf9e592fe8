"""Quick pairing on the production layout: N simulated people seek games, are seated together and play.

Run by hand from the project root (PostgreSQL up; redis-server installed)::

    python bench/people.py [--people 8,16] [--seconds 120] [--bots-after 20] [--give-up 60] [--http-port 8171] [--redis-port 6398]

It sets up the service as bench/load.py does (a throwaway PostgreSQL database ``tute_people``, a private
redis-server, gunicorn, one Celery worker and beat on production settings; the pairer runs in the worker).
Then, for each number of people in ``--people`` in turn, that many people (each an account with an API
token, rated 1500 in every game, on one HTTP/1.1 connection of its own) for ``--seconds``: a person seeks
(``POST /api/v1/seeks/``, unrated, 60 s a move) the next of Tute 2, Tute 4 and a three-player Pocha, one
person in four also taking house bots after ``--bots-after`` seconds; polls the seek every second until
it is matched (a seek still waiting after ``--give-up`` seconds is cancelled, and the person seeks the
next game); then plays the match to its end as bench/load.py's people do, but thinking 0.5 to 1.5 s and
looking at the view every 0.3 s, and seeks again.

It prints, per round: seeks made (and given up, or ended by the server), matches seated with people only
and with house bots, the pairing wait (from the seek's POST to the poll that saw it matched) p50/p99 and
max, matches played to the end, moves, the view's and the action's p50/p99 latency, answers with 5xx and
other unexpected answers by status and code (a 409 stale_ply or not_your_turn is a normal race, counted
apart), and the machine's load average.
"""

from __future__ import annotations

import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as `python bench/people.py`: bench/ is a sibling package
    sys.path.insert(0, str(ROOT))

from bench.load import GAMES, Person, accounts, arguments, crowd, log, ms, service  # noqa: E402
from bench.soak import percentile  # noqa: E402

RACES = ("stale_ply", "not_your_turn")  # another seat moved first: read the view again


def code_of(out: Any) -> str | None:
    """An error answer's ``code``."""
    return out.get("code") if isinstance(out, dict) else None


class Seeker(Person):
    """One person: seeks a game, waits to be seated, plays the match to its end, seeks again."""

    THINK = (0.5, 1.5)
    POLL = 0.3

    def __init__(
        self,
        port: int,
        index: int,
        account: dict[str, str],
        stop: threading.Event,
        bots_after: int | None,
        give_up: float,
    ) -> None:
        super().__init__(port, index, account["handle"], account["token"], "", stop)
        self.bots_after, self.give_up = bots_after, give_up
        self.turn = 0  # seeks tried: the next game is GAMES[(index + turn) % 3]
        self.seeks = 0
        self.given_up = 0
        self.ended: Counter[str] = Counter()  # seeks the server ended, by status
        self.waits: list[float] = []
        self.seated: dict[int, bool] = {}  # match: house bots seated
        self.aborted = 0
        self.races = 0
        self.errors: Counter[str] = Counter()  # unexpected answers below 500, "status code"

    def failed(self, what: str, status: int, out: Any) -> None:
        code = code_of(out)
        if status == 409 and code in RACES:
            self.races += 1
            return
        super().failed(what, status, out)
        if status < 500:
            self.errors[f"{status} {code or what}"] += 1

    def seek(self) -> int | None:
        """Seek the next game and wait until seated: the match, or None (given up, ended, stopped)."""
        game = GAMES[(self.index + self.turn) % len(GAMES)]
        self.turn += 1
        body: dict[str, Any] = {"game": game, "rated": False, "human_move_seconds": 60}
        if game == "pocha":
            body["players"] = 3
        if self.bots_after is not None:
            body["bots_after_seconds"] = self.bots_after
        started = time.perf_counter()
        status, out, _ = self.call("POST", "/api/v1/seeks/", body)
        if status == 201:
            self.seeks += 1
            seek = int(out["id"])
        elif status == 409 and code_of(out) == "seek_exists":  # an earlier one still waits: that one
            seek = int(out["detail"]["seek"])
        else:
            self.failed("seek", status, out)
            time.sleep(1)
            return None
        while not self.stop.is_set():
            time.sleep(1)
            status, out, _ = self.call("GET", f"/api/v1/seeks/{seek}/")
            if status != 200:
                self.failed("seek poll", status, out)
            elif out["status"] == "matched":
                self.waits.append(time.perf_counter() - started)
                return int(out["match"])
            elif out["status"] != "waiting":
                self.ended[out["status"]] += 1
                return None
            elif time.perf_counter() - started > self.give_up:
                self.given_up += 1
                break
        status, out, _ = self.call("DELETE", f"/api/v1/seeks/{seek}/")
        if status == 409 and code_of(out) == "seek_matched":  # seated as it gave up: it plays
            if self.stop.is_set():
                return None
            self.given_up -= 1
            self.waits.append(time.perf_counter() - started)
            return int(out["detail"]["match"])
        if status != 200:
            self.failed("seek cancel", status, out)
        return None

    def run(self) -> None:
        while not self.stop.is_set():
            match = self.seek()
            if match is None:
                continue
            status, out, _ = self.call("GET", f"/api/v1/matches/{match}/")
            if status != 200:
                self.failed("match", status, out)
                continue
            self.seated[match] = any(seat["house_bot"] for seat in out["seats"])
            self.aborted += self.play(match) == "aborted"
        self.conn.close()


def round_of(
    env: dict[str, str], port: int, count: int, seconds: float, bots_after: int, give_up: float
) -> None:
    stop = threading.Event()
    people = [
        Seeker(port, i, account, stop, bots_after if i % 4 == 0 else None, give_up)
        for i, account in enumerate(accounts(env, count, f"people-{count}-{time.time_ns()}"))
    ]
    log(f"{count} people seeking games for {seconds:g} s")
    load = crowd(people, seconds, stop)
    seated = {match: bots for p in people for match, bots in p.seated.items()}
    waits = [w for p in people for w in p.waits]
    errors = sum((p.errors for p in people), Counter[str]())
    ended = sum((p.ended for p in people), Counter[str]())
    bots = sum(seated.values())
    print()
    print(f"=== {count} people, {seconds:g} s (load average {load[0]:.2f}) ===")
    print(
        f"seeks {sum(p.seeks for p in people)} (given up after {give_up:g} s {sum(p.given_up for p in people)}, "
        f"ended by the server {dict(ended) or 0}); matches seated {len(seated)}: people only "
        f"{len(seated) - bots}, with house bots {bots}"
    )
    if waits:
        print(
            f"pairing wait ({len(waits)}): p50 {percentile(waits, 0.5):.1f} s, "
            f"p99 {percentile(waits, 0.99):.1f} s, max {max(waits):.1f} s"
        )
    print(
        f"matches played to the end {sum(p.finished for p in people)} (aborted {sum(p.aborted for p in people)}); "
        f"moves by people {sum(p.moves for p in people)}"
    )
    print(f"view GET     ({sum(len(p.views) for p in people)}): {ms([s for p in people for s in p.views])}")
    print(
        f"action POST  ({sum(len(p.actions) for p in people)}): {ms([s for p in people for s in p.actions])}"
    )
    print(
        f"5xx answers: {sum(p.server_errors for p in people)}; other unexpected: {dict(errors) or 0}; "
        f"409 races: {sum(p.races for p in people)}"
    )
    for failure in [f for p in people for f in p.failures][:10]:
        print(f"  {failure}")
    print(flush=True)


def main() -> None:
    parser = arguments(
        __doc__, people="8,16", seconds=120.0, db="tute_people", http_port=8171, redis_port=6398
    )
    parser.add_argument(
        "--bots-after",
        type=int,
        default=20,
        help="one person in four takes house bots after this (default 20 s)",
    )
    parser.add_argument(
        "--give-up", type=float, default=60.0, help="cancel a seek still waiting after this (default 60 s)"
    )
    args = parser.parse_args()
    with service(args, "people") as env:
        for count in (int(n) for n in args.people.split(",")):
            round_of(env, args.http_port, count, args.seconds, args.bots_after, args.give_up)


if __name__ == "__main__":
    main()
