"""Signing up, logging in and out, starting a match against the house bots, managing bots."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.models import ApiToken, Match, Player
from games.tokens import token_digest
from tests.web.conftest import person

pytestmark = pytest.mark.django_db

PASSWORD = "s3cret-Baraja-40"


def test_signing_up_makes_an_account_and_a_player_and_logs_in(client: Client) -> None:
    response = client.post(
        reverse("web:signup"),
        {"username": "lucia", "email": "lucia@example.com", "password1": PASSWORD, "password2": PASSWORD},
    )

    assert response.status_code == 302 and response["Location"] == reverse("web:home")
    user = User.objects.get(username="lucia")
    assert Player.objects.get(user=user).handle == "lucia"
    assert "lucia" in client.get(reverse("web:home")).content.decode()  # signed in: the name in the header


def test_sign_up_shows_what_is_wrong(client: Client) -> None:
    response = client.post(
        reverse("web:signup"), {"username": "lucia", "password1": "abc", "password2": "abd"}
    )

    assert response.status_code == 200
    assert 'class="errorlist' in response.content.decode()
    assert not User.objects.filter(username="lucia").exists()


def test_log_in_and_out(client: Client) -> None:
    user = User.objects.create_user("pepe", password=PASSWORD)

    bad = client.post(reverse("web:login"), {"username": "pepe", "password": "wrong"})
    assert bad.status_code == 200 and "errorlist" in bad.content.decode()

    good = client.post(reverse("web:login"), {"username": "pepe", "password": PASSWORD})
    assert good.status_code == 302
    assert client.session["_auth_user_id"] == str(user.pk)

    out = client.post(reverse("web:logout"))
    assert out.status_code == 302 and "_auth_user_id" not in client.session


def test_play_needs_a_login(client: Client) -> None:
    response = client.get(reverse("web:play"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("web:login"))


@pytest.mark.parametrize(
    ("game", "players", "seats"), [("tute2", "", 2), ("tute4", "", 4), ("pocha", "", 4), ("pocha", "3", 3)]
)
def test_starting_a_match_against_house_bots(client: Client, game: str, players: str, seats: int) -> None:
    me = person("alice")
    client.force_login(me.user)

    response = client.post(reverse("web:play"), {"game": game, "bot": "rule", "players": players})

    match = Match.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("web:match", args=[match.pk])
    assert match.game == game and match.status == Match.Status.IN_PROGRESS
    assert [(s.player_id, s.bot_level) for s in match.seats.order_by("index")] == [(me.pk, "")] + [
        (None, "rule")
    ] * (seats - 1)


def test_the_play_form_shows_its_errors(client: Client) -> None:
    client.force_login(person("alice").user)

    response = client.post(reverse("web:play"), {"game": "pocha", "bot": "genius", "players": "9"})

    html = response.content.decode()
    assert response.status_code == 200 and html.count('class="errorlist') == 2
    assert not Match.objects.exists()


def test_creating_a_bot_shows_its_token_once(client: Client) -> None:
    me = person("alice")
    client.force_login(me.user)

    created = client.post(reverse("web:bots"), {"handle": "alice-bot", "display_name": "Alice's bot"})

    html = created.content.decode()
    token = re.search(r'<code id="token">([^<]+)</code>', html)
    assert token is not None
    bot = Player.objects.get(handle="alice-bot")
    assert bot.is_bot and bot.owner == me.user
    assert ApiToken.objects.filter(user=bot.user, digest=token_digest(token.group(1))).exists()
    again = client.get(reverse("web:bots")).content.decode()
    assert token.group(1) not in again and "alice-bot" in again


def test_a_taken_handle_is_a_form_error(client: Client) -> None:
    person("taken")
    client.force_login(person("alice").user)

    response = client.post(reverse("web:bots"), {"handle": "taken"})

    assert response.status_code == 200 and 'class="errorlist' in response.content.decode()
    assert 'id="token"' not in response.content.decode()


def test_rotating_a_token_revokes_the_old_one(client: Client) -> None:
    client.force_login(person("alice").user)
    first = re.search(
        r'<code id="token">([^<]+)</code>',
        client.post(reverse("web:bots"), {"handle": "b1"}).content.decode(),
    )
    assert first is not None

    rotated = client.post(reverse("web:bot-rotate", args=["b1"])).content.decode()

    second = re.search(r'<code id="token">([^<]+)</code>', rotated)
    assert second is not None and second.group(1) != first.group(1)
    digests = set(ApiToken.objects.filter(user__player__handle="b1").values_list("digest", flat=True))
    assert digests == {token_digest(second.group(1))}


def test_nobody_rotates_someone_elses_bot(client: Client) -> None:
    owner = Client()
    owner.force_login(person("owner").user)
    owner.post(reverse("web:bots"), {"handle": "theirs"})
    client.force_login(person("alice").user)
    before = set(ApiToken.objects.values_list("digest", flat=True))

    response = client.post(reverse("web:bot-rotate", args=["theirs"]), follow=True)

    assert response.status_code == 200 and 'id="token"' not in response.content.decode()
    assert set(ApiToken.objects.values_list("digest", flat=True)) == before


def test_a_short_pocha_from_the_form(client: Client) -> None:
    client.force_login(person("alice").user)

    client.post(
        reverse("web:play"),
        {
            "game": "pocha",
            "bot": "random",
            "players": "3",
            "pocha_sequence": "up_down",
            "pocha_max_cards": "2",
        },
    )

    match = Match.objects.get()
    assert match.num_players == 3
    assert match.options["pocha_sequence"] == "up_down" and match.options["pocha_max_cards"] == 2


def test_pocha_options_do_not_reach_tute(client: Client) -> None:
    client.force_login(person("alice").user)

    client.post(reverse("web:play"), {"game": "tute2", "bot": "random", "pocha_max_cards": "2"})

    assert Match.objects.get().options.get("pocha_max_cards") is None


# -- personal API tokens and the rules page (issue 17) ---------------------------------------------------


def test_a_person_creates_lists_and_revokes_personal_tokens(client: Client) -> None:
    # given: a signed-in person
    me = person("alice")
    client.force_login(me.user)

    # when: they create a token on the page
    created = client.post(reverse("web:tokens")).content.decode()

    # then: shown this once, it works on the API; the list shows its prefix only
    token = re.search(r'<code id="token">([^<]+)</code>', created)
    assert token is not None
    api = Client()
    assert api.get("/api/v1/me/", HTTP_AUTHORIZATION=f"Token {token.group(1)}").json()["handle"] == "alice"
    listed = client.get(reverse("web:tokens")).content.decode()
    assert token.group(1) not in listed and token.group(1)[:8] in listed

    # when: they revoke it
    row = ApiToken.objects.get(user=me.user)
    client.post(reverse("web:token-revoke", args=[row.pk]))

    # then: it no longer works, and is gone from the page
    assert not ApiToken.objects.filter(pk=row.pk).exists()
    assert api.get("/api/v1/me/", HTTP_AUTHORIZATION=f"Token {token.group(1)}").status_code == 401
    assert token.group(1)[:8] not in client.get(reverse("web:tokens")).content.decode()


def test_nobody_revokes_someone_elses_token(client: Client) -> None:
    from games.services import token_create

    token_create(user=person("bob").user)
    client.force_login(person("alice").user)
    client.post(reverse("web:token-revoke", args=[ApiToken.objects.get().pk]))
    assert ApiToken.objects.count() == 1


def test_the_rules_page_shows_docs_rules(client: Client) -> None:
    html = client.get(reverse("web:rules")).content.decode()
    assert "<h1" in html and "cante_before_draw" in html and "Fisher-Yates" in html
    assert "<table>" in html, "the flags table is rendered"
