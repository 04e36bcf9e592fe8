"""Accounts: an e-mail address at sign-up, and a forgotten password reset by a link sent by e-mail."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

pytestmark = pytest.mark.django_db

PASSWORD = "s3cret-Baraja-40"


def test_sign_up_asks_for_an_e_mail_address(client: Client) -> None:
    form = {"username": "lucia", "password1": PASSWORD, "password2": PASSWORD}
    assert "email" in client.post("/signup/", form).context["form"].errors
    response = client.post("/signup/", {**form, "email": "lucia@example.com"})
    assert response.status_code == 302
    assert User.objects.get(username="lucia").email == "lucia@example.com"


def test_a_forgotten_password_is_reset_through_the_mailed_link(client: Client, mailoutbox: Any) -> None:
    # given: a person who signed up with an address
    client.post(
        "/signup/",
        {"username": "lucia", "email": "lucia@example.com", "password1": PASSWORD, "password2": PASSWORD},
    )
    client.logout()
    assert 'href="/password-reset/"' in client.get("/login/").content.decode()

    # when: they ask for a reset with that address
    response = client.post("/password-reset/", {"email": "lucia@example.com"})

    # then: a mail with a one-time link goes to them
    assert response.status_code == 302 and response["Location"] == "/password-reset/sent/"
    assert len(mailoutbox) == 1 and mailoutbox[0].to == ["lucia@example.com"]
    link = re.search(r"http://testserver(/password-reset/\S+/\S+/)", mailoutbox[0].body)
    assert link is not None

    # and: the link lets them choose a new password, which then logs them in
    form_page = client.get(link.group(1), follow=True)
    assert form_page.context["validlink"]
    done = client.post(
        form_page.redirect_chain[-1][0],
        {"new_password1": "otra-Clave-77x", "new_password2": "otra-Clave-77x"},
    )
    assert done.status_code == 302 and done["Location"] == "/password-reset/done/"
    signed_in = client.post("/login/", {"username": "lucia", "password": "otra-Clave-77x"})
    assert signed_in.status_code == 302 and client.session.get("_auth_user_id")
    # and: the link works once
    assert not client.get(link.group(1), follow=True).context["validlink"]


def test_an_unknown_address_gets_the_same_answer_and_no_mail(client: Client, mailoutbox: Any) -> None:
    response = client.post("/password-reset/", {"email": "nobody@example.com"})
    assert response.status_code == 302 and mailoutbox == []


def test_the_bots_page_shows_the_header_the_example_and_links_to_the_docs(client: Client) -> None:
    from games.services import bot_create
    from tests.web.conftest import person

    ana = person("ana")
    bot_create(owner=ana.user, handle="robo")
    client.force_login(ana.user)
    html = client.get("/bots/").content.decode()
    assert "Authorization: Token" in html and "def choose(event: Event)" in html
    assert 'href="/docs/bots/"' in html
    docs = client.get("/docs/bots/")
    assert docs.status_code == 200 and "<h1" in docs.content.decode()
    assert client.get("/docs/secrets/").status_code == 404


def test_the_owner_switches_auto_accept_and_challenges_the_bot(client: Client) -> None:
    from games.models import Match, Player
    from games.services import bot_create
    from tests.web.conftest import person

    ana = person("ana")
    bot_create(owner=ana.user, handle="robo")
    client.force_login(ana.user)
    # when: auto-accept is turned on
    client.post("/bots/robo/auto-accept/", {"auto_accept": "1"})
    assert Player.objects.get(handle="robo").auto_accept
    # and: the owner challenges it to Tute 2
    response = client.post("/bots/robo/challenge/", {"game": "tute2"})
    # then: a match of the owner and the bot, accepted at once, and the page goes to it
    match = Match.objects.get(seats__player__handle="robo")
    assert response["Location"] == f"/matches/{match.pk}/"
    assert match.status == Match.Status.IN_PROGRESS
    # and: switched off again
    client.post("/bots/robo/auto-accept/", {"auto_accept": "0"})
    assert not Player.objects.get(handle="robo").auto_accept


def test_the_api_docs_need_no_cdn(client: Client) -> None:
    html = client.get("/api/v1/docs/").content.decode()
    assert "cdn" not in html.lower() and "swagger-ui" in html
