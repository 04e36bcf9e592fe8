"""Abuse and hardening: sign-in throttling, the Content-Security-Policy, the sign-up race, bounded
query parameters and paged lists."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from tests.factories import PlayerFactory
from tournaments.models import Membership
from tournaments.services import Settings, club_create, membership_add, register, tournament_create

pytestmark = pytest.mark.django_db

PASSWORD = "pw-Caballo-de-copas-7"


@pytest.fixture(autouse=True)
def _static_without_manifest(settings: Any) -> None:
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture
def few_attempts(settings: Any) -> int:
    settings.AXES_FAILURE_LIMIT = 3
    return 3


@pytest.mark.parametrize("path", ["/login/", "/admin/login/"])
def test_sign_in_is_refused_for_an_account_after_too_many_wrong_passwords(
    few_attempts: int, path: str
) -> None:
    # given: a staff account (the admin's login takes staff only)
    User.objects.create_user(username="ana", password=PASSWORD, is_staff=True)
    browser = Client()

    # when: wrong passwords up to the limit, then the right one
    wrong = [browser.post(path, {"username": "ana", "password": f"guess-{i}"}) for i in range(few_attempts)]
    right = browser.post(path, {"username": "ana", "password": PASSWORD})

    # then: each wrong one is a form again (200), then 429 even with the right password
    assert [r.status_code for r in wrong[:-1]] == [200] * (few_attempts - 1)
    assert wrong[-1].status_code == 429
    assert right.status_code == 429 and "_auth_user_id" not in browser.session


def test_sign_in_is_refused_for_an_address_trying_many_accounts(few_attempts: int) -> None:
    for i in range(few_attempts + 1):
        User.objects.create_user(username=f"user-{i}", password=PASSWORD)
    browser = Client(REMOTE_ADDR="203.0.113.9")

    # when: one address tries one wrong password on each of several accounts
    answers = [
        browser.post("/login/", {"username": f"user-{i}", "password": "nope"}).status_code
        for i in range(few_attempts)
    ]
    # then: the address is paused, for an account it has not tried yet too; another address is not
    late = browser.post("/login/", {"username": f"user-{few_attempts}", "password": PASSWORD})
    other = Client(REMOTE_ADDR="198.51.100.7").post(
        "/login/", {"username": f"user-{few_attempts}", "password": PASSWORD}
    )
    assert answers[-1] == 429 and late.status_code == 429
    assert other.status_code == 302


def test_a_successful_sign_in_before_the_limit_resets_the_count(few_attempts: int) -> None:
    User.objects.create_user(username="eva", password=PASSWORD)
    browser = Client()
    for _ in range(few_attempts - 1):
        browser.post("/login/", {"username": "eva", "password": "wrong"})
    assert browser.post("/login/", {"username": "eva", "password": PASSWORD}).status_code == 302


def test_signing_into_ones_own_account_between_guesses_never_clears_a_victims_count(settings: Any) -> None:
    """Issue 30: 32 wrong guesses at a victim, signing into one's own account every 8, from one address,
    were never locked: the own success cleared every failure from that address."""
    settings.AXES_FAILURE_LIMIT = 10
    User.objects.create_user(username="victima", password=PASSWORD)
    User.objects.create_user(username="mallory", password=PASSWORD)
    attacker = Client(REMOTE_ADDR="203.0.113.66")

    guesses = []
    for i in range(32):
        guesses.append(attacker.post("/login/", {"username": "victima", "password": f"g-{i}"}).status_code)
        if i % 8 == 7:
            attacker.post("/login/", {"username": "mallory", "password": PASSWORD})
            attacker.post("/logout/")

    # then: the tenth guess and every later one are refused, and the victim's account stays paused
    assert guesses[:9] == [200] * 9 and set(guesses[9:]) == {429}
    assert (
        Client(REMOTE_ADDR="198.51.100.8")
        .post("/login/", {"username": "victima", "password": PASSWORD})
        .status_code
        == 429
    )


def test_a_success_clears_its_own_accounts_failures_not_the_addresses_others(few_attempts: int) -> None:
    User.objects.create_user(username="luis", password=PASSWORD)
    User.objects.create_user(username="marta", password=PASSWORD)
    browser = Client(REMOTE_ADDR="203.0.113.70")
    for _ in range(few_attempts - 1):
        browser.post("/login/", {"username": "luis", "password": "wrong"})
    assert browser.post("/login/", {"username": "marta", "password": PASSWORD}).status_code == 302
    browser.post("/logout/")

    # then: one more failure at luis reaches the limit; luis's own success had cleared it
    assert browser.post("/login/", {"username": "luis", "password": "wrong"}).status_code == 429


@pytest.mark.parametrize("path", ["/", "/login/", "/rules/", "/leaderboards/"])
def test_every_page_has_a_content_security_policy_of_its_own_files(path: str) -> None:
    response = Client().get(path)

    policy = response["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "script-src 'self'" in policy and "style-src 'self'" in policy
    assert "frame-ancestors 'none'" in policy and "unsafe-inline" not in policy
    page = response.content.decode()
    assert "<script>" not in page and " style=" not in page and " onchange=" not in page


def test_two_sign_ups_of_one_username_at_once_give_a_form_error(monkeypatch: pytest.MonkeyPatch) -> None:
    # given: another sign-up of "lola" commits between this form's check and its insert
    from web.forms import SignupForm

    checked = SignupForm.is_valid

    def is_valid_then_raced(form: SignupForm) -> bool:
        valid = checked(form)
        User.objects.create_user(username="lola")
        return valid

    monkeypatch.setattr(SignupForm, "is_valid", is_valid_then_raced)

    # when: this sign-up saves
    response = Client().post(
        "/signup/",
        {"username": "lola", "email": "lola@example.com", "password1": PASSWORD, "password2": PASSWORD},
    )

    # then: the form again with the username's error, not a 500; one "lola"
    assert response.status_code == 200
    assert "already exists" in response.content.decode()
    assert User.objects.filter(username="lola").count() == 1


@pytest.mark.parametrize("value", ["740000", "0", "-1", "3651"])
def test_active_days_out_of_range_is_a_400(value: str) -> None:
    response = APIClient().get(f"/api/v1/ratings/tute2/leaderboard/?active_days={value}")

    assert response.status_code == 400
    assert response.json()["code"] == "invalid" and "active_days" in response.json()["detail"]


def test_the_longest_active_days_is_answered() -> None:
    assert APIClient().get("/api/v1/ratings/tute2/leaderboard/?active_days=3650").status_code == 200


def test_club_members_and_tournament_lists_are_paged() -> None:
    # given: a club of 5 and a tournament of 5 entrants
    orga = PlayerFactory()
    club = club_create(name="Lugo", slug="lugo", by=orga)
    for _ in range(4):
        membership_add(club=club, by=orga, handle=PlayerFactory().handle, role=Membership.Role.MEMBER)
    t = tournament_create(
        club=club, by=orga, settings=Settings(name="Open", game="tute2", format="round_robin")
    )
    for _ in range(5):
        register(tournament_id=t.pk, player=PlayerFactory())
    api = APIClient()

    # then: each list answers pages of page_size, with the total
    for path in (
        "/api/v1/clubs/lugo/members/",
        f"/api/v1/tournaments/{t.pk}/entrants/",
        f"/api/v1/tournaments/{t.pk}/rounds/",
        f"/api/v1/tournaments/{t.pk}/matches/",
        f"/api/v1/tournaments/{t.pk}/corrections/",
    ):
        page = api.get(path, {"page_size": 2}).json()
        assert set(page) == {"count", "next", "previous", "results"}, path
        assert len(page["results"]) == min(2, page["count"]), path
    members = api.get("/api/v1/clubs/lugo/members/", {"page_size": 2, "page": 3}).json()
    assert members["count"] == 5 and len(members["results"]) == 1 and members["next"] is None
