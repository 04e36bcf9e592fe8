"""The bot client (client/tute_client.py) and the example bot, over real HTTP against a live server."""

from __future__ import annotations

import logging
import os
import random
import subprocess
import sys
from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any

import pytest
from rest_framework.throttling import SimpleRateThrottle

from client.tute_client import ApiError, Event, TransportError, TuteClient
from games.models import Action, Match
from games.services import SeatSpec, match_create, match_spec
from tests.client.conftest import Account, Bots

pytestmark = pytest.mark.django_db(transaction=True)

PROJECT_DIR = Path(__file__).resolve().parents[2]
EXAMPLE = PROJECT_DIR / "client" / "examples" / "random_bot.py"

MakePerson = Callable[[str], Account]
MakeBot = Callable[[Account, str], Account]


def random_choice(event: Event) -> str:
    return random.choice(event["legal"])


def challenge(creator: Account, *seated: Account, game: str = "tute2") -> Match:
    """An unrated match made by ``creator`` (who does not sit) with a seat for each of ``seated``.

    Unrated: a rated match queues its rating task when it finishes, on a broker no test worker reads.
    """
    seats = [SeatSpec(player=a.handle) for a in seated]
    return match_create(spec=match_spec(created_by=creator.player, game=game, seats=seats, rated=False))


def started(creator: Account, *seated: Account) -> tuple[Match, Account, Account]:
    """A tute2 match between two bots that accept at once: the match, the bot to act and the other."""
    for bot in seated:
        creator.client.set_auto_accept(bot.handle, True)
    match = challenge(creator, *seated)
    match.refresh_from_db()
    assert match.status == Match.Status.IN_PROGRESS and match.turn_seat is not None
    to_act = seated[match.turn_seat]
    return match, to_act, seated[1 - match.turn_seat]


def finished(match: Match) -> Callable[[], bool]:
    return lambda: Match.objects.filter(pk=match.pk, status=Match.Status.FINISHED).exists()


def test_two_bots_play_a_match_through_their_event_streams(
    person: MakePerson, bot_account: MakeBot, bots: Bots
) -> None:
    # given: two bots of one owner, each played by run_bot from its event stream
    owner = person("owner")
    north, south = bot_account(owner, "north"), bot_account(owner, "south")
    players = [bots.start(north, random_choice), bots.start(south, random_choice)]

    # when: the owner challenges both to a tute2 match it does not sit in
    match = challenge(owner, north, south)

    # then: both accept through their streams and play every turn until the match is over
    bots.wait_for(finished(match))
    match.refresh_from_db()
    assert match.finish_reason == "completed"
    for bot in players:
        kinds = list(dict.fromkeys(e["type"] for e in bot.events if e.get("match") == match.pk))
        assert kinds[:3] == ["challenge", "match_started", "your_turn"], "in that order, first heard"
        turns = [e["ply"] for e in bot.saw("your_turn", match.pk)]
        assert turns == sorted(set(turns)), "each turn once, in order"
    actions = list(Action.objects.filter(match=match).order_by("ply"))
    assert [a.ply for a in actions] == list(range(match.ply))
    assert {a.kind for a in actions} == {Action.Kind.MOVE}, "no timeout: every move came from a bot"
    assert {a.player_id for a in actions} == {north.player.pk, south.player.pk}
    record = owner.client.record(match.pk)
    assert record["games"][0]["record"]["actions"] == [a.code for a in actions]


def test_a_polling_bot_accepts_its_challenge_plays_and_logs_the_match_as_a_streaming_one(
    person: MakePerson, bot_account: MakeBot, bots: Bots, caplog: pytest.LogCaptureFixture
) -> None:
    """Before the fix a polling bot never saw its challenges (the match stayed open) and logged nothing
    of its matches; now it answers them and logs the start and finish as the streaming bot does."""
    caplog.set_level(logging.INFO, logger="client.tute_client")
    # given: a polling bot and a streaming one, neither accepting automatically
    owner = person("owner")
    poller, streamer = bot_account(owner, "poller"), bot_account(owner, "streamer")
    players = [
        bots.start(poller, random_choice, poll=True, poll_interval=0.1),
        bots.start(streamer, random_choice),
    ]

    # when: the owner challenges both
    match = challenge(owner, poller, streamer)

    # then: both accept and play the match to its end, and the polling bot heard it as the stream tells
    bots.wait_for(finished(match))
    bots.wait_for(lambda: all(bot.saw("match_finished", match.pk) for bot in players))
    assert [e["type"] for e in players[0].events if e.get("type") != "your_turn"] == [
        "challenge",
        "match_started",
        "match_finished",
    ]
    lines = [r.getMessage() for r in caplog.records if r.name == "client.tute_client"]
    for wanted in (
        f"accepted the challenge to match {match.pk}",
        f"match {match.pk} started",
        f"match {match.pk} finished",
    ):
        assert sum(line.startswith(wanted) for line in lines) == 2, (wanted, lines)  # one per bot


