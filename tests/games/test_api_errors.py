"""Bad requests: every error is {"code", "message", "detail"}, a 4xx with a clear reason, and changes nothing.

The action endpoint is where a broken or hostile client does harm, so it gets every kind of bad body:
missing fields, wrong types, unknown codes, malformed JSON, other media types, oversized bodies.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Action, Match, Player
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

ERROR_KEYS = {"code", "message", "detail"}


def assert_error_shape(response: Any, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    body = response.json()
    assert set(body) == ERROR_KEYS, body
    assert isinstance(body["code"], str) and body["code"]
    assert isinstance(body["message"], str) and body["message"]
    return body


def state_of(match: Match) -> tuple[int, int, str]:
    match.refresh_from_db()
    return match.ply, Action.objects.filter(match=match).count(), match.status


@pytest.mark.parametrize(
    ("body", "status", "code", "field"),
    [
        ({}, 400, "invalid", "action"),
        ({"ply": 0}, 400, "invalid", "action"),
        ({"action": "{legal}"}, 400, "invalid", "ply"),
        ({"action": 5, "ply": 0}, 400, "invalid", "action"),
        ({"action": ["{legal}"], "ply": 0}, 400, "invalid", "action"),
        ({"action": {"play": "1O"}, "ply": 0}, 400, "invalid", "action"),
        ({"action": None, "ply": 0}, 400, "invalid", "action"),
        ({"action": "{legal}", "ply": "zero"}, 400, "invalid", "ply"),
        ({"action": "{legal}", "ply": "0"}, 400, "invalid", "ply"),
        ({"action": "{legal}", "ply": True}, 400, "invalid", "ply"),
        ({"action": "{legal}", "ply": False}, 400, "invalid", "ply"),
        ({"action": "{legal}", "ply": -1}, 400, "invalid", "ply"),
        ({"action": "{legal}", "ply": 0.5}, 400, "invalid", "ply"),
        ({"action": "{legal}", "ply": None}, 400, "invalid", "ply"),
        ({"action": "{legal}", "ply": [0]}, 400, "invalid", "ply"),
        ({"action": "play:" + "1" * 20, "ply": 0}, 400, "invalid", "action"),
        ({"action": "play 1O", "ply": 0}, 400, "invalid", "action"),
        ({"action": "play:1O;drop", "ply": 0}, 400, "invalid", "action"),
        ({"action": "fly:1O", "ply": 0}, 422, "illegal_action", None),
        ({"action": "play:13O", "ply": 0}, 422, "illegal_action", None),
        ({"action": "play:1X", "ply": 0}, 422, "illegal_action", None),
        ({"action": "bid:3", "ply": 0}, 422, "illegal_action", None),
        ({"action": "sing:tute", "ply": 0}, 422, "illegal_action", None),
        ({"action": "pass", "ply": 0}, 422, "illegal_action", None),
        ({"action": "{illegal exchange}", "ply": 0}, 422, "illegal_action", None),
    ],
)
def test_a_bad_action_body_is_refused_and_changes_nothing(
    started_match: Callable[..., Match],
    turn: Callable[..., Any],
    token_client: Callable[[Player], APIClient],
    body: dict[str, Any],
    status: int,
    code: str,
    field: str | None,
) -> None:
    # given: a Tute 2 at ply 0, and the seat to act
    match = started_match("tute2")
    now = turn(match.pk)
    if body.get("action") == "{legal}":
        body = {**body, "action": now.legal[0]}
    if body.get("action") == ["{legal}"]:
        body = {**body, "action": [now.legal[0]]}
    if body.get("action") == "{illegal exchange}":  # the swap of the 7 of a suit that is not trump
        swaps = (f"exchange:7{suit}" for suit in "OCEB")
        body = {**body, "action": next(code for code in swaps if code not in now.legal)}
    before = state_of(match)

    # when: it posts the bad body
    response = token_client(now.player).post(f"/api/v1/matches/{match.pk}/actions/", body, format="json")

    # then: a 4xx in the one error shape, naming the field or the engine's reason; nothing changed
    error = assert_error_shape(response, status)
    assert error["code"] == code
    if field is not None:
        assert field in error["detail"], error
    else:
        assert error["detail"]["reason"], error
    assert state_of(match) == before


@pytest.mark.parametrize(
    ("raw", "content_type", "status", "code"),
    [
        (b'{"action": "play:1O", "ply": ', "application/json", 400, "parse_error"),
        (b"\xff\xfe not json", "application/json", 400, "parse_error"),
        (b'["play:1O", 0]', "application/json", 400, "invalid"),
        (b'"play:1O"', "application/json", 400, "invalid"),
        (b"action=play%3A1O&ply=0", "application/x-www-form-urlencoded", 415, "unsupported_media_type"),
        (b"action,ply\nplay:1O,0\n", "text/csv", 415, "unsupported_media_type"),
    ],
)
def test_a_body_that_is_not_a_json_object_is_refused(
    started_match: Callable[..., Match],
    turn: Callable[..., Any],
    token_client: Callable[[Player], APIClient],
    raw: bytes,
    content_type: str,
    status: int,
    code: str,
) -> None:
    match = started_match("tute2")
    now = turn(match.pk)
    before = state_of(match)

    response = token_client(now.player).generic(
        "POST", f"/api/v1/matches/{match.pk}/actions/", raw, content_type=content_type
    )

    assert assert_error_shape(response, status)["code"] == code
    assert state_of(match) == before


def test_an_oversized_body_is_a_413_and_changes_nothing(
    started_match: Callable[..., Match], turn: Callable[..., Any], token_client: Callable[[Player], APIClient]
) -> None:
    # given: a legal move padded past the 16 KiB limit
    match = started_match("tute2")
    now = turn(match.pk)
    body = json.dumps({"action": now.legal[0], "ply": 0, "padding": "x" * 20_000})
    before = state_of(match)

    response = token_client(now.player).generic(
        "POST", f"/api/v1/matches/{match.pk}/actions/", body, content_type="application/json"
    )

    assert assert_error_shape(response, 413)["code"] == "request_too_large"
    assert state_of(match) == before


def test_an_oversized_body_is_refused_on_create_too(token_client: Callable[[Player], APIClient]) -> None:
    body = json.dumps({"game": "tute2", "options": {f"flag{i}": True for i in range(2000)}})

    response = token_client(PlayerFactory()).generic(
        "POST", "/api/v1/matches/", body, content_type="application/json"
    )

    assert assert_error_shape(response, 413)["code"] == "request_too_large"
    assert not Match.objects.exists()


def test_a_wrong_method_is_a_405_in_the_error_shape(
    started_match: Callable[..., Match], token_client: Callable[[Player], APIClient]
) -> None:
    match = started_match("tute2")
    client = token_client(PlayerFactory())

    assert (
        assert_error_shape(client.delete(f"/api/v1/matches/{match.pk}/"), 405)["code"] == "method_not_allowed"
    )
    assert (
        assert_error_shape(client.get(f"/api/v1/matches/{match.pk}/actions/"), 405)["code"]
        == "method_not_allowed"
    )
    assert Match.objects.filter(pk=match.pk).exists()


@pytest.mark.parametrize(
    "header",
    ["Token", "Token not-a-real-token", "Token a b", "token " + "x" * 43, "Token \u00e9\u00e8"],
)
def test_a_bad_token_is_a_401_in_the_error_shape(
    started_match: Callable[..., Match], turn: Callable[..., Any], header: str
) -> None:
    match = started_match("tute2")
    now = turn(match.pk)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=header)
    before = state_of(match)

    response = client.post(
        f"/api/v1/matches/{match.pk}/actions/", {"action": now.legal[0], "ply": 0}, format="json"
    )

    assert assert_error_shape(response, 401)["code"] == "authentication_failed"
    assert state_of(match) == before


def test_an_unknown_api_path_is_a_404_in_the_error_shape() -> None:
    """Every error of the API has one JSON shape, a path the API does not have included."""
    response = APIClient().get("/api/v1/no-such-thing/")

    assert assert_error_shape(response, 404)["code"] == "not_found"
