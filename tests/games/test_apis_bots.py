"""Bots, tokens and who a token speaks for: /api/v1/bots/, /api/v1/me/, /api/v1/me/tokens/."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Action, ApiToken, Match, Player
from games.services import SeatSpec, match_create, match_spec
from tests.factories import BotPlayerFactory, PlayerFactory, token_for

pytestmark = pytest.mark.django_db

ClientFor = Callable[[Player], APIClient]


def with_token(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def every_stored_value() -> list[str]:
    """Every value of every column of every token row, as text."""
    return [str(value) for row in ApiToken.objects.values() for value in row.values()]


def test_create_a_bot_returns_its_token_once(player: Player, session_client: ClientFor) -> None:
    client = session_client(player)

    # when: a person creates a bot account
    response = client.post("/api/v1/bots/", {"handle": "robo", "display_name": "Robo"}, format="json")

    # then: 201 with the bot, labelled a bot, and a token that works
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["bot"]["handle"] == "robo" and body["bot"]["is_bot"] is True
    token = body["token"]
    me = with_token(token).get("/api/v1/me/").json()
    assert me == {"handle": "robo", "display_name": "Robo", "is_bot": True}
    # and: the database keeps its SHA-256 digest, never the token
    assert ApiToken.objects.filter(digest=hashlib.sha256(token.encode()).hexdigest()).exists()
    assert not any(token in value for value in every_stored_value())
    # and: the token is not shown again
    listed = client.get("/api/v1/bots/")
    assert token not in listed.content.decode()


def test_list_shows_only_the_callers_bots(player: Player, session_client: ClientFor) -> None:
    mine = [BotPlayerFactory(owner=player.user, handle=h) for h in ("b-two", "b-one")]
    BotPlayerFactory(handle="not-mine")

    body = session_client(player).get("/api/v1/bots/").json()

    assert body["count"] == 2
    assert [b["handle"] for b in body["results"]] == sorted(b.handle for b in mine)
    assert all(b["is_bot"] for b in body["results"])


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({}, 400, "invalid"),
        ({"handle": "has spaces"}, 400, "invalid"),
        ({"handle": "x" * 33}, 400, "invalid"),
        ({"handle": "ok", "display_name": "y" * 65}, 400, "invalid"),
        ({"handle": "taken"}, 409, "handle_taken"),
    ],
)
def test_create_a_bot_refuses_bad_input(
    player: Player, session_client: ClientFor, body: dict[str, Any], status: int, code: str
) -> None:
    PlayerFactory(handle="taken")
    before = Player.objects.count()

    response = session_client(player).post("/api/v1/bots/", body, format="json")

    assert response.status_code == status, response.content
    assert response.json()["code"] == code
    assert Player.objects.count() == before


def test_bots_need_a_signed_in_caller(anon_client: APIClient) -> None:
    assert anon_client.get("/api/v1/bots/").status_code == 401
    assert anon_client.post("/api/v1/bots/", {"handle": "x"}, format="json").status_code == 401
    assert anon_client.get("/api/v1/me/").status_code == 401
    assert anon_client.post("/api/v1/me/tokens/").status_code == 401
    assert not Player.objects.exists()


def test_rotating_a_token_stops_the_old_one(player: Player, session_client: ClientFor) -> None:
    # given: a bot and its first token
    client = session_client(player)
    old = client.post("/api/v1/bots/", {"handle": "rot"}, format="json").json()["token"]
    assert with_token(old).get("/api/v1/me/").status_code == 200

    # when: its owner rotates the token
    response = client.post("/api/v1/bots/rot/token/")

    # then: the new token works and the old one is refused
    assert response.status_code == 200
    new = response.json()["token"]
    assert new != old
    assert with_token(new).get("/api/v1/me/").json()["handle"] == "rot"
    refused = with_token(old).get("/api/v1/me/")
    assert refused.status_code == 401 and refused.json()["code"] == "authentication_failed"


def test_only_the_owner_rotates_a_bots_token(player: Player, session_client: ClientFor) -> None:
    bot = BotPlayerFactory()

    response = session_client(player).post(f"/api/v1/bots/{bot.handle}/token/")

    assert response.status_code == 404 and response.json()["code"] == "not_a_bot"
    response = session_client(player).post(f"/api/v1/bots/{player.handle}/token/")
    assert response.status_code == 404


def test_bot_settings_auto_accept(player: Player, session_client: ClientFor) -> None:
    client = session_client(player)
    client.post("/api/v1/bots/", {"handle": "eager"}, format="json")

    response = client.patch("/api/v1/bots/eager/", {"auto_accept": True}, format="json")

    assert response.status_code == 200 and response.json()["auto_accept"] is True
    assert Player.objects.get(handle="eager").auto_accept
    other = session_client(PlayerFactory()).patch(
        "/api/v1/bots/eager/", {"auto_accept": False}, format="json"
    )
    assert other.status_code == 404
    assert Player.objects.get(handle="eager").auto_accept


def test_me_and_a_personal_token(player: Player, session_client: ClientFor) -> None:
    client = session_client(player)

    me = client.get("/api/v1/me/").json()
    response = client.post("/api/v1/me/tokens/")

    assert me == {"handle": player.handle, "display_name": player.display_name, "is_bot": False}
    assert response.status_code == 201
    token = response.json()["token"]
    assert with_token(token).get("/api/v1/me/").json() == me
    assert not any(token in value for value in every_stored_value())


def test_a_token_of_a_deactivated_account_is_refused(player: Player, token_client: ClientFor) -> None:
    client = token_client(player)
    player.user.is_active = False
    player.user.save()

    assert client.get("/api/v1/me/").status_code == 401


def test_a_token_acts_only_for_its_own_seats(
    player: Player, session_client: ClientFor, turn: Callable[..., Any]
) -> None:
    # given: a person with a bot account plays a Tute 2 against a house bot, and leads (seat 1)
    client = session_client(player)
    bot_token = client.post("/api/v1/bots/", {"handle": "helper"}, format="json").json()["token"]
    match = match_create(
        spec=match_spec(
            created_by=player, game="tute2", seats=[SeatSpec(bot="random"), SeatSpec(player=player.handle)]
        )
    )
    now = turn(match.pk)
    assert now.player == player, "the mano (seat 1, the person) leads"

    # when: the person's bot token tries to move for its owner's seat
    response = with_token(bot_token).post(
        f"/api/v1/matches/{match.pk}/actions/", {"action": now.legal[0], "ply": 0}, format="json"
    )

    # then: refused, for the bot has no seat there; nothing changed
    assert response.status_code == 403 and response.json()["code"] == "not_seated"
    assert not Action.objects.filter(match=match).exists()
    # and: the bot's token sees only the spectator's view of that match
    view = with_token(bot_token).get(f"/api/v1/matches/{match.pk}/view/").json()
    assert view["seat"] is None and view["view"]["hand"] == []


def test_a_bot_plays_its_own_seat_with_its_token(
    player: Player, session_client: ClientFor, turn: Callable[..., Any]
) -> None:
    # given: a person's bot seated at the mano's seat of a Tute 2 against its owner
    client = session_client(player)
    created = client.post("/api/v1/bots/", {"handle": "mine"}, format="json").json()
    bot = Player.objects.get(handle="mine")
    match = match_create(
        spec=match_spec(
            created_by=player,
            game="tute2",
            seats=[SeatSpec(player=player.handle), SeatSpec(player=bot.handle)],
        )
    )
    accepted = with_token(created["token"]).post(f"/api/v1/matches/{match.pk}/accept/")
    assert accepted.json()["status"] == Match.Status.IN_PROGRESS
    now = turn(match.pk)
    assert now.player == bot

    # then: the owner's session cannot move for the bot's seat; the bot's token can
    wrong = client.post(
        f"/api/v1/matches/{match.pk}/actions/", {"action": now.legal[0], "ply": 0}, format="json"
    )
    assert wrong.status_code == 409 and wrong.json()["code"] == "not_your_turn"
    right = with_token(created["token"]).post(
        f"/api/v1/matches/{match.pk}/actions/", {"action": now.legal[0], "ply": 0}, format="json"
    )
    assert right.status_code == 200
    assert Action.objects.get(match=match).player == bot


# -- personal tokens over the API (issue 17) -------------------------------------------------------------


@pytest.mark.django_db
def test_a_first_personal_token_with_the_session_needs_the_csrf_header() -> None:
    from django.contrib.auth.models import User
    from django.test import Client

    carla = User.objects.create_user(username="carla", password="pw-Sota-de-oros-1")
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(carla)

    # without the header: refused, nothing made
    refused = browser.post("/api/v1/me/tokens/")
    assert refused.status_code == 403 and "CSRF" in refused.json()["message"]
    assert not ApiToken.objects.exists()

    # with the csrftoken cookie's value in X-CSRFToken: a token, listed (prefix only), and revocable
    csrf = "Sota" * 8  # as a page of the site would have set it: a 32-character secret in the cookie
    browser.cookies["csrftoken"] = csrf
    made = browser.post("/api/v1/me/tokens/", {}, content_type="application/json", HTTP_X_CSRFTOKEN=csrf)
    assert made.status_code == 201
    token = made.json()["token"]
    (row,) = browser.get("/api/v1/me/tokens/").json()["results"]
    assert row["prefix"] == token[:8] and "token" not in row
    app = Client()
    assert app.get("/api/v1/me/tokens/", HTTP_AUTHORIZATION=f"Token {token}").status_code == 200
    assert (
        app.delete(f"/api/v1/me/tokens/{row['id']}/", HTTP_AUTHORIZATION=f"Token {token}").status_code == 204
    )
    assert app.get("/api/v1/me/", HTTP_AUTHORIZATION=f"Token {token}").status_code == 401
    gone = browser.delete(f"/api/v1/me/tokens/{row['id']}/", HTTP_X_CSRFTOKEN=csrf)
    assert (gone.status_code, gone.json()["code"]) == (404, "token_not_found")


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("post", "/api/v1/bots/", {"handle": "chained"}),
        ("get", "/api/v1/bots/", None),
        ("post", "/api/v1/me/tokens/", None),
        ("get", "/api/v1/me/tokens/", None),
        ("delete", "/api/v1/me/tokens/{token_id}/", None),
        ("post", "/api/v1/bots/{handle}/token/", None),
        ("patch", "/api/v1/bots/{handle}/", {"auto_accept": True}),
        ("post", "/api/v1/clubs/", {"name": "Bots", "slug": "bots"}),
    ],
)
def test_a_bot_owns_nothing(method: str, path: str, body: dict | None) -> None:
    # given: a bot account acting with its own token
    bot = BotPlayerFactory()
    token = token_for(bot)
    token_id = ApiToken.objects.get(user=bot.user).pk
    rows_before = (Player.objects.count(), ApiToken.objects.count())

    # when: it tries to own bots, tokens or clubs, or to see or revoke tokens
    url = path.format(token_id=token_id, handle=bot.handle)
    response = getattr(with_token(token), method)(url, body, format="json")

    # then: 403 people_only, nothing made or removed
    assert (response.status_code, response.json()["code"]) == (403, "people_only")
    assert (Player.objects.count(), ApiToken.objects.count()) == rows_before


def test_a_person_lists_and_revokes_their_own_tokens(player: Player, session_client: ClientFor) -> None:
    client = session_client(player)
    token = client.post("/api/v1/me/tokens/").json()["token"]

    listed = client.get("/api/v1/me/tokens/")
    (row,) = listed.json()["results"]
    revoked = client.delete(f"/api/v1/me/tokens/{row['id']}/")

    assert row["prefix"] == token[:8]
    assert revoked.status_code == 204
    assert with_token(token).get("/api/v1/me/").status_code == 401


def test_every_api_answer_showing_a_token_is_never_stored(player: Player, session_client: ClientFor) -> None:
    client = session_client(player)
    created = client.post("/api/v1/bots/", {"handle": "secretive"}, format="json")
    rotated = client.post("/api/v1/bots/secretive/token/")
    personal = client.post("/api/v1/me/tokens/")

    for response in [created, rotated, personal]:
        assert response.status_code in (200, 201)
        assert "no-store" in response["Cache-Control"]
