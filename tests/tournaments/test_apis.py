"""The tournaments API: clubs, tournaments, entries, the start, rounds, matches, standings, the bracket and
corrections; organiser-only operations; machine-readable error codes; nothing half-applied."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest
from django.core.management import call_command
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Player
from tests.tournaments.conftest import advance, better_seed, decide, new_player, playing, refreshed
from tournaments.models import Club, Entrant, Tournament, TournamentMatch
from tournaments.services import tournaments_sweep

pytestmark = pytest.mark.django_db


@pytest.fixture
def client_for() -> Callable[[Player | None], APIClient]:
    def make(player: Player | None) -> APIClient:
        client = APIClient()
        if player is not None:
            client.force_authenticate(user=player.user)
        return client

    return make


@pytest.fixture
def orga_api(client_for: Callable, organiser: Player, club: Club) -> APIClient:
    return client_for(organiser)


def create(api: APIClient, **fields: object) -> dict:
    body = {"club": "lugo", "name": "Open", "game": "tute2", "format": "single_elim", **fields}
    response = api.post("/api/v1/tournaments/", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


# -- clubs --------------------------------------------------------------------------------------------------------


def test_clubs_are_created_listed_and_joined(client_for: Callable) -> None:
    founder, member = new_player(), new_player()
    api = client_for(founder)
    created = api.post("/api/v1/clubs/", {"name": "Ateneo", "slug": "ateneo"}, format="json")
    assert created.status_code == 201 and created.json()["slug"] == "ateneo"
    again = api.post("/api/v1/clubs/", {"name": "Ateneo 2", "slug": "ateneo"}, format="json")
    assert (again.status_code, again.json()["code"]) == (409, "club_slug_taken")

    added = api.post("/api/v1/clubs/ateneo/members/", {"player": member.handle}, format="json")
    assert added.status_code == 201 and added.json()["role"] == "member"
    refused = client_for(member).post(
        "/api/v1/clubs/ateneo/members/", {"player": founder.handle}, format="json"
    )
    assert (refused.status_code, refused.json()["code"]) == (403, "not_organiser")

    anon = client_for(None)
    listing = anon.get("/api/v1/clubs/").json()
    assert [c["slug"] for c in listing["results"]] == ["ateneo"] and listing["results"][0]["members"] == 2
    members = anon.get("/api/v1/clubs/ateneo/members/").json()["results"]
    assert {m["player"]: m["role"] for m in members} == {founder.handle: "organiser", member.handle: "member"}
    assert anon.get("/api/v1/clubs/nowhere/").json()["code"] == "club_not_found"
    assert anon.post("/api/v1/clubs/", {"name": "x", "slug": "x"}, format="json").status_code in (401, 403)


# -- tournaments ------------------------------------------------------------------------------------------------------


def test_an_organiser_creates_a_tournament_and_anyone_reads_it(
    orga_api: APIClient, client_for: Callable
) -> None:
    body = create(
        orga_api,
        format="swiss",
        swiss_rounds=5,
        match_format="best_of",
        match_target=3,
        tie_breaks=["buchholz", "head_to_head"],
        registration="passcode",
        passcode="oros",
    )
    assert (body["format"], body["swiss_rounds"], body["match_target"], body["status"]) == (
        "swiss",
        5,
        3,
        "registration",
    )
    assert body["tie_breaks"] == ["buchholz", "head_to_head"]
    assert "passcode" not in body and "passcode_hash" not in body
    got = client_for(None).get(f"/api/v1/tournaments/{body['id']}/")
    assert got.status_code == 200 and got.json()["name"] == "Open"


def test_a_member_who_does_not_organise_cannot_create(client_for: Callable, club: Club) -> None:
    response = client_for(new_player()).post(
        "/api/v1/tournaments/",
        {"club": "lugo", "name": "x", "game": "tute2", "format": "swiss", "swiss_rounds": 3},
        format="json",
    )
    assert (response.status_code, response.json()["code"]) == (403, "not_organiser")
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    ("fields", "code", "where"),
    [
        ({"format": "knockout"}, "invalid", "format"),
        ({"format": "swiss"}, "invalid_tournament", "problems"),
        ({"tie_breaks": ["coin_toss"]}, "invalid", "tie_breaks"),
        (
            {"game": "pocha", "format": "pocha_tables", "table_size": 7, "pocha_rounds": 2},
            "invalid",
            "table_size",
        ),
    ],
)
def test_bad_settings_get_400_with_a_code(orga_api: APIClient, fields: dict, code: str, where: str) -> None:
    body = {"club": "lugo", "name": "Open", "game": "tute2", "format": "single_elim", **fields}
    response = orga_api.post("/api/v1/tournaments/", body, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == code and where in json.dumps(response.json()["detail"])
    assert not Tournament.objects.exists()


def test_tournaments_are_listed_filtered_and_paginated(orga_api: APIClient, client_for: Callable) -> None:
    for i in range(3):
        create(orga_api, name=f"Elim {i}")
    create(orga_api, name="Pocha night", game="pocha", format="pocha_tables", table_size=5, pocha_rounds=3)
    anon = client_for(None)
    page = anon.get("/api/v1/tournaments/?page_size=2").json()
    assert page["count"] == 4 and len(page["results"]) == 2 and page["next"]
    pocha = anon.get("/api/v1/tournaments/?game=pocha&club=lugo").json()
    assert [t["name"] for t in pocha["results"]] == ["Pocha night"]
    assert anon.get("/api/v1/tournaments/?status=finished").json()["count"] == 0
    assert anon.get("/api/v1/tournaments/?status=nonsense").status_code == 400


def test_settings_are_replaced_before_the_start(orga_api: APIClient, client_for: Callable) -> None:
    t = create(orga_api)
    body = {"name": "Renamed", "game": "tute2", "format": "round_robin", "double_round_robin": True}
    response = orga_api.put(f"/api/v1/tournaments/{t['id']}/", body, format="json")
    assert response.status_code == 200 and response.json()["double_round_robin"] is True
    other = client_for(new_player()).put(f"/api/v1/tournaments/{t['id']}/", body, format="json")
    assert other.json()["code"] == "not_organiser"


@pytest.mark.parametrize("body", ["[]", '"x"', "1", "null"])
def test_settings_replaced_with_a_body_that_is_not_an_object_get_400(orga_api: APIClient, body: str) -> None:
    """Issue 30: a JSON body that is not an object answered 500 here, where every other write says 400."""
    t = create(orga_api)
    response = orga_api.put(f"/api/v1/tournaments/{t['id']}/", body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid" and response.json()["detail"]["non_field_errors"]
    assert orga_api.get(f"/api/v1/tournaments/{t['id']}/").json()["name"] == t["name"]


# -- entries, check-in, house bots, the start --------------------------------------------------------------------------


def test_register_with_passcode_partner_and_duplicates(orga_api: APIClient, client_for: Callable) -> None:
    t = create(orga_api, game="tute4", registration="passcode", passcode="copas")
    a, b = new_player(), new_player()
    api = client_for(a)
    url = f"/api/v1/tournaments/{t['id']}/register/"
    wrong = api.post(url, {"passcode": "espadas", "partner": b.handle}, format="json")
    assert (wrong.status_code, wrong.json()["code"]) == (403, "wrong_passcode")
    ok = api.post(url, {"passcode": "copas", "partner": b.handle}, format="json")
    assert ok.status_code == 201 and ok.json()["players"] == [a.handle, b.handle]
    twice = client_for(b).post(url, {"passcode": "copas"}, format="json")
    assert (twice.status_code, twice.json()["code"]) == (409, "already_registered")
    entrants = client_for(None).get(f"/api/v1/tournaments/{t['id']}/entrants/").json()["results"]
    assert len(entrants) == 1


def test_check_in_window_and_codes(orga_api: APIClient, client_for: Callable) -> None:
    now = timezone.now()
    t = create(
        orga_api,
        check_in_opens_at=(now + timedelta(hours=1)).isoformat(),
        check_in_closes_at=(now + timedelta(hours=2)).isoformat(),
    )
    p = new_player()
    api = client_for(p)
    assert api.post(f"/api/v1/tournaments/{t['id']}/check-in/").json()["code"] == "not_entered"
    api.post(f"/api/v1/tournaments/{t['id']}/register/", {}, format="json")
    early = api.post(f"/api/v1/tournaments/{t['id']}/check-in/")
    assert (early.status_code, early.json()["code"]) == (409, "check_in_closed")


def test_an_organiser_fills_bots_and_starts_and_everyone_follows_the_rounds(
    orga_api: APIClient, client_for: Callable, organiser: Player
) -> None:
    # given: two people and two house bots in a single elimination with a third-place match
    t = create(orga_api, third_place=True, tie_breaks=["games_won"])
    tid = t["id"]
    people = [new_player(), new_player()]
    for p in people:
        assert (
            client_for(p).post(f"/api/v1/tournaments/{tid}/register/", {}, format="json").status_code == 201
        )
    bots = orga_api.post(f"/api/v1/tournaments/{tid}/bots/", {"level": "rule", "count": 2}, format="json")
    assert bots.status_code == 201 and [e["house_bots"] for e in bots.json()] == [["rule"], ["rule"]]
    refused = client_for(people[0]).post(f"/api/v1/tournaments/{tid}/start/", {}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (403, "not_organiser")

    # when: the organiser starts it
    started = orga_api.post(f"/api/v1/tournaments/{tid}/start/", {}, format="json")

    # then: it runs; round 1 has two matches linked to games matches
    assert started.status_code == 200 and (started.json()["status"], started.json()["current_round"]) == (
        "running",
        1,
    )
    anon = client_for(None)
    rounds = anon.get(f"/api/v1/tournaments/{tid}/rounds/").json()["results"]
    assert [r["number"] for r in rounds] == [1] and len(rounds[0]["matches"]) == 2
    first = rounds[0]["matches"][0]
    assert first["kind"] == "match" and first["status"] == "playing" and first["match_id"]
    assert anon.get(f"/api/v1/matches/{first['match_id']}/").json()["status"] == "in_progress"
    assert len(anon.get(f"/api/v1/tournaments/{tid}/matches/?round=1").json()["results"]) == 2
    one = anon.get(f"/api/v1/tournaments/{tid}/matches/{first['id']}/").json()
    assert one["code"] == first["code"]
    assert (
        anon.get(f"/api/v1/tournaments/{tid}/matches/999999/").json()["code"] == "tournament_match_not_found"
    )
    bracket = anon.get(f"/api/v1/tournaments/{tid}/bracket/").json()
    assert bracket["kind"] == "single" and bracket["size"] == 4
    assert [s["section"] for s in bracket["sections"]] == ["W", "3P"]
    assert [len(r) for r in bracket["sections"][0]["rounds"]] == [2, 1]
    standings = anon.get(f"/api/v1/tournaments/{tid}/standings/").json()
    assert len(standings) == 4 and set(standings[0]["tie_breaks"]) == {"games_won"}
    again = orga_api.post(f"/api/v1/tournaments/{tid}/start/", {}, format="json")
    assert (again.status_code, again.json()["code"]) == (409, "wrong_status")


def test_a_bracket_is_for_elimination_only(orga_api: APIClient, client_for: Callable) -> None:
    t = create(orga_api, format="round_robin")
    response = client_for(None).get(f"/api/v1/tournaments/{t['id']}/bracket/")
    assert (response.status_code, response.json()["code"]) == (404, "no_bracket")


def test_withdraw_self_or_by_the_organiser(orga_api: APIClient, client_for: Callable) -> None:
    t = create(orga_api)
    a, b = new_player(), new_player()
    for p in (a, b):
        client_for(p).post(f"/api/v1/tournaments/{t['id']}/register/", {}, format="json")
    mine = client_for(a).post(f"/api/v1/tournaments/{t['id']}/withdraw/", {}, format="json")
    assert mine.status_code == 200 and mine.json()["status"] == "withdrawn"
    theirs = Entrant.objects.get(player=b)
    other = client_for(a).post(
        f"/api/v1/tournaments/{t['id']}/withdraw/", {"entrant": theirs.pk}, format="json"
    )
    assert other.json()["code"] == "not_organiser"
    done = orga_api.post(f"/api/v1/tournaments/{t['id']}/withdraw/", {"entrant": theirs.pk}, format="json")
    assert done.json()["status"] == "withdrawn"


# -- corrections --------------------------------------------------------------------------------------------------------------


def test_a_correction_flows_on_or_is_refused_with_the_blocking_matches(
    orga_api: APIClient, client_for: Callable, organiser: Player
) -> None:
    # given: four players, round 1 decided by seed and round 2 (the final) started
    t = create(orga_api)
    tid = t["id"]
    for _ in range(4):
        client_for(new_player()).post(f"/api/v1/tournaments/{tid}/register/", {}, format="json")
    orga_api.post(f"/api/v1/tournaments/{tid}/start/", {}, format="json")
    tournament = Tournament.objects.get(pk=tid)
    for tm in playing(tournament):
        decide(tm, better_seed(tm))
    w11 = TournamentMatch.objects.get(tournament=tournament, code="W1.1")
    loser = next(s.entrant_id for s in w11.slots.all() if s.entrant_id != w11.winner_id)
    advance(tournament)
    assert TournamentMatch.objects.filter(tournament=tournament, code="W2.1", status="playing").exists()

    # when: the organiser corrects W1.1
    url = f"/api/v1/tournaments/{tid}/corrections/"
    refused = orga_api.post(url, {"match": w11.pk, "winner": loser, "reason": "misreported"}, format="json")

    # then: refused, naming the final that has started; nothing changed
    assert refused.status_code == 409
    assert refused.json()["code"] == "correction_blocked" and refused.json()["detail"] == {
        "blocking": ["W2.1"]
    }
    w11.refresh_from_db()
    assert w11.winner_id != loser
    assert client_for(None).get(url).json()["results"] == []

    # and: a non-organiser may not correct; a bad winner is a 400
    assert (
        client_for(new_player()).post(url, {"match": w11.pk, "winner": loser}, format="json").json()["code"]
        == "not_organiser"
    )
    assert (
        orga_api.post(url, {"match": w11.pk, "winner": 10**6}, format="json").json()["code"]
        == "invalid_correction"
    )
    assert refreshed(tournament).status == "running"


def test_an_organiser_calls_a_running_tournament_off(orga_api: APIClient, client_for: Callable) -> None:
    # given: a running tournament with two matches in play
    t = create(orga_api)
    for _ in range(4):
        client_for(new_player()).post(f"/api/v1/tournaments/{t['id']}/register/", {}, format="json")
    orga_api.post(f"/api/v1/tournaments/{t['id']}/start/", {}, format="json")
    refused = client_for(new_player()).post(f"/api/v1/tournaments/{t['id']}/cancel/")
    assert refused.json()["code"] == "not_organiser"

    # when
    response = orga_api.post(f"/api/v1/tournaments/{t['id']}/cancel/")

    # then: cancelled; its games matches aborted; a second call is a conflict
    assert response.status_code == 200 and response.json()["status"] == "cancelled"
    tms = TournamentMatch.objects.filter(tournament_id=t["id"]).select_related("match")
    assert {tm.match.status for tm in tms if tm.match is not None} == {"aborted"}
    assert orga_api.post(f"/api/v1/tournaments/{t['id']}/cancel/").json()["code"] == "wrong_status"
    # and: the cancel itself closed every row and its round, with no result for anyone (issue 17)
    rows = client_for(None).get(f"/api/v1/tournaments/{t['id']}/matches/").json()["results"]
    assert len(rows) == 2
    assert {(r["status"], r["winner"], tuple(r["points"]), r["forfeit"]) for r in rows} == {
        ("done", None, (0.0, 0.0), False)
    }
    rounds = client_for(None).get(f"/api/v1/tournaments/{t['id']}/rounds/").json()["results"]
    assert [(r["status"], r["completed_at"] is not None) for r in rounds] == [("complete", True)]
    assert tournaments_sweep() == 0, "nothing left for the sweeper"


def test_the_schema_lists_the_tournament_endpoints_without_warnings(
    client_for: Callable, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    schema = json.loads(client_for(None).get("/api/v1/schema/?format=json").content)
    paths = {
        "/api/v1/clubs/",
        "/api/v1/clubs/{slug}/members/",
        "/api/v1/tournaments/",
        "/api/v1/tournaments/{tournament_id}/",
        "/api/v1/tournaments/{tournament_id}/register/",
        "/api/v1/tournaments/{tournament_id}/check-in/",
        "/api/v1/tournaments/{tournament_id}/withdraw/",
        "/api/v1/tournaments/{tournament_id}/start/",
        "/api/v1/tournaments/{tournament_id}/rounds/",
        "/api/v1/tournaments/{tournament_id}/matches/",
        "/api/v1/tournaments/{tournament_id}/standings/",
        "/api/v1/tournaments/{tournament_id}/bracket/",
        "/api/v1/tournaments/{tournament_id}/corrections/",
    }
    assert paths <= set(schema["paths"])
    call_command("spectacular", "--validate", "--file", str(tmp_path / "schema.yml"))
    warnings = capsys.readouterr().err
    assert "tournaments/" not in warnings and "Enum" not in warnings, warnings


def test_a_no_show_through_the_api(orga_api: APIClient, client_for: Callable) -> None:
    t = create(orga_api)
    for _ in range(2):
        client_for(new_player()).post(f"/api/v1/tournaments/{t['id']}/register/", {}, format="json")
    orga_api.post(f"/api/v1/tournaments/{t['id']}/start/", {}, format="json")
    (row,) = client_for(None).get(f"/api/v1/tournaments/{t['id']}/matches/").json()["results"]
    absent = row["entrants"][1]["id"]
    url = f"/api/v1/tournaments/{t['id']}/matches/{row['id']}/no-show/"
    assert (
        client_for(new_player()).post(url, {"entrant": absent}, format="json").json()["code"]
        == "not_organiser"
    )
    response = orga_api.post(url, {"entrant": absent}, format="json")
    assert response.status_code == 200
    assert (response.json()["winner"], response.json()["forfeit"]) == (row["entrants"][0]["id"], True)
    again = orga_api.post(url, {"entrant": absent}, format="json")
    assert (again.status_code, again.json()["code"]) == (409, "wrong_status")


def test_the_format_filter_of_the_list_works(orga_api: APIClient, client_for: Callable) -> None:
    # given: a Swiss tournament and an elimination
    create(orga_api, name="Suizo", format="swiss", swiss_rounds=3)
    create(orga_api, name="Copa")
    anon = client_for(None)

    # when / then: ?format= filters (DRF's response-type override is off), and a bad value is a 400
    swiss = anon.get("/api/v1/tournaments/?format=swiss")
    assert swiss.status_code == 200 and [t["name"] for t in swiss.json()["results"]] == ["Suizo"]
    assert [t["name"] for t in anon.get("/api/v1/tournaments/?format=single_elim").json()["results"]] == [
        "Copa"
    ]
    bad = anon.get("/api/v1/tournaments/?format=json")
    assert (bad.status_code, bad.json()["code"]) == (400, "invalid") and "format" in bad.json()["detail"]


def test_an_organiser_renames_a_house_bot_entrant(orga_api: APIClient, client_for: Callable) -> None:
    t = create(orga_api)
    bots = orga_api.post(f"/api/v1/tournaments/{t['id']}/bots/", {"level": "rule", "count": 2}, format="json")
    assert [b["name"] for b in bots.json()] == ["Rule bot 1", "Rule bot 2"]
    url = f"/api/v1/tournaments/{t['id']}/entrants/{bots.json()[0]['id']}/"
    assert client_for(new_player()).patch(url, {"name": "X"}, format="json").json()["code"] == "not_organiser"
    renamed = orga_api.patch(url, {"name": "Sota de bastos"}, format="json")
    assert renamed.status_code == 200 and renamed.json()["name"] == "Sota de bastos"
    taken = orga_api.patch(
        f"/api/v1/tournaments/{t['id']}/entrants/{bots.json()[1]['id']}/",
        {"name": "SOTA DE BASTOS"},
        format="json",
    )
    assert (taken.status_code, taken.json()["code"]) == (409, "entrant_name_taken")
    names = [
        e["name"] for e in client_for(None).get(f"/api/v1/tournaments/{t['id']}/entrants/").json()["results"]
    ]
    assert sorted(names) == ["Rule bot 2", "Sota de bastos"]
    # a PATCH without a name changes nothing (it was a 400, though the schema makes name optional)
    same = orga_api.patch(url, {}, format="json")
    assert same.status_code == 200 and same.json()["name"] == "Sota de bastos"
    missing = orga_api.patch(f"/api/v1/tournaments/{t['id']}/entrants/999999/", {}, format="json")
    assert (missing.status_code, missing.json()["code"]) == (404, "entrant_not_found")
