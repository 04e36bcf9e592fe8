"""The bot client without the project's server: transport edge cases against tiny local HTTP servers,
and run_bot's loop against a scripted client."""

from __future__ import annotations

import logging
import threading
from collections.abc import Generator, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from client import tute_client
from client.tute_client import ApiError, Event, TransportError, TuteClient, run_bot


@contextmanager
def fake_server(status: int, headers: dict[str, str], body: bytes) -> Iterator[str]:
    """A server that answers every request with ``status``, ``headers`` and ``body``, then closes."""

    class Handler(BaseHTTPRequestHandler):
        def answer(self) -> None:
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(body)

        do_GET = do_POST = answer

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def test_a_redirect_is_reported_not_followed() -> None:
    # given: a site that redirects to https (the token must not follow it, a POST must not become a GET)
    target = "https://tute.example/api/v1/matches/1/actions/"
    redirect = {"Location": target, "Content-Length": "0"}

    # then: the client says where it was sent
    with fake_server(301, redirect, b"") as url, pytest.raises(ApiError) as redirected:
        TuteClient(url, "token").act(1, "play:1O", 0)
    assert (redirected.value.status, redirected.value.code) == (301, "redirected")
    assert target in redirected.value.message


def test_an_error_page_that_is_not_the_apis_json_still_gives_an_api_error() -> None:
    page = b"<html><body><h1>502 Bad Gateway</h1></body></html>"
    headers = {"Content-Type": "text/html", "Content-Length": str(len(page))}

    with fake_server(502, headers, page) as url, pytest.raises(ApiError) as failed:
        TuteClient(url, "token").me()

    assert (failed.value.status, failed.value.code, failed.value.message) == (502, "http_502", "Bad Gateway")


def test_a_stream_cut_in_the_middle_of_a_line_is_a_transport_error() -> None:
    body = b'{"type": "hello", "player": "b", "keepalive": 15.0}\n{"type": "your_tu'
    with fake_server(200, {"Content-Type": "application/x-ndjson"}, body) as url:
        events = TuteClient(url, "token").events()
        assert next(events)["type"] == "hello"
        with pytest.raises(TransportError, match="cut in the middle"):
            next(events)


class ScriptedClient(TuteClient):
    """A client whose event stream plays a script: each item is a list of events, or an exception."""

    def __init__(self, script: list[list[Event] | Exception], stop: threading.Event) -> None:
        super().__init__("http://127.0.0.1:9", "token")
        self.script = script
        self.stop = stop
        self.acted: list[tuple[int, str, int]] = []
        self.accepted: list[int] = []
        self.turns: list[Event] = []  # what polling finds (the turns are {"match", "ply", ...})
        self.polls = 0

    def notices(self, after: int | None = None) -> Event:
        return {"results": [], "last": None}

    def my_turns(self) -> list[Event]:
        self.polls += 1
        return [turn for turn in self.turns if (turn["match"], "play:1C", turn["ply"]) not in self.acted]

    def view(self, match_id: int) -> Event:
        turn = next(turn for turn in self.turns if turn["match"] == match_id)
        return {"match": match_id, "ply": turn["ply"], "legal": ["play:1C"], "view": {}}

    def challenges(self) -> list[Event]:
        return []

    def my_matches(self, status: str = "in_progress") -> list[Event]:
        return []

    def events(self, max_seconds: float | None = None) -> Generator[Event, None, None]:
        if not self.script:  # the end of the script: stop the bot
            self.stop.set()
            yield HELLO
            return
        step = self.script.pop(0)
        if isinstance(step, Exception):
            raise step
        yield from step

    def act(self, match_id: int, action: str, ply: int, idempotency_key: str | None = None) -> Event:
        self.acted.append((match_id, action, ply))
        return {}

    def accept(self, match_id: int) -> Event:
        self.accepted.append(match_id)
        return {}


HELLO: Event = {"type": "hello", "player": "b", "keepalive": 15.0}
BYE: Event = {"type": "bye", "reason": "max_seconds"}


