"""Push bots: only public HTTPS endpoints (checked after DNS resolution), no redirects, signed bodies,
and failures that count as timeouts; end to end with a real worker and a local endpoint (the test-only
allowance for plain http to loopback)."""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from games.models import Action, Match, Player
from games.services import SeatSpec, match_create, match_spec
from ladder.models import BotIncident, BotProfile
from ladder.push import PushError, check_url, push
from tests.factories import BotPlayerFactory, PlayerFactory
from tests.workers import (
    TEST_BROKER_DB,
    Worker,
    broker_url_for_tests,
    database_url,
    flush_broker,
    publishing_to,
    terminate_backends,
    wait_for,
)

#: This process's broker for real workers (flushed before the module's worker starts).
PUSH_BROKER_DB = TEST_BROKER_DB


@pytest.mark.parametrize(
    "url",
    [
        "http://93.184.216.34/turn",  # plain http
        "https://127.0.0.1/turn",  # loopback
        "https://10.1.2.3/turn",  # private
        "https://169.254.169.254/latest/meta-data",  # link-local (cloud metadata)
        "https://[::1]/turn",
        "https://0.0.0.0/turn",
        "https://localhost/turn",  # a name that resolves to loopback
        "https://user:pw@93.184.216.34/turn",
        "ftp://93.184.216.34/turn",
    ],
)
def test_only_public_https_endpoints_are_called(url: str) -> None:
    with pytest.raises(PushError):
        check_url(url)


def test_a_public_address_passes_and_the_test_allowance_is_loopback_only() -> None:
    assert check_url("https://93.184.216.34:8443/turn?x=1").address == "93.184.216.34"
    assert check_url("http://127.0.0.1:9/turn", allow_local=True).scheme == "http"
    with pytest.raises(PushError):
        check_url("http://93.184.216.34/turn", allow_local=True)


class Endpoint:
    """A local push endpoint in a thread: ``answer(event) -> (status, body, headers)``."""

    def __init__(
        self, answer: Callable[[dict[str, Any]], tuple[int, bytes, dict[str, str]]], secret: str = ""
    ):
        self.secret = secret
        self.received: list[dict[str, Any]] = []
        self.bad_signatures = 0
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                timestamp = self.headers["X-Tute-Timestamp"]
                expected = (
                    "sha256="
                    + hmac.new(
                        endpoint.secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256
                    ).hexdigest()
                )
                if not hmac.compare_digest(expected, self.headers["X-Tute-Signature"]):
                    endpoint.bad_signatures += 1
                event = json.loads(body)
                endpoint.received.append(event)
                status, data, headers = answer(event)
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/turn"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def endpoint() -> Iterator[Callable[..., Endpoint]]:
    made: list[Endpoint] = []

    def make(
        answer: Callable[[dict[str, Any]], tuple[int, bytes, dict[str, str]]], secret: str = ""
    ) -> Endpoint:
        made.append(Endpoint(answer, secret))
        return made[-1]

    yield make
    for e in made:
        e.close()


def random_legal(event: dict[str, Any]) -> tuple[int, bytes, dict[str, str]]:
    return 200, json.dumps({"action": random.choice(event["legal"])}).encode(), {}


def test_the_body_is_signed_and_redirects_are_not_followed(endpoint: Callable[..., Endpoint]) -> None:
    good = endpoint(random_legal, secret="s3cret")
    moved = endpoint(lambda e: (302, b"", {"Location": good.url}), secret="s3cret")
    event = {"type": "your_turn", "legal": ["play:1O"]}

    assert push(good.url, "s3cret", event, timeout=5, allow_local=True) == "play:1O"
    assert good.bad_signatures == 0 and good.received == [event]
    with pytest.raises(PushError, match="302"):
        push(moved.url, "s3cret", event, timeout=5, allow_local=True)
    assert len(good.received) == 1  # the redirect was not followed


@pytest.mark.django_db
def test_the_owner_sets_an_endpoint_and_sees_the_secret_once(
    token_client: Callable[[Player], Any], settings: Any
) -> None:
    bot = BotPlayerFactory()
    owner = PlayerFactory(user=bot.owner, handle="owner")
    client = token_client(owner)

    private = client.patch(
        f"/api/v1/bots/{bot.handle}/", {"push_url": "https://10.0.0.7/turn"}, format="json"
    )
    public = client.patch(
        f"/api/v1/bots/{bot.handle}/", {"push_url": "https://93.184.216.34/turn"}, format="json"
    )
    listed = client.get("/api/v1/bots/").json()["results"][0]

    assert private.status_code == 400 and private.json()["code"] == "invalid_push_url"
    assert public.status_code == 200 and public["Cache-Control"].startswith("max-age=0")
    assert (
        public.json()["push_url"] == "https://93.184.216.34/turn" and len(public.json()["push_secret"]) > 30
    )
    assert "push_secret" not in listed and listed["push_url"] == "https://93.184.216.34/turn"
    off = client.patch(f"/api/v1/bots/{bot.handle}/", {"push_url": ""}, format="json")
    assert off.json()["push_url"] == "" and BotProfile.objects.get(player=bot).push_secret == ""


