"""Fixtures for the games app's services and API: players, started matches, random play, API clients.

Matches are made and played through the services (``match_create``, ``seat_join``, ``action_submit``,
``bot_turn_play``), never by writing rows, so every test sees what the server would have built.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from games import states
from games.engine import State
from games.models import Game, Match, Player, Seat
from games.services import SeatSpec, action_submit, bot_turn_play, challenge_accept
from games.states import game_state
from tests.factories import MatchFactory, PlayerFactory, current_game, seat_spec, token_for


@pytest.fixture(autouse=True)
def _fresh_process_state() -> Iterator[None]:
    """Throttle counters (the cache) and the engine-state cache start empty in every test.

    The state cache is keyed by (game id, ply); the test database rolls back after each test and SQLite
    then hands the same ids out again, so a state cached by one test must not reach the next.
    """
    cache.clear()
    with states._STATES_LOCK:
        states._STATES.clear()
    yield
    cache.clear()


@pytest.fixture
def unthrottled(monkeypatch: pytest.MonkeyPatch) -> None:
    """Lift the API's rate limits for tests that send thousands of requests from one address."""
    rates = {"user": "1000000/min", "address": "1000000/min"}
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)


# -- players and matches --------------------------------------------------------------------------------


@pytest.fixture
def player(db: None) -> Player:
    return PlayerFactory()


@pytest.fixture
def make_player(db: None) -> Callable[..., Player]:
    return PlayerFactory


SeatArg = SeatSpec | Player | str | None


@pytest.fixture
def started_match(db: None) -> Callable[..., Match]:
    """``started_match(game, seats=[...], ...)``: a match with every seat filled, so already in progress.

    Without ``seats`` each seat gets a new player; a string in ``seats`` is a house bot's level. The
    creator (the first player seated, unless given) seats the others, who are challenged and accept.
    """

    def make(
        game: str = "tute2",
        *,
        players: int | None = None,
        options: dict[str, Any] | None = None,
        format: str = Match.Format.SINGLE,
        games: int = 1,
        seats: Sequence[SeatArg] | None = None,
        created_by: Player | None = None,
    ) -> Match:
        if seats is None:
            count = players or {"tute2": 2, "tute4": 4, "pocha": 4}[game]
            seats = [PlayerFactory() for _ in range(count)]
        seated = [s for s in seats if isinstance(s, Player)]
        creator = created_by or (seated[0] if seated else PlayerFactory())
        match: Match = MatchFactory(
            created_by=creator,
            game=game,
            players=players,
            options=options or {},
            format=format,
            format_target=games,
            seats=[seat_spec(s) for s in seats],
        )
        for other in seated:
            if other.pk != creator.pk and not other.auto_accept:
                match = challenge_accept(match_id=match.pk, player=other)
        match.refresh_from_db()
        assert match.status == Match.Status.IN_PROGRESS, "every seat was filled: the match started"
        return match

    return make


def seat_players(match: Match) -> list[Player | None]:
    """The player at each seat index (None for a house bot or an empty seat)."""
    seats = Seat.objects.filter(match=match).select_related("player").order_by("index")
    return [seat.player for seat in seats]


@pytest.fixture
def players_of() -> Callable[[Match], list[Player | None]]:
    return seat_players


@dataclass(frozen=True)
class Turn:
    """Whose move it is in a match, as the server's own engine state says."""

    match: Match
    game: Game
    state: State
    seat: int
    player: Player | None  # None: a house bot's seat
    legal: tuple[str, ...]


def turn_of(match_id: int) -> Turn | None:
    """The seat to act now and its legal codes, or None when the match is not in progress."""
    match = Match.objects.get(pk=match_id)
    if match.status != Match.Status.IN_PROGRESS:
        return None
    game = current_game(match)
    assert game is not None
    state = game_state(match=match, game=game)
    seat = state.current_player()
    assert seat is not None, "a game in progress always has a seat to act"
    player = seat_players(match)[game.match_seat(seat)]  # a duplicate game's seats are rotated
    return Turn(match, game, state, seat, player, state.legal_actions())


@pytest.fixture
def turn() -> Callable[[int], Turn | None]:
    return turn_of


def play_one(match_id: int, rng: random.Random) -> Turn | None:
    """One random legal move by whoever is to act (a house bot plays its own move); None once over."""
    now = turn_of(match_id)
    if now is None:
        return None
    if now.player is None:
        applied = bot_turn_play(match_id=match_id, ply=now.match.ply)
        assert applied is not None, "a house bot's turn is played"
    else:
        action_submit(match_id=match_id, player=now.player, code=rng.choice(now.legal), ply=now.match.ply)
    return now


def play_to_end(match_id: int, rng: random.Random, *, max_plies: int = 5000) -> Match:
    """Random legal moves through the services until the match is over."""
    for _ in range(max_plies):
        if play_one(match_id, rng) is None:
            return Match.objects.get(pk=match_id)
    raise AssertionError(f"match {match_id} did not finish in {max_plies} plies")


@pytest.fixture
def play_random() -> Callable[..., Match]:
    """``play_random(match, seed=...)`` plays random legal moves through the services to the end."""

    def play(match: Match, *, seed: int | str = 0) -> Match:
        return play_to_end(match.pk, random.Random(seed))

    return play


@pytest.fixture
def play_moves() -> Callable[..., Turn | None]:
    """``play_moves(match, n, seed=...)`` plays ``n`` random legal moves; returns the turn after them."""

    def play(match: Match, n: int, *, seed: int | str = 0) -> Turn | None:
        rng = random.Random(seed)
        for _ in range(n):
            assert play_one(match.pk, rng) is not None, "the match ended before the moves were played"
        return turn_of(match.pk)

    return play


# -- API clients ----------------------------------------------------------------------------------------


@pytest.fixture
def anon_client() -> APIClient:
    return APIClient()


@pytest.fixture
def token_client(db: None) -> Callable[[Player], APIClient]:
    """A client that speaks for ``player`` with ``Authorization: Token <t>``, as bots and apps do."""

    def make(player: Player) -> APIClient:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(player)}")
        return client

    return make


@pytest.fixture
def session_client(db: None) -> Callable[[Player], APIClient]:
    """A client signed in with a session, as the website is."""

    def make(player: Player) -> APIClient:
        client = APIClient()
        client.force_login(player.user)
        return client

    return make


def match_url(match_id: int, what: str = "") -> str:
    return f"/api/v1/matches/{match_id}/{what + '/' if what else ''}"


@pytest.fixture
def url() -> Callable[..., str]:
    """``url(match_id, "view")`` -> ``/api/v1/matches/<id>/view/``."""
    return match_url