def test_switching_auto_accept_on_accepts_the_challenge_already_waiting(
    person: MakePerson, bot_account: MakeBot
) -> None:
    """Before the fix auto-accept acted only on later challenges: this one stayed pending."""
    # given: a challenge one bot accepted and the other has not answered
    owner = person("owner")
    early, late = bot_account(owner, "early"), bot_account(owner, "late")
    match = challenge(owner, early, late)
    early.client.accept(match.pk)
    assert owner.client.match(match.pk)["status"] == "open"

    # when: the owner switches the other's auto-accept on
    owner.client.set_auto_accept(late.handle, True)

    # then: its waiting challenge is accepted, and the match is under way
    answer = owner.client.match(match.pk)
    assert answer["status"] == "in_progress" and [s["accepted"] for s in answer["seats"]] == [True, True]


def test_run_bot_reconnects_after_a_dropped_stream_and_gets_the_pending_turn_again(
    person: MakePerson, bot_account: MakeBot, bots: Bots, server: str
) -> None:
    # given: a bot whose first stream connection drops just as its first turn arrives
    owner = person("owner")
    east, west = bot_account(owner, "east"), bot_account(owner, "west")
    dropped: list[Event] = []

    class DroppingClient(TuteClient):
        def events(self, max_seconds: float | None = None) -> Generator[Event, None, None]:
            for event in super().events(max_seconds):
                if event["type"] == "your_turn" and not dropped:
                    dropped.append(event)
                    raise TransportError("connection reset (simulated)")
                yield event

    flaky = DroppingClient(server, east.client.token)
    players = [bots.start(east, random_choice, client=flaky), bots.start(west, random_choice)]

    # when: they are challenged to a match
    match = challenge(owner, east, west)

    # then: the bot reconnects, hears of the turn it lost again, and the match is played out
    bots.wait_for(finished(match))
    assert dropped
    lost = dropped[0]
    again = [e for e in players[0].saw("your_turn", match.pk) if e["ply"] == lost["ply"]]
    assert again and again[0]["legal"] == lost["legal"]
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert not Action.objects.filter(match=match).exclude(kind=Action.Kind.MOVE).exists()


def test_errors_carry_the_apis_status_code_message_and_detail(
    person: MakePerson, bot_account: MakeBot, server: str
) -> None:
    # given: a started match where `first` is to act
    owner = person("owner")
    match, first, second = started(owner, bot_account(owner, "one"), bot_account(owner, "two"))
    view = first.client.view(match.pk)
    legal = view["legal"]
    deck = [f"{rank}{suit}" for suit in "OCEB" for rank in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)]
    illegal = next(f"play:{card}" for card in deck if card not in view["view"]["hand"])

    # then: an illegal action is a 422 with the engine's reason and the legal codes
    with pytest.raises(ApiError) as refused:
        first.client.act(match.pk, illegal, view["ply"])
    assert (refused.value.status, refused.value.code) == (422, "illegal_action")
    assert refused.value.detail["reason"] and refused.value.detail["legal"] == legal
    assert refused.value.message

    # and: a stale ply is a 409 naming the current ply; acting out of turn a 409 too
    with pytest.raises(ApiError) as stale:
        first.client.act(match.pk, legal[0], view["ply"] + 5)
    assert (stale.value.status, stale.value.code, stale.value.detail) == (
        409,
        "stale_ply",
        {"ply": view["ply"]},
    )
    with pytest.raises(ApiError) as not_yours:
        second.client.act(match.pk, legal[0], view["ply"])
    assert (not_yours.value.status, not_yours.value.code) == (409, "not_your_turn")

    # and: no seat, no match, no valid token
    with pytest.raises(ApiError) as not_seated:
        owner.client.act(match.pk, legal[0], view["ply"])
    assert (not_seated.value.status, not_seated.value.code) == (403, "not_seated")
    with pytest.raises(ApiError) as missing:
        first.client.match(match.pk + 1000)
    assert (missing.value.status, missing.value.code) == (404, "match_not_found")
    with pytest.raises(ApiError) as unknown:
        TuteClient(server, "not-a-token").me()
    assert (unknown.value.status, unknown.value.code) == (401, "authentication_failed")

    # and: nothing was applied
    match.refresh_from_db()
    assert match.ply == view["ply"]


