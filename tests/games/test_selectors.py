"""games/selectors.py: a match's context and the views read from it."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from games import states
from games.errors import MatchNotFound
from games.models import Game, Match, Player, Seat
from games.selectors import match_context, match_detail, match_view_for
from games.services import SeatSpec, match_create, match_spec
from games.services.play import Applied
from games.states import game_state
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("game", ["tute2", "tute4", "pocha"])
def test_a_context_holds_the_match_its_seats_its_current_game_and_its_state(
    game: str, started_match: Callable[..., Match], play_moves: Callable[..., Any]
) -> None:
    # given: a match some moves in
    match = started_match(game, format=Match.Format.BEST_OF, games=3)
    play_moves(match, 5)

    # when: its context is read
    context = match_context(match.pk, lock=False)

    # then: the rows are the database's and the state is the one a replay gives
    fresh = Match.objects.get(pk=match.pk)
    assert context.match.ply == fresh.ply == 5
    seats = list(Seat.objects.filter(match=match).select_related("player").order_by("index"))
    assert [(s.pk, s.player_id) for s in context.seats] == [(s.pk, s.player_id) for s in seats]
    current = Game.objects.filter(match=match).order_by("-number").first()
    assert context.game is not None and current is not None and context.game.pk == current.pk
    assert context.state is not None and len(context.state.history()) == 5


def test_a_context_is_two_queries_with_its_state_cached(
    started_match: Callable[..., Match],
    django_assert_max_num_queries: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    match = started_match("tute4", seats=["rule", PlayerFactory(), "random", PlayerFactory()])
    with django_capture_on_commit_callbacks(execute=True):
        match_context(match.pk, lock=False)  # the state is cached from here on

    with django_assert_max_num_queries(2):  # the match with its game, then the seats with their players
        context = match_context(match.pk, lock=False)
        assert [s.player.handle if s.player else s.bot_level for s in context.seats]


def test_an_unknown_match_has_no_context(db: None) -> None:
    with pytest.raises(MatchNotFound):
        match_context(987654, lock=False)


def test_an_open_match_has_its_empty_seats_and_no_game(player: Player) -> None:
    match = match_create(
        spec=match_spec(
            created_by=player,
            game="tute4",
            seats=[SeatSpec(player=player.handle), SeatSpec(), SeatSpec(), SeatSpec()],
        )
    )

    context = match_context(match.pk, lock=True)

    assert context.game is None and context.state is None
    assert [(s.index, s.player_id) for s in context.seats] == [
        (0, player.pk),
        (1, None),
        (2, None),
        (3, None),
    ]


def test_the_locking_context_locks_the_match_row_only(
    started_match: Callable[..., Match], django_assert_num_queries: Any
) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    match = started_match("tute2")
    with CaptureQueriesContext(connection) as queries:
        match_context(match.pk, lock=True)
    sql = [q["sql"] for q in queries.captured_queries]
    locking = [s for s in sql if "FOR UPDATE" in s]
    if connection.vendor == "postgresql":
        # the match's row alone (no other table in the statement), then the rows read after the lock
        assert len(locking) == 1 and locking[0].rstrip().endswith("FOR UPDATE")
        assert 'FROM "games_match" WHERE' in locking[0] and "JOIN" not in locking[0]
        assert sql.index(locking[0]) < next(i for i, s in enumerate(sql) if "games_game" in s)
        assert sql.index(locking[0]) < next(i for i, s in enumerate(sql) if "games_seat" in s)
    else:
        assert locking == []  # SQLite has no row locks: the compare-and-swap guards the ply


def test_a_view_from_a_context_equals_the_view_of_a_fresh_context(
    started_match: Callable[..., Match], play_moves: Callable[..., Any], players_of: Callable[..., Any]
) -> None:
    match = started_match("pocha")
    play_moves(match, 7)
    context = match_context(match.pk, lock=False)

    for player in [*players_of(match), PlayerFactory(), None]:
        view = match_view_for(context=context, player=player)
        with states._STATES_LOCK:
            states._STATES.clear()
        assert view == match_view_for(context=match_context(match.pk, lock=False), player=player)


def test_a_state_cache_miss_replays_from_the_nearest_cached_ply(
    started_match: Callable[..., Match], play_moves: Callable[..., Any]
) -> None:
    # given: a match 6 moves in, whose cache holds only the state at ply 4
    match = started_match("tute2")
    play_moves(match, 6)
    match.refresh_from_db()
    game = Game.objects.get(match=match)
    at_4 = game_state(match=match, game=game, ply=4)
    with states._STATES_LOCK:
        states._STATES.clear()
        states._STATES[(game.pk, game.seed, 4)] = at_4

    # when: the state at ply 6 is asked for
    state = game_state(match=match, game=game)

    # then: it is the state a full replay gives
    with states._STATES_LOCK:
        states._STATES.clear()
    replayed = game_state(match=match, game=game)
    assert state.history() == replayed.history() and len(state.history()) == 6
    assert state.legal_actions() == replayed.legal_actions()
    assert [state.view(seat).to_dict() for seat in (0, 1)] == [
        replayed.view(seat).to_dict() for seat in (0, 1)
    ]


def test_the_answer_to_an_action_needs_no_read_after_the_write(
    started_match: Callable[..., Match],
    turn: Callable[..., Any],
    django_assert_num_queries: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    from games.services import action_submit

    match = started_match("tute2")
    now = turn(match.pk)
    code = random.Random(3).choice([c for c in now.legal if c.startswith("play:")])
    with django_capture_on_commit_callbacks(execute=True):  # the new state is cached on commit
        applied: Applied = action_submit(match_id=match.pk, player=now.player, code=code, ply=0)

    with django_assert_num_queries(0):
        view = match_view_for(context=applied.context, player=now.player, ply=applied.ply + 1)
    assert view["ply"] == 1 and view["seat"] == now.seat


def test_a_match_detail_has_its_seats_and_players(
    started_match: Callable[..., Match], django_assert_num_queries: Any
) -> None:
    match = started_match("tute4", seats=["rule", PlayerFactory(), "random", PlayerFactory()])

    with django_assert_num_queries(2):
        detail = match_detail(match_id=match.pk)
        seats = [(s.index, s.bot_level, s.player.handle if s.player else None) for s in detail.seats.all()]

    expected = Seat.objects.filter(match=match).select_related("player").order_by("index")
    assert seats == [(s.index, s.bot_level, s.player.handle if s.player else None) for s in expected]
