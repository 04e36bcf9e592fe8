"""tute_site/middleware.py: messages belong to the website's pages; API requests go without them."""

from __future__ import annotations

import pytest
from django.contrib.messages import constants, get_messages
from django.contrib.messages.storage.cookie import CookieStorage
from django.http import HttpRequest, HttpResponse
from django.test import Client

pytestmark = pytest.mark.django_db


#: A request outside the API that needs no static files' manifest (the website's pages do).
OUTSIDE_THE_API = "/health/"


def test_an_api_request_has_no_message_storage_and_any_other_has_one() -> None:
    client = Client()

    api = client.get("/api/v1/matches/")
    page = client.get(OUTSIDE_THE_API)

    assert api.status_code == 200 and page.status_code == 200
    assert not hasattr(api.wsgi_request, "_messages")
    assert hasattr(page.wsgi_request, "_messages")


def message_cookie(text: str) -> str:
    """The value of Django's message cookie holding one message."""
    storage = CookieStorage(HttpRequest())
    storage.add(constants.INFO, text)
    response = HttpResponse()
    storage.update(response)
    return response.cookies[CookieStorage.cookie_name].value


def test_an_api_call_leaves_the_visitors_pending_message_for_the_next_page() -> None:
    # given: a visitor with a message the website has not shown yet
    client = Client()
    client.cookies[CookieStorage.cookie_name] = message_cookie("Bienvenido")

    # when: the visitor's page calls the API
    api = client.get("/api/v1/matches/")

    # then: the API's answer leaves the cookie alone, and the next page shows the message
    assert api.status_code == 200
    assert CookieStorage.cookie_name not in api.cookies
    page = client.get(OUTSIDE_THE_API)
    assert [str(m) for m in get_messages(page.wsgi_request)] == ["Bienvenido"]