@pytest.fixture
def push_worker(postgres_required: None, redis_url: str, transactional_db: None) -> Iterator[Worker]:
    """A real worker allowed to call a local endpoint (TUTE_PUSH_ALLOW_LOCAL, tests only)."""
    from django.db import connection

    broker = broker_url_for_tests(redis_url, PUSH_BROKER_DB)
    flush_broker(broker)
    worker = Worker(
        database_url=database_url(connection.settings_dict),
        broker_url=broker,
        extra_env={"TUTE_PUSH_ALLOW_LOCAL": "1"},
    )
    with publishing_to(broker):
        worker.start()
        try:
            yield worker
        finally:
            worker.stop()
            terminate_backends(worker.name)
            flush_broker(broker)


def push_bot(endpoint_url: str) -> tuple[Player, str]:
    bot = BotPlayerFactory()
    profile, _ = BotProfile.objects.get_or_create(player=bot)
    profile.push_url, profile.push_secret = endpoint_url, "k" * 43
    profile.save()
    return bot, profile.push_secret


@pytest.mark.django_db(transaction=True)
def test_a_push_bot_plays_a_whole_match_through_its_endpoint(
    push_worker: Worker, endpoint: Callable[..., Endpoint], settings: Any
) -> None:
    # given: a push bot whose endpoint answers a random legal move, against the rule house bot
    settings.TUTE_PUSH_ALLOW_LOCAL = True
    served = endpoint(random_legal, secret="k" * 43)
    bot, _ = push_bot(served.url)

    # when: the match starts (its turns go to the endpoint from the worker)
    match = match_create(
        spec=match_spec(
            created_by=bot, game="tute2", seats=[SeatSpec(player=bot.handle), SeatSpec(bot="rule")]
        )
    )

    # then: it finishes with the bot's own moves, every push signed, no timeout
    wait_for(
        "the push bot's match to finish",
        lambda: Match.objects.get(pk=match.pk).status == Match.Status.FINISHED,
        timeout=180,
        log=push_worker.log_tail,
    )
    moves = Action.objects.filter(match=match, player=bot, kind=Action.Kind.MOVE).count()
    assert moves == len(served.received) > 5 and served.bad_signatures == 0
    assert not Action.objects.filter(match=match, kind=Action.Kind.TIMEOUT).exists()
    assert served.received[0]["type"] == "your_turn" and served.received[0]["legal"]


@pytest.mark.django_db(transaction=True)
def test_a_failing_endpoint_counts_as_timeouts_at_once(
    push_worker: Worker, endpoint: Callable[..., Endpoint], settings: Any
) -> None:
    settings.TUTE_PUSH_ALLOW_LOCAL = True
    broken = endpoint(lambda e: (500, b"oops", {}), secret="k" * 43)
    bot, _ = push_bot(broken.url)

    match = match_create(
        spec=match_spec(
            created_by=bot,
            game="tute2",
            seats=[SeatSpec(player=bot.handle), SeatSpec(bot="rule")],
            rated=False,
        )
    )

    # then: each failed push is a timeout at once (not after the move's 15 s), and the third forfeits
    wait_for(
        "the forfeit",
        lambda: Match.objects.get(pk=match.pk).finish_reason == "forfeit",
        timeout=60,
        log=push_worker.log_tail,
    )
    assert len(broken.received) == 3
    assert BotIncident.objects.filter(player=bot, kind="timeout").count() == 3


@pytest.mark.django_db
def test_a_move_that_makes_a_bots_turn_reads_its_push_setting_with_the_seats(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    """The push check of every bot turn costs no query of its own: the profile comes with the seats,
    and a push bot's turns are still sent to its endpoint."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.selectors import match_context
    from games.services import action_submit
    from tute_site.celery import app

    sent: list[tuple[str, tuple[Any, ...]]] = []
    monkeypatch.setattr(app, "send_task", lambda name, args=(), **o: sent.append((name, tuple(args))))
    streaming, pusher = BotPlayerFactory(), BotPlayerFactory()
    BotProfile.objects.create(player=streaming)
    BotProfile.objects.create(player=pusher, push_url="https://93.184.216.34/turn", push_secret="s")
    match = match_create(
        spec=match_spec(
            created_by=PlayerFactory(),
            game="tute2",
            seats=[SeatSpec(player=streaming.handle), SeatSpec(player=pusher.handle)],
            challenge=False,
        )
    )
    expected = []
    for _ in range(8):
        context = match_context(match.pk, lock=False)
        seat = context.seat_at(context.match.turn_seat)
        assert seat is not None and seat.player is not None and context.state is not None
        ply = context.match.ply
        with CaptureQueriesContext(connection) as queries, django_capture_on_commit_callbacks(execute=True):
            applied = action_submit(
                match_id=match.pk, player=seat.player, code=context.state.legal_actions()[0], ply=ply
            )
        assert [q["sql"] for q in queries if 'FROM "games_botprofile"' in q["sql"]] == []
        if applied.match.turn_seat == 1:
            expected.append(("games.push_turn", (match.pk, ply + 1)))
    assert expected and [s for s in sent if s[0] == "games.push_turn"] == expected
