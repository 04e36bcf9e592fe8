"""Fixtures for the website's tests: people, matches played through the games services, ratings."""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterator
from typing import Any, cast

import pytest
from django.core.cache import cache

from games import states
from games.models import Action, Match, Player, Seat
from games.services import action_submit, bot_turn_play, player_for_user
from games.states import game_state
from ratings.models import Rating
from tests.factories import MatchFactory, PlayerFactory, UserFactory, current_game
from tests.services import require_service
from tests.web.browsing import CHROMIUM, CHROMIUM_ARGS, DESKTOP, PHONE, _tab
from tests.workers import Worker, broker_url_for_tests, worker_running


@pytest.fixture(autouse=True)
def _static_without_manifest(settings: Any) -> None:
    """Static URLs without ``collectstatic``'s manifest (production runs collectstatic first)."""
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture(autouse=True)
def _fresh_process_state() -> Iterator[None]:
    """The engine-state cache and the cache start empty: SQLite hands ids out again after a rollback."""
    cache.clear()
    with states._STATES_LOCK:
        states._STATES.clear()
    yield
    cache.clear()


def new_player(**fields: Any) -> Player:
    return cast(Player, PlayerFactory(**fields))


def person(username: str) -> Player:
    """A person with a user account and its player, as signing up makes them."""
    return player_for_user(user=UserFactory(username=username))


def bot_match(game: str, me: Player, *, level: str = "rule", players: int | None = None) -> Match:
    """A match of ``me`` against house bots, started at once."""
    seats_total = {"tute2": 2, "tute4": 4}.get(game, players or 4)
    return cast(
        Match,
        MatchFactory(
            created_by=me,
            game=game,
            players=None if game != "pocha" else seats_total,
            seats=[me] + [level] * (seats_total - 1),
        ),
    )


def play_out(match: Match, seed: int = 1, max_plies: int = 5000) -> Match:
    """Random legal moves for the people, the house bots' own moves for theirs, until the match ends."""
    rng = random.Random(seed)
    seated = {s.index: s.player for s in Seat.objects.select_related("player").filter(match=match)}
    match.refresh_from_db()
    for _ in range(max_plies):
        if match.status != Match.Status.IN_PROGRESS:
            return match
        game = current_game(match)
        assert game is not None
        state = game_state(match=match, game=game)
        seat = state.current_player()
        assert seat is not None
        player = seated[game.match_seat(seat)]  # a duplicate match's later plays rotate the seats
        if player is None:
            applied = bot_turn_play(match_id=match.pk, ply=match.ply)
        else:
            applied = action_submit(
                match_id=match.pk, player=player, code=rng.choice(state.legal_actions()), ply=match.ply
            )
        assert applied is not None
        match = applied.match
        match.refresh_from_db()
    raise AssertionError(f"match {match.pk} did not finish in {max_plies} plies")


def long_bot_pocha(*, hands: int, seed: int = 7) -> Match:
    """A finished bot-only Pocha of four random bots and ``hands`` hands of ten cards (44 plies each).

    Fast: the engine plays every ply but the last in memory, the rows are written at once, and the house
    bot's service plays the last (forced) card, so the match ends as a worker ends one.
    """
    match = cast(
        Match,
        MatchFactory(
            created_by=person("marathon"),
            game="pocha",
            players=4,
            options={"pocha_sequence": [10] * hands},
            seats=["random"] * 4,
            rated=False,
        ),
    )
    game = current_game(match)
    assert game is not None
    state = game_state(match=match, game=game)
    rng = random.Random(seed)
    rows, ply = [], match.ply
    while True:
        seat = state.current_player()
        assert seat is not None
        code = rng.choice(state.legal_actions())
        after = state.apply(code)
        if after.is_terminal():
            break
        rows.append(Action(match=match, game=game, ply=ply, seat=seat, code=code, kind=Action.Kind.HOUSE_BOT))
        state, ply = after, ply + 1
    Action.objects.bulk_create(rows)
    Match.objects.filter(pk=match.pk).update(ply=ply, turn_seat=state.current_player())
    assert bot_turn_play(match_id=match.pk, ply=ply) is not None
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match


def rate(pool: str, player: Player, rating: float, matches: int = 12) -> Rating:
    """A rating as earlier rated matches would have left it."""
    return Rating.objects.create(
        pool=pool,
        subject=f"player:{player.pk}",
        player=player,
        is_bot=player.is_bot,
        rating=rating,
        rated_matches=matches,
    )


@pytest.fixture
def make_person(db: None) -> Callable[[str], Player]:
    return person


# -- browser tests (tests/web/browsing.py has their helpers) ---------------------------------------------


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless chromium for the module (Debian's, never a downloaded one)."""
    require_service("Chromium", CHROMIUM.exists(), f"{CHROMIUM} is missing: apt-get install -y chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as exc:  # the dev extra is not installed
        require_service("Playwright", False, str(exc))
        raise
    # Playwright's sync API runs an event loop in this thread; the test's own ORM calls are still sync.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        try:
            yield chromium
        finally:
            chromium.close()
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)


@pytest.fixture
def site(live_server: Any, settings: Any) -> str:
    """The live server's URL; cookies without the Secure flag, since it speaks plain HTTP."""
    settings.SESSION_COOKIE_SECURE = False
    settings.CSRF_COOKIE_SECURE = False
    return str(live_server.url)


@pytest.fixture
def page(browser: Any, site: str) -> Iterator[Any]:
    yield from _tab(browser, DESKTOP)


@pytest.fixture
def phone(browser: Any, site: str) -> Iterator[Any]:
    """A tab the size of a phone (390x844)."""
    yield from _tab(browser, PHONE)


@pytest.fixture
def worker(
    postgres_required: None, redis_url: str, settings: Any, transactional_db: None
) -> Iterator[Worker]:
    """A real Celery worker on the test database; this process publishes to its broker."""
    url = broker_url_for_tests(redis_url)
    settings.TUTE_EVENTS_URL = url
    with worker_running(url) as running:
        yield running
