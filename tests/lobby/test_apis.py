"""The lobby's API and the tables' API as people use them: seeks, the lobby and its stream, private
tables joined with their code, house bots for free seats, challenges waiting and rematches."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest
from rest_framework.test import APIClient

from games.models import Match, Player
from games.services import SeatSpec, match_create, match_spec
from lobby.models import Seek
from lobby.services import seeks_pair
from tests.factories import PlayerFactory
from tests.games.conftest import play_to_end

pytestmark = pytest.mark.django_db

Client = Callable[[Player], APIClient]


def test_a_seek_is_made_polled_matched_and_listed(client_for: Client) -> None:
    ana, ben = PlayerFactory(), PlayerFactory()
    # when: ana seeks a Tute 2 game
    made = client_for(ana).post("/api/v1/seeks/", {"game": "tute2", "bots_after_seconds": 60}, format="json")
    assert made.status_code == 201, made.content
    seek = made.json()
    assert seek["status"] == "waiting" and seek["players"] == 2 and seek["rating"] == 1500.0
    assert seek["window"] == 100 and seek["match"] is None
    # then: a second one for the same game is refused with the first's id
    again = client_for(ana).post("/api/v1/seeks/", {"game": "tute2"}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "seek_exists"
    assert again.json()["detail"] == {"seek": seek["id"]}
    # and: the lobby shows it, and nobody else sees ana's seek itself
    lobby = APIClient().get("/api/v1/lobby/").json()
    assert [s["seek"] for s in lobby["seeks"]] == [seek["id"]] and lobby["seeks"][0]["player"] == ana.handle
    assert client_for(ben).get(f"/api/v1/seeks/{seek['id']}/").status_code == 404
    # when: ben seeks the same and the worker pairs them
    client_for(ben).post("/api/v1/seeks/", {"game": "tute2"}, format="json")
    (match_id,) = seeks_pair().matches
    # then: ana's poll says where to play, and her list has it
    polled = client_for(ana).get(f"/api/v1/seeks/{seek['id']}/").json()
    assert polled["status"] == "matched" and polled["match"] == match_id
    listed = client_for(ana).get("/api/v1/seeks/").json()
    assert listed["count"] == 1 and listed["results"][0]["match"] == match_id
    assert client_for(ana).delete(f"/api/v1/seeks/{seek['id']}/").json()["code"] == "seek_matched"


def test_bad_seeks_get_a_clear_4xx_and_change_nothing(client_for: Client) -> None:
    ana = PlayerFactory()
    for body, code in (
        ({"game": "chess"}, "invalid"),
        ({"game": "tute4", "players": 3}, "invalid_seek"),
        ({"game": "tute2", "rating_min": 1800, "rating_max": 1200}, "invalid_seek"),
        ({"game": "tute2", "human_move_seconds": 0}, "invalid"),
        ({"game": "tute2", "bots_after_seconds": -1}, "invalid"),
    ):
        answer = client_for(ana).post("/api/v1/seeks/", body, format="json")
        assert 400 <= answer.status_code < 500 and answer.json()["code"] == code, (body, answer.content)
    assert not Seek.objects.exists()
    assert APIClient().post("/api/v1/seeks/", {"game": "tute2"}, format="json").status_code in (401, 403)


def test_a_cancelled_seek_leaves_the_lobby(client_for: Client) -> None:
    ana = PlayerFactory()
    seek = client_for(ana).post("/api/v1/seeks/", {"game": "pocha", "players": 3}, format="json").json()
    cancelled = client_for(ana).delete(f"/api/v1/seeks/{seek['id']}/")
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    assert APIClient().get("/api/v1/lobby/").json()["seeks"] == []


def test_the_lobby_lists_public_tables_with_free_seats_and_the_stream_sends_it(client_for: Client) -> None:
    ana = PlayerFactory()
    public = match_create(spec=match_spec(created_by=ana, game="tute2"))
    match_create(spec=match_spec(created_by=ana, game="tute2", private=True))
    tables = APIClient().get("/api/v1/lobby/").json()["tables"]
    assert [t["match"] for t in tables] == [public.pk]
    assert tables[0]["free_seats"] == [1] and tables[0]["seats"][0] == {
        "index": 0,
        "player": ana.handle,
        "house_bot": "",
        "rating": 1500,
    }
    # the stream: text/event-stream, one lobby event with the same body
    response = APIClient().get("/api/v1/lobby/stream/?max_seconds=1", HTTP_ACCEPT="text/event-stream")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/event-stream")
    body = b"".join(response.streaming_content).decode()
    event = next(block for block in body.split("\n\n") if block.startswith("event: lobby"))
    data = json.loads(event.split("data: ", 1)[1])
    assert [t["match"] for t in data["tables"]] == [public.pk]
    assert body.rstrip().endswith("event: bye\ndata: {}")


def test_a_private_table_over_the_api_shows_its_code_to_its_creator_only(client_for: Client) -> None:
    ana, ben = PlayerFactory(), PlayerFactory()
    made = client_for(ana).post("/api/v1/matches/", {"game": "tute2", "private": True}, format="json")
    assert made.status_code == 201
    table = made.json()
    code = table["invite_code"]
    assert table["private"] and code and table["invite_url"] == f"/join/{code}/"
    assert client_for(ben).get(f"/api/v1/matches/{table['id']}/").json()["invite_code"] is None
    refused = client_for(ben).post(
        f"/api/v1/matches/{table['id']}/join/", {"invite_code": "guess"}, format="json"
    )
    assert refused.status_code == 403 and refused.json()["code"] == "invite_required"
    joined = client_for(ben).post(
        f"/api/v1/matches/{table['id']}/join/", {"invite_code": code}, format="json"
    )
    assert joined.status_code == 200 and joined.json()["status"] == "in_progress"


def test_the_creator_seats_house_bots_over_the_api(client_for: Client) -> None:
    ana, ben = PlayerFactory(), PlayerFactory()
    table = (
        client_for(ana)
        .post(
            "/api/v1/matches/",
            {"game": "tute4", "seats": [{"player": ana.handle}, {}, {}, {}]},
            format="json",
        )
        .json()
    )
    assert (
        client_for(ben)
        .post(f"/api/v1/matches/{table['id']}/bots/", {"bot": "rule"}, format="json")
        .json()["code"]
        == "not_allowed"
    )
    bad = client_for(ana).post(f"/api/v1/matches/{table['id']}/bots/", {"bot": "genius"}, format="json")
    assert bad.status_code == 400
    filled = client_for(ana).post(
        f"/api/v1/matches/{table['id']}/bots/", {"bot": "rule", "seats": [1, 3]}, format="json"
    )
    assert filled.status_code == 200 and [s["house_bot"] for s in filled.json()["seats"]] == [
        "",
        "rule",
        "",
        "rule",
    ]
    client_for(ben).post(f"/api/v1/matches/{table['id']}/join/", {"seat": 2}, format="json")
    assert Match.objects.get(pk=table["id"]).status == Match.Status.IN_PROGRESS


def test_challenges_waiting_for_me_and_a_rematch_over_the_api(client_for: Client) -> None:
    ana, ben = PlayerFactory(), PlayerFactory()
    # given: a finished match between ana and ben
    first = match_create(
        spec=match_spec(
            created_by=ana,
            game="tute2",
            seats=[SeatSpec(player=ana.handle), SeatSpec(player=ben.handle)],
            challenge=False,
        )
    )
    play_to_end(first.pk, random.Random(5))
    # when: ana offers the rematch
    offered = client_for(ana).post(f"/api/v1/matches/{first.pk}/rematch/")
    assert offered.status_code == 201 and offered.json()["rematch_of"] == first.pk
    # then: ben sees it among the challenges waiting for him, and accepts by asking for the rematch
    waiting = client_for(ben).get("/api/v1/me/challenges/").json()
    assert [m["id"] for m in waiting["results"]] == [offered.json()["id"]]
    taken = client_for(ben).post(f"/api/v1/matches/{first.pk}/rematch/")
    assert taken.status_code == 200 and taken.json()["status"] == "in_progress"
    assert client_for(ben).get("/api/v1/me/challenges/").json()["count"] == 0
