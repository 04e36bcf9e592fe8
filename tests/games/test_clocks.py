"""Clocks (issue 4): a seat past its deadline gets the rule bot's move, recorded as a timeout; at its
``max_timeouts``-th the seat forfeits; a lost house-bot turn is queued again. No worker: the services and
the sweeper's task are called here, and time passes by moving ``turn_deadline`` into the past.
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

import games.services.common
import games.tasks
from games.models import Action, Game, Match, Player, Seat
from games.services import (
    Clock,
    SeatSpec,
    action_submit,
    bot_create,
    bot_turn_play,
    house_bot_action,
    match_create,
    match_spec,
    overdue_turns,
    player_for_user,
    turn_timeout,
)
from games.services.common import HOUSE_BOT_GRACE_SECONDS
from games.states import game_state
from games.tasks import sweep_overdue_turns
from tests.factories import current_game


class QueuedTurns:
    """Stands in for ``games.tasks.bot_play_turn``: records the house-bot turns queued, sends nothing."""

    def __init__(self) -> None:
        self.turns: list[tuple[int, int]] = []

    def delay(self, match_id: int, ply: int, **options: Any) -> None:
        self.turns.append((match_id, ply))

    def apply_async(self, args: tuple[int, int], **options: Any) -> None:
        self.delay(*args)


@pytest.fixture
def queued(monkeypatch: pytest.MonkeyPatch, settings: Any) -> QueuedTurns:
    settings.TUTE_EVENTS_URL = ""
    fake = QueuedTurns()
    monkeypatch.setattr(games.tasks, "bot_play_turn", fake)
    # Queued at once rather than on commit: these tests run inside a transaction that never commits.
    monkeypatch.setattr(games.services.common, "queue_house_bot", fake.delay)
    return fake


def person(name: str) -> Player:
    return player_for_user(user=User.objects.create_user(username=name))


def two_people(clock: Clock | None = None) -> tuple[Match, Player, Player]:
    """Tute 2 between two people; seat 0 deals, so seat 1 is to act at ply 0."""
    first, second = person("first"), person("second")
    Player.objects.filter(pk=second.pk).update(auto_accept=True)
    match = match_create(
        spec=match_spec(
            created_by=first,
            game="tute2",
            seats=[SeatSpec(player=first.handle), SeatSpec(player=second.handle)],
            clock=clock,
        )
    )
    match.refresh_from_db()
    assert match.status == Match.Status.IN_PROGRESS
    return match, first, second


def overdue(match: Match) -> None:
    """Time passes: the turn's deadline is a second ago."""
    Match.objects.filter(pk=match.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))


def state_of(match: Match) -> Any:
    game = current_game(match)
    assert game is not None
    return game, game_state(match=match, game=game)


def play_until_turn_of(match: Match, seat: int, rng: random.Random) -> Match:
    """Others play (people a random legal move, house bots their own) until ``seat`` is to act."""
    for _ in range(200):
        match.refresh_from_db()
        if match.status != Match.Status.IN_PROGRESS or match.turn_seat == seat:
            return match
        assert match.turn_seat is not None
        to_act = Seat.objects.select_related("player").get(match=match, index=match.turn_seat)
        if to_act.bot_level:
            bot_turn_play(match_id=match.pk, ply=match.ply)
        else:
            assert to_act.player is not None
            _, state = state_of(match)
            code = rng.choice(state.legal_actions())
            action_submit(match_id=match.pk, player=to_act.player, code=code, ply=match.ply)
    raise AssertionError(f"seat {seat} never came to act")


def test_an_overdue_seat_gets_the_rule_bots_move_recorded_as_a_timeout(db: None, queued: QueuedTurns) -> None:
    # given: seat 1's turn at ply 0, past its deadline
    match, _, _ = two_people(Clock(human_move_seconds=60, max_timeouts=3))
    game, state = state_of(match)
    expected = house_bot_action("rule", state, 1, seed=f"{game.seed}:0")
    overdue(match)
    assert overdue_turns() == [(match.pk, 0)]

    # when: the sweeper's service runs
    applied = turn_timeout(match_id=match.pk, ply=0)

    # then: the rule bot's move for that seat, recorded as a timeout, and the seat's count goes up
    assert applied is not None and applied.ply == 0
    action = Action.objects.get(match=match, ply=0)
    assert (action.seat, action.code, action.kind, action.player_id) == (
        1,
        expected,
        Action.Kind.TIMEOUT,
        None,
    )
    assert Seat.objects.get(match=match, index=1).timeouts == 1
    assert Seat.objects.get(match=match, index=0).timeouts == 0
    match.refresh_from_db()
    assert (match.status, match.ply) == (Match.Status.IN_PROGRESS, 1)
    # and: the next turn has a fresh deadline of its own
    assert match.turn_seat is not None and match.turn_deadline is not None
    left = (match.turn_deadline - timezone.now()).total_seconds()
    assert 50 < left <= 60
    assert overdue_turns() == []
    assert queued.turns == [], "no house bot in this match"