@pytest.fixture
def pauses(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The reconnect pauses run_bot takes, recorded instead of slept."""
    taken: list[float] = []
    monkeypatch.setattr(tute_client, "_sleep", lambda seconds, stop: taken.append(seconds))
    return taken


def test_run_bot_backs_off_while_the_stream_keeps_failing(pauses: list[float]) -> None:
    # given: a stream that fails four times, then works until its bye, then fails again
    stop = threading.Event()
    drop = TransportError("connection refused")
    client = ScriptedClient([drop, drop, drop, drop, [HELLO, BYE], [HELLO, BYE], drop], stop)

    # when: the bot runs through the script
    run_bot(
        client,
        lambda event: event["legal"][0],
        reconnect_delay=1,
        max_reconnect_delay=5,
        poll_interval=60,
        stop=stop,
    )

    # then: 1, 2, 4, then capped at 5; after the byes at once; a new failure starts from 1 again
    assert pauses == [1, 2, 4, 5, 1]


def test_run_bot_waits_as_long_as_a_throttled_stream_asks(pauses: list[float]) -> None:
    stop = threading.Event()
    throttled = ApiError(429, "throttled", "Request was throttled.", retry_after=7)
    client = ScriptedClient([throttled, ApiError(503, "http_503", "Service Unavailable")], stop)

    run_bot(client, lambda event: event["legal"][0], reconnect_delay=1, poll_interval=60, stop=stop)

    assert pauses == [7, 2]


@pytest.mark.parametrize(
    "refusal",
    [
        ApiError(503, "streams_busy", "This server holds as many streams as it may.", retry_after=5),
        ApiError(429, "too_many_streams", "Too many open streams: close one first.", retry_after=5),
        TransportError("connection reset"),
    ],
)
def test_run_bot_polls_its_turns_while_its_stream_is_refused_or_dropped(
    pauses: list[float], refusal: Exception
) -> None:
    """Before the fix a refused stream left the bot idle for Retry-After (5 s or more) with no source
    of turns: a turn that came meanwhile could run out its clock (the ladder bench's timeouts)."""
    # given: a stream refused once, and a turn waiting that polling finds
    stop = threading.Event()
    client = ScriptedClient([refusal], stop)
    client.turns = [{"match": 4, "ply": 6, "seat": 1, "game": "tute2", "deadline": None}]

    # when: the bot runs
    run_bot(client, lambda event: event["legal"][0], reconnect_delay=0.5, poll_interval=1, stop=stop)

    # then: it played the turn by polling while it waited, in steps of poll_interval up to Retry-After,
    # and once only (the later polls no longer list it), then opened the stream again
    assert client.acted == [(4, "play:1C", 6)]
    expected = [1, 1, 1, 1, 1] if isinstance(refusal, ApiError) else [0.5]
    assert pauses == expected and client.polls == len(expected)


def test_run_bot_gives_up_on_a_bad_token(pauses: list[float]) -> None:
    stop = threading.Event()
    client = ScriptedClient([ApiError(401, "authentication_failed", "Invalid or revoked token.")], stop)

    with pytest.raises(ApiError) as refused:
        run_bot(client, lambda event: event["legal"][0], stop=stop)

    assert refused.value.status == 401 and pauses == []


def test_run_bot_accepts_challenges_and_plays_turns_with_their_ply(pauses: list[float]) -> None:
    # given: a challenge, then a turn, in one connection
    stop = threading.Event()
    turn = {"type": "your_turn", "match": 7, "ply": 12, "legal": ["play:1C", "play:3C"], "view": {}}
    challenge = {"type": "challenge", "match": 7, "game": "tute2", "seat": 0, "ply": 0}
    client = ScriptedClient([[HELLO, challenge, turn, BYE]], stop)
    seen: list[Event] = []

    # when: the bot runs, choosing the last legal code
    run_bot(client, lambda event: event["legal"][-1], stop=stop, on_event=seen.append)

    # then: it accepted, acted at the turn's ply, and every event went through on_event
    assert client.accepted == [7]
    assert client.acted == [(7, "play:3C", 12)]
    assert [e["type"] for e in seen] == ["hello", "challenge", "your_turn", "bye", "hello"]


def test_run_bot_declines_when_the_policy_says_no(pauses: list[float]) -> None:
    stop = threading.Event()
    challenge = {"type": "challenge", "match": 3, "game": "pocha", "seat": 1, "ply": 0}
    declined: list[tuple[int, str]] = []

    class Declining(ScriptedClient):
        def decline(self, match_id: int, reason: str = "") -> Event:
            declined.append((match_id, reason))
            return {}

    client = Declining([[HELLO, challenge, BYE]], stop)

    run_bot(client, lambda e: e["legal"][0], accept_challenges=lambda e: e["game"] == "tute2", stop=stop)

    assert client.accepted == [] and declined == [(3, "the bot declined")]


def test_a_polling_bot_plays_a_turn_again_after_its_action_failed(pauses: list[float]) -> None:
    """A server error or a lost connection on the action leaves the turn to the next poll, which
    plays it (before the fix the turn was marked played and left to the clock: a timeout)."""
    stop = threading.Event()
    turn = {"match": 5, "ply": 9, "seat": 0, "game": "tute2", "deadline": None}

    class Polled(TuteClient):
        def __init__(self) -> None:
            super().__init__("http://127.0.0.1:9", "token")
            self.failures: list[Exception] = [
                ApiError(503, "http_503", "Service Unavailable"),
                TransportError("connection reset"),
            ]
            self.acted: list[tuple[int, str, int]] = []
            self.polls = 0

        def notices(self, after: int | None = None) -> Event:
            return {"results": [], "last": None}

        def my_turns(self) -> list[Event]:
            self.polls += 1
            if self.acted or self.polls > 5:  # played (the match moved on), or given up on
                stop.set()
                return []
            return [turn]

        def view(self, match_id: int) -> Event:
            return {"match": match_id, "ply": 9, "legal": ["play:1C"], "view": {}}

        def challenges(self) -> list[Event]:
            return []

        def my_matches(self, status: str = "in_progress") -> list[Event]:
            return []

        def act(self, match_id: int, action: str, ply: int, idempotency_key: str | None = None) -> Event:
            if self.failures:
                raise self.failures.pop(0)
            self.acted.append((match_id, action, ply))
            return {}

    client = Polled()
    run_bot(client, lambda event: event["legal"][0], poll=True, poll_interval=0.5, stop=stop)

    assert client.acted == [(5, "play:1C", 9)]  # the third poll played it
    assert 1.0 in pauses and 2.0 in pauses  # the polls after each failure backed off


class PolledClient(TuteClient):
    """A client that polling finds things with: each round (one ``notices`` call) takes the next item of
    ``rounds``, a dict of what that round's calls answer; past the last one the bot is stopped."""

    def __init__(self, rounds: list[dict[str, Any]], stop: threading.Event) -> None:
        super().__init__("http://127.0.0.1:9", "token")
        self._handle = "b"
        self.rounds = rounds
        self.now: dict[str, Any] = {}
        self.stop = stop
        self.accepted: list[int] = []
        self.acted: list[tuple[int, str, int]] = []
        self.refusal: ApiError | None = None

    def notices(self, after: int | None = None) -> Event:
        if not self.rounds:
            self.stop.set()
            self.now = {}
        else:
            self.now = self.rounds.pop(0)
        return {"results": self.now.get("notices", []), "last": None}

    def challenges(self) -> list[Event]:
        return list(self.now.get("challenges", []))

    def my_matches(self, status: str = "in_progress") -> list[Event]:
        return list(self.now.get("matches", []))

    def match(self, match_id: int) -> Event:
        return dict(self.now["match"])

    def my_turns(self) -> list[Event]:
        return list(self.now.get("turns", []))

    def view(self, match_id: int) -> Event:
        turn = next(turn for turn in self.now["turns"] if turn["match"] == match_id)
        return {"match": match_id, "ply": turn["ply"], "legal": ["play:1C"], "view": {}}

    def accept(self, match_id: int, client_seed: str | None = None) -> Event:
        self.accepted.append(match_id)
        return {}

    def act(self, match_id: int, action: str, ply: int, idempotency_key: str | None = None) -> Event:
        self.acted.append((match_id, action, ply))
        if self.refusal is not None:
            raise self.refusal
        return {}


CHALLENGE: Event = {"type": "challenge", "match": 7, "game": "tute2", "seat": 0, "ply": 0}
RUNNING: Event = {
    "id": 7,
    "game": "tute2",
    "players": 2,
    "options": {},
    "status": "in_progress",
    "seed_sha256": None,
    "seats": [{"index": 0, "player": {"handle": "b"}, "accepted": True}, {"index": 1, "player": None}],
}
FINISHED: Event = {
    **RUNNING,
    "status": "finished",
    "finish_reason": "completed",
    "result": {"games_won": [1, 0], "winners": [0], "games": 1},
}
STARTED_EVENT: Event = {
    "type": "match_started",
    "match": 7,
    "game": "tute2",
    "players": 2,
    "seat": 0,
    "options": {},
}
FINISHED_EVENT: Event = {
    "type": "match_finished",
    "match": 7,
    "status": "finished",
    "reason": "completed",
    "result": FINISHED["result"],
}
REFUSAL = ApiError(
    422, "illegal_action", "Illegal action.", {"reason": "must follow suit", "legal": ["play:3C"]}
)
REFUSED_NOTICE: Event = {
    "type": "action_refused",
    "id": 1,
    "match": 7,
    "ply": 12,
    "action": "play:1C",
    "code": "illegal_action",
    "reason": "must follow suit",
    "legal": ["play:3C"],
}


def bot_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    """What run_bot logged, without the lines of one way only (the stream opening)."""
    return [
        f"{r.levelname} {r.getMessage()}"
        for r in caplog.records
        if r.name == "client.tute_client" and not r.getMessage().startswith("event stream open")
    ]


def test_a_polling_bot_answers_the_challenges_it_finds(pauses: list[float]) -> None:
    """Before the fix a polling bot never looked for challenges: one waited until the creator gave up."""
    # given: a challenge listed in three rounds of polling in a row
    stop = threading.Event()
    client = PolledClient([{"challenges": [CHALLENGE]}] * 3, stop)
    seen: list[Event] = []

    # when: the bot polls
    run_bot(client, lambda event: event["legal"][0], poll=True, stop=stop, on_event=seen.append)

    # then: it accepted the challenge once, and on_event saw it as the stream's challenge event
    assert client.accepted == [7]
    assert seen == [CHALLENGE]


def test_streaming_and_polling_log_a_matchs_start_and_finish_alike(
    pauses: list[float], caplog: pytest.LogCaptureFixture
) -> None:
    """Before the fix a polling bot logged nothing of its matches (the streaming one logged finishes)."""
    caplog.set_level(logging.INFO, logger="client.tute_client")
    # given: a match that starts and finishes, heard on the stream (told again on a second connection)
    stop = threading.Event()
    streamed = ScriptedClient(
        [[HELLO, STARTED_EVENT, BYE], [HELLO, STARTED_EVENT, FINISHED_EVENT, BYE]], stop
    )
    run_bot(streamed, lambda event: event["legal"][0], stop=stop)
    by_stream = bot_lines(caplog)
    caplog.clear()

    # and: the same match found by polling: in progress, then no longer (finished)
    stop = threading.Event()
    polled = PolledClient([{"matches": [RUNNING]}, {"matches": [RUNNING]}, {"match": FINISHED}], stop)
    run_bot(polled, lambda event: event["legal"][0], poll=True, stop=stop)
    by_polling = bot_lines(caplog)

    # then: both logged the start and the finish, once each, in the same words
    assert by_stream == [
        "INFO match 7 started (tute2, seat 0 of 2)",
        "INFO match 7 finished (completed): {'games_won': [1, 0], 'winners': [0], 'games': 1}",
    ]
    assert by_polling == by_stream


@pytest.mark.parametrize("poll", [False, True])
def test_a_refused_action_is_logged_once(
    pauses: list[float], caplog: pytest.LogCaptureFixture, poll: bool
) -> None:
    """Before the fix each illegal move was logged twice: from the 422 answer, and again from the
    action_refused notice (stream event or polled notice) that echoes it."""
    caplog.set_level(logging.INFO, logger="client.tute_client")
    # given: a turn whose action the server refuses, and then the notice of that refusal
    stop = threading.Event()
    turn: Event = {"type": "your_turn", "match": 7, "ply": 12, "legal": ["play:1C"], "view": {}}
    client: ScriptedClient | PolledClient
    if poll:
        listed = {"match": 7, "ply": 12, "seat": 0, "game": "tute2", "deadline": None}
        client = PolledClient([{"turns": [listed]}, {"notices": [REFUSED_NOTICE]}], stop)
        client.refusal = REFUSAL
    else:
        client = ScriptedClient([[HELLO, turn, REFUSED_NOTICE, BYE]], stop)

        def refuse(match_id: int, action: str, ply: int, idempotency_key: str | None = None) -> Event:
            raise REFUSAL

        client.act = refuse  # type: ignore[method-assign]

    # when: the bot plays
    run_bot(client, lambda event: event["legal"][0], poll=poll, stop=stop)

    # then: one warning says the action was refused, and why
    refused = [line for line in bot_lines(caplog) if "refused" in line]
    assert len(refused) == 1, refused
    assert (
        refused[0].startswith("WARNING match 7 ply 12: play:1C refused") and "must follow suit" in refused[0]
    )
