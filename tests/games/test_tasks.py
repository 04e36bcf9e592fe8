"""The games Celery tasks (issue 4): names and options, idempotence, queued only after commit.

The tasks run here in this process, called like functions; tests/games/test_workers.py runs them in a
real worker.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import OperationalError
from kombu.exceptions import OperationalError as KombuOperationalError
from rest_framework.test import APIClient

from games.models import Action, Match, Player
from games.services import (
    SeatSpec,
    action_submit,
    match_abort,
    match_create,
    match_spec,
    player_for_user,
    seat_join,
    token_create,
)
from games.tasks import bot_play_turn, sweep_overdue_turns
from tute_site.celery import app


@pytest.fixture
def person(db: None) -> Player:
    return player_for_user(user=User.objects.create_user(username="person"))


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch, settings: Any) -> list[tuple[str, list[Any]]]:
    """Tasks this process publishes, by name and arguments, instead of sending them to a broker."""
    settings.TUTE_EVENTS_URL = ""  # no stream wake-ups either
    messages: list[tuple[str, list[Any]]] = []

    def send_task(name: str, args: Any = None, kwargs: Any = None, **options: Any) -> None:
        messages.append((name, list(args or ())))

    monkeypatch.setattr(app, "send_task", send_task)
    return messages


def bot_to_act(person: Player) -> Match:
    """Tute 2, the person at seat 0 (the dealer) and a rule house bot at seat 1, which leads at ply 0."""
    return match_create(
        spec=match_spec(
            created_by=person, game="tute2", seats=[SeatSpec(player=person.handle), SeatSpec(bot="rule")]
        )
    )


# -- names and options ----------------------------------------------------------------------------------


def test_the_tasks_have_explicit_names_and_time_limits() -> None:
    # then: both are registered under their names, acknowledged late, with a soft limit under the hard one
    turn = app.tasks["games.bot_play_turn"]
    sweep = app.tasks["games.sweep_overdue_turns"]
    assert turn.name == bot_play_turn.name == "games.bot_play_turn"
    assert sweep.name == sweep_overdue_turns.name == "games.sweep_overdue_turns"
    for task in (turn, sweep):
        assert task.acks_late is True
        assert task.soft_time_limit is not None and task.time_limit is not None
        assert 0 < task.soft_time_limit < task.time_limit
    assert (turn.soft_time_limit, turn.time_limit) == (10, 20)
    assert (sweep.soft_time_limit, sweep.time_limit) == (50, 60)
    # a database that is briefly away is retried, not a lost turn
    assert OperationalError in getattr(turn, "autoretry_for", ())
    # both can be queued on commit (Celery's Django task class)
    assert callable(getattr(turn, "delay_on_commit", None))


def test_the_worker_settings_keep_a_message_until_its_task_is_done() -> None:
    # then: one message at a time per worker process, acknowledged after the task, returned if it dies
    assert app.conf.task_acks_late is True
    assert app.conf.task_reject_on_worker_lost is True
    assert app.conf.worker_prefetch_multiplier == 1
    assert app.conf.task_serializer == "json"


def test_beat_runs_the_sweeper_by_its_name() -> None:
    # then: the schedule names a registered task, often, and a sweep expires before two more are due
    entry = app.conf.beat_schedule["sweep-overdue-turns"]
    assert entry["task"] == "games.sweep_overdue_turns"
    assert entry["task"] in app.tasks
    seconds = float(entry["schedule"])
    assert 0 < seconds <= 60
    assert entry["options"]["expires"] <= 2 * seconds


# -- bot_play_turn --------------------------------------------------------------------------------------


def test_a_bot_turn_plays_the_house_bots_move(person: Player, sent: list[tuple[str, list[Any]]]) -> None:
    # given: the house bot is to act at ply 0
    match = bot_to_act(person)

    # when
    assert bot_play_turn(match.pk, 0) is None

    # then: its move is recorded as a house bot's
    action = Action.objects.get(match=match, ply=0)
    assert (action.seat, action.kind, action.player_id) == (1, Action.Kind.HOUSE_BOT, None)
    match.refresh_from_db()
    assert match.ply == 1


def test_a_bot_turn_delivered_twice_plays_once(person: Player, sent: list[tuple[str, list[Any]]]) -> None:
    # given: the house bot is to act at ply 0
    match = bot_to_act(person)

    # when: the task for ply 0 runs twice
    bot_play_turn(match.pk, 0)
    after_first = Match.objects.get(pk=match.pk)
    bot_play_turn(match.pk, 0)

    # then: one action for ply 0, and the second run changed nothing
    assert Action.objects.filter(match=match, ply=0).count() == 1
    after_second = Match.objects.get(pk=match.pk)
    assert (after_second.ply, after_second.turn_seat) == (after_first.ply, after_first.turn_seat)
    assert Action.objects.filter(match=match).count() == after_first.ply


@pytest.mark.parametrize(
    "moved_on",
    [
        pytest.param(lambda match, person: bot_play_turn(match.pk, 0), id="ply-played-already"),
        pytest.param(lambda match, person: match_abort(match_id=match.pk, by=person), id="match-aborted"),
    ],
)
def test_a_bot_turn_is_a_no_op_when_the_match_moved_on(
    person: Player, sent: list[tuple[str, list[Any]]], moved_on: Callable[[Match, Player], object]
) -> None:
    # given: the bot's turn at ply 0 was queued, then the match moved on
    match = bot_to_act(person)
    moved_on(match, person)
    before = Match.objects.get(pk=match.pk)
    actions = list(Action.objects.filter(match=match).values_list("ply", "code"))

    # when: the stale task runs
    assert bot_play_turn(match.pk, 0) is None

    # then: nothing changed
    after = Match.objects.get(pk=match.pk)
    assert (after.ply, after.status, after.turn_seat) == (before.ply, before.status, before.turn_seat)
    assert list(Action.objects.filter(match=match).values_list("ply", "code")) == actions


def test_a_bot_turn_is_a_no_op_on_a_persons_turn(person: Player, sent: list[tuple[str, list[Any]]]) -> None:
    # given: a match of two people; nobody's turn belongs to a house bot
    other = player_for_user(user=User.objects.create_user(username="other"))
    match = match_create(spec=match_spec(created_by=person, game="tute2"))
    match = seat_join(match_id=match.pk, player=other)
    assert match.status == Match.Status.IN_PROGRESS

    # when: a (forged or stale) bot task for the current ply runs
    assert bot_play_turn(match.pk, match.ply) is None

    # then: nothing was played
    assert not Action.objects.filter(match=match).exists()
    assert sent == [], "no house bot's turn was queued"


# -- queued only after commit ---------------------------------------------------------------------------


def test_a_house_bots_turn_is_queued_only_when_the_transaction_commits(
    person: Player,
    sent: list[tuple[str, list[Any]]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    # when: a match starts with the house bot to act
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        match = bot_to_act(person)
        # then: nothing is on the broker while the transaction is open
        assert sent == []

    # then: once it commits, one task for the bot's turn, by ids and the expected ply
    assert callbacks, "the task is sent from an on_commit callback"
    assert sent == [("games.bot_play_turn", [match.pk, 0])]


def test_a_task_is_queued_exactly_when_the_turn_passes_to_a_house_bot(
    person: Player, sent: list[tuple[str, list[Any]]], django_capture_on_commit_callbacks: Any
) -> None:
    # given: Tute 4, the person at seat 0 and house bots at 1 to 3 (whoever holds the 2 of oros leads)
    match = match_create(
        spec=match_spec(
            created_by=person,
            game="tute4",
            seats=[
                SeatSpec(player=person.handle),
                SeatSpec(bot="rule"),
                SeatSpec(bot="random"),
                SeatSpec(bot="rule"),
            ],
        )
    )
    bot_moves = 0
    for _ in range(12):  # three tricks
        match.refresh_from_db()
        before = len(sent)

        # when: whoever is to act moves, the house bots through their task
        with django_capture_on_commit_callbacks(execute=True):
            if match.turn_seat == 0:
                action_submit(
                    match_id=match.pk, player=person, code=_legal_for(match, seat=0)[0], ply=match.ply
                )
            else:
                bot_play_turn(match.pk, match.ply)
                bot_moves += 1

        # then: one task, for the new ply, when a house bot is to act next; none when the person is
        match.refresh_from_db()
        expected = [] if match.turn_seat == 0 else [("games.bot_play_turn", [match.pk, match.ply])]
        assert sent[before:] == expected, f"after ply {match.ply - 1}"
    assert bot_moves >= 6


def _legal_for(match: Match, *, seat: int) -> tuple[str, ...]:
    from games.states import game_state
    from tests.factories import current_game

    game = current_game(match)
    assert game is not None
    state = game_state(match=match, game=game)
    assert state.current_player() == seat
    return state.legal_actions()


# -- sweep_overdue_turns (tests/games/test_clocks.py tests what a sweep does to each turn) ------------


def test_the_sweep_goes_on_past_a_match_that_fails(
    person: Player, sent: list[tuple[str, list[Any]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    import games.tasks

    # given: two overdue turns, the first of which fails
    monkeypatch.setattr(games.tasks, "overdue_turns", lambda: [(101, 0), (102, 3)])
    seen: list[tuple[int, int]] = []

    def turn_timeout(*, match_id: int, ply: int) -> None:
        seen.append((match_id, ply))
        if match_id == 101:
            raise RuntimeError("a broken match")

    monkeypatch.setattr(games.tasks, "turn_timeout", turn_timeout)

    # when
    handled = sweep_overdue_turns()

    # then: both were tried; one counted as handled
    assert seen == [(101, 0), (102, 3)]
    assert handled == 1


# -- a broker outage after commit: the move stands, the sweeper re-queues the bot's turn ------------------


@pytest.mark.django_db(transaction=True)
def test_a_broker_outage_does_not_fail_a_committed_move(
    monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    # given: a person (seat 1, to act first) against a house bot, and a broker that is down
    settings.TUTE_EVENTS_URL = ""
    user = User.objects.create_user(username="person")
    person = player_for_user(user=user)
    match = match_create(
        spec=match_spec(
            created_by=person, game="tute2", seats=[SeatSpec(bot="rule"), SeatSpec(player=person.handle)]
        )
    )

    def broker_down(*args: Any, **kwargs: Any) -> None:
        raise KombuOperationalError("the broker is down")

    monkeypatch.setattr(app, "send_task", broker_down)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_create(user=user)}")

    # when: the person's move makes it the house bot's turn, whose task cannot be sent
    code = _legal_for(match, seat=1)[0]
    response = client.post(f"/api/v1/matches/{match.pk}/actions/", {"action": code, "ply": 0}, format="json")

    # then: the move was applied and is answered as such; the sweeper re-queues the bot's turn later
    assert response.status_code == 200
    assert Action.objects.filter(match=match, ply=0, code=code).exists()


# -- after a broker outage or a worker restart (issue 14) --------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_waiting_house_bot_turns_are_queued_again_and_played_once(
    person: Player, sent: list[tuple[str, list[Any]]]
) -> None:
    # given: a house bot to act (its task sent, then lost), and a match where the person is to act
    waiting = bot_to_act(person)
    other = player_for_user(user=User.objects.create_user(username="other"))
    persons_turn = match_create(
        spec=match_spec(
            created_by=other, game="tute2", seats=[SeatSpec(bot="rule"), SeatSpec(player=other.handle)]
        )
    )
    persons_turn.refresh_from_db()
    assert persons_turn.turn_seat == 1  # the seat after the dealer leads: the person
    sent.clear()

    # when: a worker connects and sends the re-queue task
    from games.tasks import requeue_house_bot_turns

    assert requeue_house_bot_turns() == 1

    # then: only the house bot's waiting turn is queued again
    assert sent == [("games.bot_play_turn", [waiting.pk, 0])]

    # and: played twice (the lost message comes back later), it is recorded once
    bot_play_turn(waiting.pk, 0)
    bot_play_turn(waiting.pk, 0)
    assert Action.objects.filter(match=waiting).count() == 1


def test_a_worker_sends_the_requeue_each_time_it_connects() -> None:
    from tute_site.celery import RequeueOnConnect

    assert RequeueOnConnect in app.steps["consumer"]
    assert app.tasks["games.requeue_house_bot_turns"].acks_late is True