@pytest.mark.parametrize(
    ("game", "seats", "offender", "winners"),
    [
        pytest.param("tute2", None, 1, [0], id="tute2"),
        pytest.param("tute4", ["rule", None, "random", "rule"], 1, [0], id="tute4-the-pair-loses"),
    ],
)
def test_the_seat_forfeits_at_its_max_timeouts(
    db: None,
    queued: QueuedTurns,
    game: str,
    seats: list[str | None] | None,
    offender: int,
    winners: list[int],
) -> None:
    # given: a match whose max_timeouts is 2; the offender lets its clock run out at each of its turns
    clock = Clock(human_move_seconds=30, max_timeouts=2)
    if seats is None:
        match, _, _ = two_people(clock)
    else:
        someone = person("someone")
        specs = [SeatSpec(player=someone.handle) if s is None else SeatSpec(bot=s) for s in seats]
        match = match_create(spec=match_spec(created_by=someone, game=game, seats=specs, clock=clock))
    rng = random.Random(1)

    # when: its first timeout
    match = play_until_turn_of(match, offender, rng)
    overdue(match)
    assert turn_timeout(match_id=match.pk, ply=match.ply) is not None

    # then: the match goes on
    match.refresh_from_db()
    assert match.status == Match.Status.IN_PROGRESS
    assert Seat.objects.get(match=match, index=offender).timeouts == 1

    # when: its second timeout
    match = play_until_turn_of(match, offender, rng)
    assert match.status == Match.Status.IN_PROGRESS
    ply = match.ply
    overdue(match)
    assert turn_timeout(match_id=match.pk, ply=ply) is not None

    # then: the timeout's move is recorded, and the seat's side forfeits: the other side wins
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.finish_reason == "forfeit"
    assert match.result is not None
    assert match.result["winners"] == winners
    assert match.result["conceded_by"] == offender
    assert (match.turn_seat, match.turn_deadline) == (None, None)
    assert Seat.objects.get(match=match, index=offender).timeouts == 2
    timeouts = Action.objects.filter(match=match, kind=Action.Kind.TIMEOUT)
    assert timeouts.count() == 2 and {a.seat for a in timeouts} == {offender}
    assert Action.objects.filter(match=match, ply=ply, kind=Action.Kind.TIMEOUT).exists()
    assert not Game.objects.filter(match=match, status=Game.Status.IN_PROGRESS).exists()


def test_a_turn_not_yet_overdue_is_left_alone(db: None, queued: QueuedTurns) -> None:
    # given: seat 1's turn, its deadline a minute away
    match, _, _ = two_people(Clock(human_move_seconds=60))
    deadline = match.turn_deadline

    # when: the service runs anyway (a sweep racing a fresh turn)
    assert turn_timeout(match_id=match.pk, ply=0) is None

    # then: nothing was played, counted or moved
    assert overdue_turns() == []
    assert not Action.objects.filter(match=match).exists()
    assert not Seat.objects.filter(match=match, timeouts__gt=0).exists()
    match.refresh_from_db()
    assert (match.ply, match.turn_deadline) == (0, deadline)


def test_a_stale_ply_is_a_no_op(db: None, queued: QueuedTurns) -> None:
    # given: seat 1 played at ply 0 in time; seat 0's turn at ply 1 is overdue
    match, _, second = two_people()
    _, state = state_of(match)
    action_submit(match_id=match.pk, player=second, code=state.legal_actions()[0], ply=0)
    overdue(match)

    # when: a sweep that read the match at ply 0 times that turn out
    assert turn_timeout(match_id=match.pk, ply=0) is None

    # then: nothing happened to ply 1's turn
    assert list(Action.objects.filter(match=match).values_list("ply", "kind")) == [(0, Action.Kind.MOVE)]
    assert not Seat.objects.filter(match=match, timeouts__gt=0).exists()
    match.refresh_from_db()
    assert match.ply == 1


def test_a_finished_match_is_not_timed_out(db: None, queued: QueuedTurns) -> None:
    # given: a match that was resigned
    from games.services import match_resign

    match, first, _ = two_people()
    match_resign(match_id=match.pk, player=first)

    # when
    assert turn_timeout(match_id=match.pk, ply=0) is None

    # then
    assert not Action.objects.filter(match=match).exists()
    assert overdue_turns() == []


