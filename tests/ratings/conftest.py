"""Fixtures for the ratings tests: matches finished through the games services, and ratings set as givens.

Every match here is made, played, resigned or aborted by the games services, so its result is one the
engine produced. Ratings given before a match (a player at 1700 with 40 rated matches, say) are written
as Rating rows, the state the ratings service would have left behind.

A seat is a ``Player`` (a person or a bot account) or a house bot's level (``"rule"``, ``"random"``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any, cast

import pytest
from django.core.cache import cache

from games import states
from games.models import Match, Player, Seat
from games.services import action_submit, bot_turn_play, challenge_accept, match_resign
from games.states import game_state
from ratings.facts import house_subject, pair_subject, player_subject
from ratings.models import Rating
from tests.factories import BotPlayerFactory, MatchFactory, PlayerFactory, current_game

SeatArg = Player | str
#: Who holds a rating: a player, a house bot's level, or (pairs pool) two players.
Who = Player | str | tuple[Player, Player]

SEATS = {"tute2": 2, "tute4": 4}


@pytest.fixture(autouse=True)
def _fresh_process_state() -> Iterator[None]:
    """The engine-state cache and the cache start empty: SQLite hands ids out again after a rollback."""
    cache.clear()
    with states._STATES_LOCK:
        states._STATES.clear()
    yield
    cache.clear()


# -- who is rated ---------------------------------------------------------------------------------------


def subject_of(who: Who) -> str:
    if isinstance(who, Player):
        return player_subject(who.pk)
    if isinstance(who, tuple):
        return pair_subject(who[0].pk, who[1].pk)
    return house_subject(who)


def rating_of(pool: str, who: Who) -> Rating:
    return Rating.objects.get(pool=pool, subject=subject_of(who))


def set_rating(pool: str, who: Who, rating: float, matches: int = 0) -> Rating:
    """A rating as earlier rated matches would have left it."""
    player = who if isinstance(who, Player) else who[0] if isinstance(who, tuple) else None
    partner = who[1] if isinstance(who, tuple) else None
    if isinstance(who, tuple) and who[0].pk > who[1].pk:
        player, partner = partner, player
    is_bot = any(p.is_bot for p in (player, partner) if p is not None) or isinstance(who, str)
    return Rating.objects.create(
        pool=pool,
        subject=subject_of(who),
        player=player,
        partner=partner,
        house_bot=who if isinstance(who, str) else "",
        is_bot=is_bot,
        rating=rating,
        rated_matches=matches,
    )


def new_player(**fields: Any) -> Player:
    return cast(Player, PlayerFactory(**fields))


def new_bot(**fields: Any) -> Player:
    """A bot account: a Player with is_bot, owned by a person."""
    return cast(Player, BotPlayerFactory(**fields))


@pytest.fixture
def make_player(db: None) -> Callable[..., Player]:
    return new_player


@pytest.fixture
def make_bot(db: None) -> Callable[..., Player]:
    return new_bot


@pytest.fixture
def players(make_player: Callable[..., Player]) -> Callable[[int], list[Player]]:
    return lambda n: [new_player() for _ in range(n)]


# -- matches through the services -----------------------------------------------------------------------


def start_match(
    game: str,
    seats: Sequence[SeatArg],
    *,
    options: dict[str, Any] | None = None,
    format: str = Match.Format.SINGLE,
    games: int = 1,
    rated: bool = True,
) -> Match:
    """A match with every seat taken, so in progress: the first player seated creates it, the others
    accept the challenge."""
    seated = [s for s in seats if isinstance(s, Player)]
    creator = seated[0] if seated else new_player()
    match = cast(
        Match,
        MatchFactory(
            created_by=creator,
            game=game,
            players=None if game in SEATS else len(seats),
            options=options or {},
            format=format,
            format_target=games,
            seats=list(seats),
            rated=rated,
        ),
    )
    for other in seated:
        if other.pk != creator.pk and not other.auto_accept:
            challenge_accept(match_id=match.pk, player=other)
    match.refresh_from_db()
    assert match.status == Match.Status.IN_PROGRESS, "every seat was taken: the match started"
    return match


def seat_player(match: Match, index: int) -> Player:
    seat = Seat.objects.select_related("player").get(match=match, index=index)
    assert seat.player is not None, f"seat {index} is a house bot's"
    return seat.player


def resign(match: Match, seat: int) -> Match:
    """The player at ``seat`` resigns: its side loses (Pocha: it finishes last)."""
    match_resign(match_id=match.pk, player=seat_player(match, seat))
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match


def seated_players(match: Match) -> dict[int, Player | None]:
    """The player at each seat index (None: a house bot)."""
    return {s.index: s.player for s in Seat.objects.select_related("player").filter(match=match)}


def move(match: Match, rng: random.Random, seated: dict[int, Player | None]) -> Match:
    """One random legal move by whoever is to act (a house bot plays its own); the match after it."""
    game = current_game(match)
    assert game is not None
    state = game_state(match=match, game=game)
    seat = state.current_player()
    assert seat is not None
    player = seated[seat]
    if player is None:
        applied = bot_turn_play(match_id=match.pk, ply=match.ply)
    else:
        code = rng.choice(state.legal_actions())
        applied = action_submit(match_id=match.pk, player=player, code=code, ply=match.ply)
    assert applied is not None
    return applied.match


def play_step(match: Match, rng: random.Random) -> None:
    match.refresh_from_db()
    assert match.status == Match.Status.IN_PROGRESS
    move(match, rng, seated_players(match))


def play_out(match: Match, rng: random.Random, *, max_plies: int = 5000) -> Match:
    """Random legal moves through the services until the match is over."""
    seated = seated_players(match)
    match.refresh_from_db()
    for _ in range(max_plies):
        if match.status != Match.Status.IN_PROGRESS:
            match.refresh_from_db()
            return match
        match = move(match, rng, seated)
    raise AssertionError(f"match {match.pk} did not finish in {max_plies} plies")


@pytest.fixture
def started_match(db: None) -> Callable[..., Match]:
    """``started_match(game, seats, options=..., format=..., games=..., rated=...)``"""
    return start_match


@pytest.fixture
def resigned_match(db: None) -> Callable[..., Match]:
    """``resigned_match(game, seats, loser=seat, ...)``: started, then the player at ``loser`` resigns."""

    def make(game: str, seats: Sequence[SeatArg], *, loser: int, **kwargs: Any) -> Match:
        return resign(start_match(game, seats, **kwargs), loser)

    return make


@pytest.fixture
def played_match(db: None) -> Callable[..., Match]:
    """``played_match(game, seats, seed=..., ...)``: started, then played to the end with random moves."""

    def make(game: str, seats: Sequence[SeatArg], *, seed: int | str = 0, **kwargs: Any) -> Match:
        return play_out(start_match(game, seats, **kwargs), random.Random(seed))

    return make


@pytest.fixture
def given_rating(db: None) -> Callable[..., Rating]:
    """``given_rating(pool, who, rating, matches)``: a rating as earlier rated matches left it."""
    return set_rating


@pytest.fixture
def rating(db: None) -> Callable[[str, Who], Rating]:
    """``rating(pool, who)``: the competitor's current Rating row."""
    return rating_of


@pytest.fixture
def play(db: None) -> Callable[..., Match]:
    """``play(match, rng)``: random legal moves to the end of the match."""
    return play_out


@pytest.fixture
def step(db: None) -> Callable[[Match, random.Random], None]:
    """``step(match, rng)``: one random legal move."""
    return play_step


@pytest.fixture
def resign_seat(db: None) -> Callable[[Match, int], Match]:
    """``resign_seat(match, seat)``: the player at ``seat`` resigns."""
    return resign
