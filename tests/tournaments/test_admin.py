"""The tournaments admin: every screen renders, organisers see their own clubs only, actions use the services."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from pytest_django import Settings

from games.models import Player
from tests.factories import UserFactory
from tests.tournaments.conftest import better_seed, decide, new_player, playing, refreshed
from tournaments.models import Club, Correction, Round, Tournament, TournamentMatch
from tournaments.services import club_create, result_correct, tournament_start

pytestmark = pytest.mark.django_db


@pytest.fixture
def static_files(settings: Settings) -> None:
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


def get_ok(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


@pytest.fixture
def played(make_tournament: Callable[..., Tournament], enter: Callable, organiser: Player) -> Tournament:
    """A finished four-player tournament with one correction."""
    t = make_tournament(name="Copa de Lugo")
    enter(t, 2)
    tournament_start(tournament_id=t.pk, by=organiser)
    (tm,) = playing(t)
    decide(tm, better_seed(tm))
    loser = next(s.entrant_id for s in tm.slots.all() if s.entrant_id != tm.winner_id)
    result_correct(
        tournament_id=t.pk, tournament_match_id=tm.pk, by=organiser, winner=loser, reason="scoring slip"
    )
    return t


def test_every_changelist_and_change_page_renders_for_a_superuser(
    static_files: None, played: Tournament
) -> None:
    client = Client()
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    pages = {
        "club": Club.objects.first(),
        "tournament": played,
        "round": Round.objects.first(),
        "tournamentmatch": TournamentMatch.objects.first(),
        "correction": Correction.objects.first(),
    }
    for name, obj in pages.items():
        assert obj is not None
        get_ok(client, f"/admin/tournaments/{name}/")
        page = get_ok(client, f"/admin/tournaments/{name}/{obj.pk}/change/")
        if name == "tournament":
            assert "Copa de Lugo" in page and "passcode" not in page
    # the match page links the games match
    assert "/admin/games/match/" in get_ok(
        client, f"/admin/tournaments/round/{Round.objects.get().pk}/change/"
    )


def test_an_organiser_sees_their_own_clubs_tournaments_only(
    static_files: None, played: Tournament, organiser: Player
) -> None:
    # given: a second club with a tournament, organised by someone else
    other = club_create(name="Ourense", slug="ourense", by=new_player())
    organiser.user.is_staff = True
    organiser.user.save()
    organiser.user.user_permissions.set(Permission.objects.filter(content_type__app_label="tournaments"))
    client = Client()
    client.force_login(organiser.user)

    # then: their club and tournament are listed; the other club is not
    clubs = get_ok(client, "/admin/tournaments/club/")
    assert "Casino de Lugo" in clubs and "Ourense" not in clubs
    assert "Copa de Lugo" in get_ok(client, "/admin/tournaments/tournament/")
    assert (
        client.get(f"/admin/tournaments/club/{other.pk}/change/").status_code == 302
    )  # not found: redirected


def test_the_start_action_goes_through_the_service(
    static_files: None, make_tournament: Callable[..., Tournament], enter: Callable, organiser: Player
) -> None:
    t = make_tournament(name="Admin start")
    enter(t, 2)
    organiser.user.is_staff = organiser.user.is_superuser = True
    organiser.user.save()
    client = Client()
    client.force_login(organiser.user)
    response = client.post(
        "/admin/tournaments/tournament/", {"action": "start", "_selected_action": [t.pk]}, follow=True
    )
    assert response.status_code == 200
    assert refreshed(t).status == "running"