def test_an_overdue_house_bot_turn_is_queued_again(db: None, queued: QueuedTurns) -> None:
    # given: a house bot to act at ply 0, whose task was queued and then lost
    someone = person("someone")
    match = match_create(
        spec=match_spec(
            created_by=someone, game="tute2", seats=[SeatSpec(player=someone.handle), SeatSpec(bot="rule")]
        )
    )
    assert queued.turns == [(match.pk, 0)]
    overdue(match)

    # when: the sweeper's service runs
    assert turn_timeout(match_id=match.pk, ply=0) is None

    # then: the same turn is queued again with a new grace period; no move, no timeout counted
    assert queued.turns == [(match.pk, 0), (match.pk, 0)]
    assert not Action.objects.filter(match=match).exists()
    assert Seat.objects.get(match=match, index=1).timeouts == 0
    match.refresh_from_db()
    assert (match.ply, match.turn_seat) == (0, 1)
    assert match.turn_deadline is not None
    left = (match.turn_deadline - timezone.now()).total_seconds()
    assert HOUSE_BOT_GRACE_SECONDS - 10 < left <= HOUSE_BOT_GRACE_SECONDS


def test_a_requeued_house_bot_turn_is_sent_when_the_sweep_commits(
    db: None, settings: Any, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    from tute_site.celery import app

    # given: the real task, whose messages are caught on their way to the broker
    settings.TUTE_EVENTS_URL = ""
    sent: list[tuple[str, list[Any]]] = []
    monkeypatch.setattr(
        app, "send_task", lambda name, args=None, *more, **kw: sent.append((name, list(args)))
    )
    someone = person("someone")
    match = match_create(
        spec=match_spec(
            created_by=someone, game="tute2", seats=[SeatSpec(player=someone.handle), SeatSpec(bot="rule")]
        )
    )
    overdue(match)

    # when: the sweep runs (as celery beat would run it)
    with django_capture_on_commit_callbacks(execute=True):
        handled = sweep_overdue_turns()
        assert sent == [], "nothing is sent before the sweep's transaction commits"

    # then: the bot's turn was queued again, once
    assert handled == 1
    assert sent == [("games.bot_play_turn", [match.pk, 0])]


def test_the_sweep_times_out_people_requeues_bots_and_leaves_the_rest(db: None, queued: QueuedTurns) -> None:
    # given: an overdue person's turn, an overdue house bot's turn, and a turn still in time
    late_person, _, _ = two_people()
    overdue(late_person)
    someone = person("someone")
    late_bot = match_create(
        spec=match_spec(
            created_by=someone, game="tute2", seats=[SeatSpec(player=someone.handle), SeatSpec(bot="random")]
        )
    )
    overdue(late_bot)
    owner = person("owner")
    in_time = match_create(
        spec=match_spec(
            created_by=owner, game="tute2", seats=[SeatSpec(bot="rule"), SeatSpec(player=owner.handle)]
        )
    )
    queued.turns.clear()

    # when
    handled = sweep_overdue_turns()

    # then
    assert handled == 2
    assert list(Action.objects.filter(match=late_person).values_list("ply", "kind")) == [
        (0, Action.Kind.TIMEOUT)
    ]
    assert queued.turns == [(late_bot.pk, 0)]
    assert not Action.objects.filter(match__in=[late_bot, in_time]).exists()
    assert overdue_turns() == []


def test_each_kind_of_seat_gets_its_own_time_per_move(db: None, queued: QueuedTurns) -> None:
    # given: a match setting of 100 s for people and 20 s for bot accounts
    owner = person("owner")
    bot, _ = bot_create(owner=owner.user, handle="quick")
    Player.objects.filter(pk=bot.pk).update(auto_accept=True)
    clock = Clock(human_move_seconds=100, bot_move_seconds=20)

    def seconds_left(seats: list[SeatSpec]) -> float:
        match = match_create(spec=match_spec(created_by=owner, game="tute2", seats=seats, clock=clock))
        match.refresh_from_db()
        assert match.turn_seat == 1 and match.turn_deadline is not None
        return (match.turn_deadline - timezone.now()).total_seconds()

    # then: seat 1 acts first, with the time of its kind
    assert 90 < seconds_left([SeatSpec(bot="rule"), SeatSpec(player=owner.handle)]) <= 100
    assert 10 < seconds_left([SeatSpec(player=owner.handle), SeatSpec(player="quick")]) <= 20
    grace = seconds_left([SeatSpec(player=owner.handle), SeatSpec(bot="rule")])
    assert HOUSE_BOT_GRACE_SECONDS - 10 < grace <= HOUSE_BOT_GRACE_SECONDS
