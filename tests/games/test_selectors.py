"""The hand-written reads of the hot path give what the ORM gives, on SQLite and on PostgreSQL."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection  # noqa: F401  (the skipif condition reads it)

from games.authentication import token_owner
from games.models import Game, Match, Player, Seat
from games.selectors import game_state, match_loaded, match_view_for
from games.services import token_create
from games.services.play import Applied
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def fields(instance: Any, names: list[str] | None = None) -> dict[str, Any]:
    names = names or [f.attname for f in type(instance)._meta.concrete_fields]
    return {name: getattr(instance, name) for name in names}


@pytest.mark.parametrize("game", ["tute2", "tute4", "pocha"])
def test_a_loaded_match_equals_the_orms_rows(
    game: str, started_match: Callable[..., Match], play_moves: Callable[..., Any]
) -> None:
    # given: a match some moves in (clocks, options and JSON fields set)
    match = started_match(game, format=Match.Format.BEST_OF, games=3)
    play_moves(match, 5)

    # when: it is read by the one-statement loader
    loaded = match_loaded(match_id=match.pk)

    # then: every field of the match, each seat and the current game is what the ORM reads
    assert loaded is not None
    assert fields(loaded.match) == fields(Match.objects.get(pk=match.pk))
    seats = list(Seat.objects.filter(match=match).select_related("player").order_by("index"))
    assert [fields(s) for s in loaded.seats] == [fields(s) for s in seats]
    assert [s.player.handle if s.player else None for s in loaded.seats] == [
        s.player.handle if s.player else None for s in seats
    ]
    assert [s.player.is_bot if s.player else None for s in loaded.seats] == [
        s.player.is_bot if s.player else None for s in seats
    ]
    current = Game.objects.filter(match=match).order_by("-number").first()
    assert loaded.game is not None and current is not None
    assert fields(loaded.game) == fields(current)


def test_a_loaded_instance_reads_a_field_it_did_not_select_from_the_database(
    started_match: Callable[..., Match],
) -> None:
    match = started_match("tute2")
    loaded = match_loaded(match_id=match.pk)
    assert loaded is not None and loaded.game is not None

    # the decks and the player's account are left out of the statement, and load on first use
    assert loaded.game.decks == Game.objects.get(pk=loaded.game.pk).decks
    player = loaded.seats[0].player
    assert player is not None and player.user_id == Player.objects.get(pk=player.pk).user_id


def test_an_unknown_match_loads_as_none(db: None) -> None:
    assert match_loaded(match_id=987654) is None


def test_an_open_match_loads_with_its_empty_seats_and_no_game(player: Player) -> None:
    from games.services import SeatSpec, match_create

    match = match_create(
        created_by=player,
        game="tute4",
        seats=[SeatSpec(player=player.handle), SeatSpec(), SeatSpec(), SeatSpec()],
    )

    loaded = match_loaded(match_id=match.pk, lock=True)

    assert loaded is not None and loaded.game is None
    assert [(s.index, s.player_id) for s in loaded.seats] == [(0, player.pk), (1, None), (2, None), (3, None)]


@pytest.mark.skipif("connection.vendor != 'postgresql'")
def test_the_locking_load_locks_the_match_row_and_not_the_joined_ones(
    started_match: Callable[..., Match],
) -> None:
    # Row locking itself is exercised by tests/games/test_concurrency.py (parallel moves on PostgreSQL);
    # here: the lock names the match alone, so seats, players and games stay free for readers.
    from games.selectors import _MATCH_PLAY_ROW, _MATCH_ROW, _select_sql

    match = started_match("tute2")

    for full, match_row in ((False, _MATCH_PLAY_ROW), (True, _MATCH_ROW)):
        assert _select_sql(True, match_row).endswith("FOR UPDATE OF m")
        assert "FOR UPDATE" not in _select_sql(False, match_row)
        assert match_loaded(match_id=match.pk, lock=True, full=full) is not None


def test_the_play_load_leaves_out_what_a_move_never_reads_and_it_loads_on_first_use(
    started_match: Callable[..., Match],
) -> None:
    match = started_match("tute2")
    loaded = match_loaded(match_id=match.pk)
    full = match_loaded(match_id=match.pk, full=True)
    assert loaded is not None and full is not None

    left_out = {"created_at", "started_at", "finished_at", "turn_deadline", "result", "finish_reason"}
    assert loaded.match.get_deferred_fields() == left_out
    assert not full.match.get_deferred_fields()
    # A field left out still reads as the database holds it, with a query of its own.
    assert loaded.match.started_at == full.match.started_at == Match.objects.get(pk=match.pk).started_at


def test_a_view_from_loaded_rows_equals_the_view_from_orm_rows(
    started_match: Callable[..., Match], play_moves: Callable[..., Any], players_of: Callable[..., Any]
) -> None:
    match = started_match("pocha")
    play_moves(match, 7)
    loaded = match_loaded(match_id=match.pk)
    assert loaded is not None

    for player in [*players_of(match), PlayerFactory(), None]:
        fast = match_view_for(match=loaded.match, player=player, seats=loaded.seats, game=loaded.game)
        plain = match_view_for(match=Match.objects.get(pk=match.pk), player=player)
        assert fast == plain


def test_a_state_cache_miss_replays_from_the_nearest_cached_ply(
    started_match: Callable[..., Match], play_moves: Callable[..., Any]
) -> None:
    from games import selectors

    # given: a match 6 moves in, whose cache holds only the state at ply 4
    match = started_match("tute2")
    play_moves(match, 6)
    match.refresh_from_db()
    game = Game.objects.get(match=match)
    at_4 = game_state(match=match, game=game, ply=4)
    with selectors._STATES_LOCK:
        selectors._STATES.clear()
        selectors._STATES[(game.pk, game.seed, 4)] = at_4

    # when: the state at ply 6 is asked for
    state = game_state(match=match, game=game)

    # then: it is the state a full replay gives
    with selectors._STATES_LOCK:
        selectors._STATES.clear()
    replayed = game_state(match=match, game=game)
    assert state.history() == replayed.history() and len(state.history()) == 6
    assert state.legal_actions() == replayed.legal_actions()
    assert [state.view(seat).to_dict() for seat in (0, 1)] == [
        replayed.view(seat).to_dict() for seat in (0, 1)
    ]


def test_a_token_brings_its_user_and_player_in_one_statement(
    django_assert_num_queries: Any,
) -> None:
    player = PlayerFactory()
    token = token_create(user=player.user)

    with django_assert_num_queries(1):
        found = token_owner(token)
        assert found is not None
        user, api_token = found
        assert (user.pk, user.username, user.is_active) == (player.user.pk, player.user.username, True)
        assert user.player.pk == player.pk and user.player.handle == player.handle
        assert api_token.user_id == user.pk and api_token.last_used_at is None

    assert token_owner(token + "x") is None


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
        view = match_view_for(
            match=applied.match,
            player=now.player,
            ply=applied.ply + 1,
            seats=applied.seats,
            game=applied.game,
        )
    assert view["ply"] == 1 and view["seat"] == now.seat


def test_a_rotated_token_is_refused_at_once_although_tokens_are_cached(
    settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from django.core.cache import cache

    from games.services import bot_create, bot_token_rotate

    # given: a bot's token, used once (so its row is in the cache)
    settings.TUTE_TOKEN_CACHE_SECONDS = 60
    cache.clear()
    owner = PlayerFactory()
    bot, old = bot_create(owner=owner.user, handle="cached-bot")
    assert token_owner(old) is not None

    # when: the owner rotates it
    with django_capture_on_commit_callbacks(execute=True):
        new = bot_token_rotate(owner=owner.user, handle="cached-bot")

    # then: the old token is unknown at once, the new one works
    assert token_owner(old) is None
    found = token_owner(new)
    assert found is not None and found[0].player.pk == bot.pk


def test_a_cached_token_answers_without_the_database(settings: Any, django_assert_num_queries: Any) -> None:
    from django.core.cache import cache

    settings.TUTE_TOKEN_CACHE_SECONDS = 60
    cache.clear()
    player = PlayerFactory()
    token = token_create(user=player.user)
    token_owner(token)

    with django_assert_num_queries(0):
        found = token_owner(token)
        assert found is not None and found[0].player.handle == player.handle


def test_with_the_cache_off_every_call_reads_the_database(
    settings: Any, django_assert_num_queries: Any
) -> None:
    settings.TUTE_TOKEN_CACHE_SECONDS = 0
    token = token_create(user=PlayerFactory().user)
    token_owner(token)

    with django_assert_num_queries(1):
        assert token_owner(token) is not None


def test_a_deactivated_account_is_refused_at_once_although_its_token_was_cached(settings: Any) -> None:
    from django.core.cache import cache

    settings.TUTE_TOKEN_CACHE_SECONDS = 60
    cache.clear()
    player = PlayerFactory()
    token = token_create(user=player.user)
    assert token_owner(token) is not None

    player.user.is_active = False
    player.user.save()

    found = token_owner(token)
    assert found is not None and found[0].is_active is False


def test_a_match_detail_is_one_query_with_its_seats_and_players(
    started_match: Callable[..., Match], django_assert_num_queries: Any
) -> None:
    from games.selectors import match_detail

    match = started_match("tute4", seats=["rule", PlayerFactory(), "random", PlayerFactory()])

    with django_assert_num_queries(1):
        detail = match_detail(match_id=match.pk)
        assert detail is not None
        seats = [(s.index, s.bot_level, s.player.handle if s.player else None) for s in detail.seats.all()]

    expected = Seat.objects.filter(match=match).select_related("player").order_by("index")
    assert seats == [(s.index, s.bot_level, s.player.handle if s.player else None) for s in expected]