def test_a_throttled_answer_says_when_to_retry(person: MakePerson, monkeypatch: pytest.MonkeyPatch) -> None:
    # given: a limit of two requests a minute per account
    alice = person("alice")
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", {"user": "2/min", "address": "1000/min"})

    # when: a third request comes within the minute
    alice.client.me()
    alice.client.me()
    with pytest.raises(ApiError) as throttled:
        alice.client.me()

    # then: 429 with the seconds to wait
    assert (throttled.value.status, throttled.value.code) == (429, "throttled")
    assert throttled.value.retry_after is not None and 0 < throttled.value.retry_after <= 60


def test_act_after_a_lost_answer_sends_the_same_key_again_and_applies_once(
    person: MakePerson, bot_account: MakeBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    # given: a started match, and a connection that loses the answer to the first action request
    owner = person("owner")
    match, first, _ = started(owner, bot_account(owner, "one"), bot_account(owner, "two"))
    view = first.client.view(match.pk)
    client = first.client
    real_open = client._opener.open
    sent: list[dict[str, str]] = []

    def lossy_open(request: Any, *args: Any, **kwargs: Any) -> Any:
        answer = real_open(request, *args, **kwargs)
        if request.get_method() == "POST":
            sent.append(dict(request.header_items()))
            if len(sent) == 1:
                answer.close()
                raise ConnectionResetError("connection reset by peer (simulated)")
        return answer

    monkeypatch.setattr(client._opener, "open", lossy_open)
    client.retry_delay = 0.01

    # when: the bot acts
    answer = client.act(match.pk, view["legal"][0], view["ply"])

    # then: the request went twice with one idempotency key, and the action was applied once
    assert len(sent) == 2
    keys = {headers["Idempotency-key"] for headers in sent}
    assert len(keys) == 1 and len(keys.pop()) == 32
    assert answer["ply"] == view["ply"] + 1
    match.refresh_from_db()
    assert match.ply == view["ply"] + 1
    assert Action.objects.filter(match=match).count() == 1


def test_act_gives_up_with_a_transport_error_when_the_server_is_gone() -> None:
    # given: nothing listens on the port
    client = TuteClient("http://127.0.0.1:9", "token", timeout=2, retries=2, retry_delay=0.01)

    # then: after its retries, act raises a TransportError
    with pytest.raises(TransportError):
        client.act(1, "play:1O", 0)


def test_challenges_are_accepted_declined_or_taken_automatically(
    person: MakePerson, bot_account: MakeBot
) -> None:
    # given: a match that challenges two bots
    owner = person("owner")
    ann, bob = bot_account(owner, "ann"), bot_account(owner, "bob")
    created = owner.client.create_match("tute2", seats=[{"player": ann.handle}, {"player": bob.handle}])
    assert created["status"] == "open" and [s["accepted"] for s in created["seats"]] == [False, False]

    # when: one accepts and the other declines with a reason
    after_accept = ann.client.accept(created["id"])
    after_decline = bob.client.decline(created["id"], "busy today")

    # then: the seats say so, and the declined seat is empty and open again
    assert after_accept["seats"][0]["accepted"] is True
    seat = after_decline["seats"][1]
    assert seat["player"] is None and seat["decline_reason"] == "busy today"
    assert owner.client.match(created["id"])["status"] == "open"
    with pytest.raises(ApiError) as again:
        bob.client.accept(created["id"])
    assert again.value.status == 403

    # when: the owner sets bob to accept automatically and challenges both again
    assert owner.client.set_auto_accept(bob.handle, True)["auto_accept"] is True
    owner.client.set_auto_accept(ann.handle, True)
    rematch = owner.client.create_match("tute2", seats=[{"player": ann.handle}, {"player": bob.handle}])

    # then: the match starts at once
    assert rematch["status"] == "in_progress"
    assert [s["accepted"] for s in rematch["seats"]] == [True, True]


def test_my_turns_lists_the_matches_waiting_for_the_caller(person: MakePerson, bot_account: MakeBot) -> None:
    # given: a started match where `first` is to act
    owner = person("owner")
    match, first, second = started(owner, bot_account(owner, "one"), bot_account(owner, "two"))

    # then: polling finds the turn for `first` only
    turns = first.client.my_turns()
    assert [(t["match"], t["ply"]) for t in turns] == [(match.pk, 0)]
    assert second.client.my_turns() == []

    # when: `first` plays until the turn passes to `second`
    ply = 0
    while first.client.my_turns():
        view = first.client.view(match.pk)
        first.client.act(match.pk, view["legal"][0], view["ply"])
        ply = view["ply"] + 1

    # then: it is on `second`'s list at the match's ply
    assert [(t["match"], t["ply"]) for t in second.client.my_turns()] == [(match.pk, ply)]


def test_the_event_stream_raises_api_error_for_a_bad_token(server: str) -> None:
    events = TuteClient(server, "not-a-token").events(max_seconds=1)

    with pytest.raises(ApiError) as refused:
        next(events)

    assert refused.value.status == 401


def test_the_event_stream_says_hello_and_bye(person: MakePerson) -> None:
    alice = person("alice")

    events = list(alice.client.events(max_seconds=1))

    assert events[0] == {"type": "hello", "player": alice.handle, "keepalive": 15.0}
    assert events[-1] == {"type": "bye", "reason": "max_seconds"}


def test_the_event_stream_reports_a_match_that_ends_while_connected(
    person: MakePerson, bot_account: MakeBot
) -> None:
    # given: a started match, and the stream of the bot that is not to act
    owner = person("owner")
    match, first, second = started(owner, bot_account(owner, "one"), bot_account(owner, "two"))
    events = second.client.events(max_seconds=5)
    assert next(events)["type"] == "hello"

    # when: the other bot resigns
    first.client.resign(match.pk)

    # then: the stream tells of the start (on connecting) and of the end
    heard = []
    for event in events:
        heard.append(event)
        if event["type"] in ("match_finished", "bye"):
            break
    events.close()
    assert next(e["type"] for e in heard if e["type"] != "keepalive") == "match_started"
    end = heard[-1]
    assert end["type"] == "match_finished" and end["match"] == match.pk
    assert (end["status"], end["reason"]) == ("finished", "resigned")
    assert end["result"]["conceded_by"] == match.seats.get(player=first.player).index


def test_the_example_bot_has_at_most_40_lines() -> None:
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()

    assert len(lines) <= 40


def test_the_example_bot_plays_a_match(
    person: MakePerson, bot_account: MakeBot, bots: Bots, server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from client.examples import random_bot

    # given: the example bot started from its environment, and a second bot
    owner = person("owner")
    example, other = bot_account(owner, "example"), bot_account(owner, "other")
    monkeypatch.setenv("TUTE_URL", server)
    monkeypatch.setenv("TUTE_TOKEN", example.client.token or "")
    players = [bots.start(example, random_choice, target=random_bot.main), bots.start(other, random_choice)]

    # when: both are challenged
    match = challenge(owner, example, other)

    # then: the example accepts and plays legal moves until the match is over
    bots.wait_for(finished(match))
    assert players[0].saw("challenge", match.pk) and players[0].saw("your_turn", match.pk)
    assert Action.objects.filter(match=match, player=example.player, kind=Action.Kind.MOVE).exists()


def test_the_example_bot_runs_as_a_module_and_stops_on_a_bad_token(server: str) -> None:
    env = {k: v for k, v in os.environ.items() if k not in {"TUTE_TOKEN", "DJANGO_SETTINGS_MODULE"}}

    missing = subprocess.run(
        [sys.executable, "-m", "client.examples.random_bot"],
        cwd=PROJECT_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    refused = subprocess.run(
        [sys.executable, "-m", "client.examples.random_bot"],
        cwd=PROJECT_DIR,
        env={**env, "TUTE_URL": server, "TUTE_TOKEN": "not-a-token"},
        capture_output=True,
        text=True,
        timeout=60,
    )

    assert missing.returncode != 0 and "TUTE_TOKEN" in missing.stderr
    assert refused.returncode != 0 and "401 authentication_failed" in refused.stderr
    # one line, no traceback
    assert "Traceback" not in refused.stderr and len(refused.stderr.strip().splitlines()) == 1


def test_the_example_bot_says_in_one_line_that_the_server_is_unreachable() -> None:
    import socket

    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    down = subprocess.run(
        [sys.executable, "-m", "client.examples.random_bot"],
        cwd=PROJECT_DIR,
        env={**env, "TUTE_URL": f"http://127.0.0.1:{port}", "TUTE_TOKEN": "x"},
        capture_output=True,
        text=True,
        timeout=60,
    )

    assert down.returncode == 1 and "Traceback" not in down.stderr
    assert down.stderr.startswith("error: cannot reach") and len(down.stderr.strip().splitlines()) == 1
