"""The games admin: every screen renders for staff, nothing secret shows, lists cost the same at any size."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from pytest_django import Settings

from games.models import Action, ApiToken, Game, Match, Player
from games.services import SeatSpec, match_create, match_spec, token_create
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(settings: Settings) -> Client:
    """A superuser's browser; static files from the apps (the tests run without collectstatic)."""
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    client = Client()
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


def get_ok(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


@pytest.fixture
def some_matches(
    started_match: Callable[..., Match], play_moves: Callable[..., Any]
) -> Callable[[int], None]:
    def make(count: int) -> None:
        for i in range(count):
            match = started_match("tute2" if i % 2 else "pocha", players=2)
            play_moves(match, 2, seed=i)

    return make


def test_every_changelist_and_change_page_renders(
    admin_client: Client, started_match: Callable[..., Match], play_moves: Callable[..., Any]
) -> None:
    match = started_match("tute2")
    play_moves(match, 3)
    token_create(user=PlayerFactory().user)
    objects: dict[str, Any] = {
        "player": Player.objects.first(),
        "apitoken": ApiToken.objects.first(),
        "match": match,
        "game": Game.objects.get(match=match),
        "action": Action.objects.filter(match=match).first(),
    }

    for name, obj in objects.items():
        get_ok(admin_client, f"/admin/games/{name}/")
        get_ok(admin_client, f"/admin/games/{name}/?q=1")
        get_ok(admin_client, f"/admin/games/{name}/{obj.pk}/change/")


def test_a_token_is_never_shown(admin_client: Client) -> None:
    user = UserFactory()
    token = token_create(user=user)
    row = ApiToken.objects.get(user=user)

    listing = get_ok(admin_client, "/admin/games/apitoken/")
    page = get_ok(admin_client, f"/admin/games/apitoken/{row.pk}/change/")

    assert token not in listing and token not in page
    assert row.prefix in listing
    assert admin_client.get("/admin/games/apitoken/add/").status_code == 403


def test_a_seed_and_decks_show_only_once_the_game_is_over(
    admin_client: Client, started_match: Callable[..., Match], play_random: Callable[..., Match]
) -> None:
    # given: a game in progress
    match = started_match("tute2")
    game = Game.objects.get(match=match)

    # then: its seed and deck are nowhere on its match's page or its own
    for url in (f"/admin/games/match/{match.pk}/change/", f"/admin/games/game/{game.pk}/change/"):
        page = get_ok(admin_client, url)
        assert game.seed not in page
        assert " ".join(game.decks[0]) not in page

    # when: the match is played out; then: they are shown
    play_random(match, seed=1)
    page = get_ok(admin_client, f"/admin/games/game/{game.pk}/change/")
    assert game.seed in page and " ".join(game.decks[0]) in page


def test_the_action_log_is_filtered_by_match_and_read_only(
    admin_client: Client, started_match: Callable[..., Match], play_moves: Callable[..., Any]
) -> None:
    one, other = started_match("tute2"), started_match("tute2")
    play_moves(one, 3)
    play_moves(other, 5)

    page = get_ok(admin_client, f"/admin/games/action/?match__id__exact={one.pk}")
    match_page = get_ok(admin_client, f"/admin/games/match/{one.pk}/change/")

    assert "3 actions" in page
    assert f"?match__id__exact={one.pk}" in match_page
    action = Action.objects.filter(match=one).first()
    assert action is not None
    assert admin_client.post(f"/admin/games/action/{action.pk}/delete/", {"post": "yes"}).status_code == 403
    assert admin_client.get("/admin/games/action/add/").status_code == 403
    assert admin_client.get("/admin/games/match/add/").status_code == 403


@pytest.mark.parametrize("name", ["player", "apitoken", "match", "game", "action"])
def test_a_changelist_costs_the_same_queries_for_2_or_8_rows(
    admin_client: Client, some_matches: Callable[[int], None], name: str
) -> None:
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            get_ok(admin_client, f"/admin/games/{name}/")
        return len(captured)

    some_matches(1)
    for player in Player.objects.all():
        token_create(user=player.user)
    queries()  # the first request also marks the signed-in admin as seen (at most every few seconds)
    few = queries()
    some_matches(4)
    for player in Player.objects.filter(user__api_tokens__isnull=True):
        token_create(user=player.user)
    assert queries() == few


def test_staff_abort_matches_from_the_list(admin_client: Client, started_match: Callable[..., Match]) -> None:
    playing = started_match("tute2")
    waiting = match_create(spec=match_spec(created_by=PlayerFactory(), game="tute4"))
    over = started_match("tute2")
    over.status = Match.Status.FINISHED
    over.save()
    staff = User.objects.get(is_superuser=True)
    PlayerFactory(user=staff)

    response = admin_client.post(
        "/admin/games/match/",
        {"action": "abort_matches", "_selected_action": [playing.pk, waiting.pk, over.pk]},
        follow=True,
    )

    assert response.status_code == 200
    statuses = dict(Match.objects.values_list("pk", "status"))
    assert statuses == {
        playing.pk: Match.Status.ABORTED,
        waiting.pk: Match.Status.ABORTED,
        over.pk: Match.Status.FINISHED,
    }
    assert Match.objects.get(pk=playing.pk).result is None


def test_a_house_bot_seat_is_shown(admin_client: Client, player: Player) -> None:
    match = match_create(
        spec=match_spec(
            created_by=player, game="tute2", seats=[SeatSpec(player=player.handle), SeatSpec(bot="rule")]
        )
    )

    page = get_ok(admin_client, f"/admin/games/match/{match.pk}/change/")

    assert "rule" in page and player.handle in page
