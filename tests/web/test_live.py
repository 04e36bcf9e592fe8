"""The match page's live feed: every ply once and in order (Server-Sent Events, and the conditional JSON
fallback with its 304), each seat seeing only its own hand, the turn's clock; one name per house bot."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from games.models import Action, Match
from tests.web.conftest import bot_match, person, play_out
from web.live import clock
from web.names import house_bot_names, seat_labels

pytestmark = pytest.mark.django_db


def sse_events(body: bytes) -> list[tuple[str, dict[str, Any], str | None]]:
    events = []
    for block in body.decode().split("\n\n"):
        fields: dict[str, str] = {}
        for line in block.splitlines():
            if line.startswith(":") or ":" not in line:
                continue
            key, _sep, value = line.partition(":")
            fields[key] = value.strip()
        if "event" in fields:
            events.append((fields["event"], json.loads(fields.get("data", "{}")), fields.get("id")))
    return events


def test_the_stream_sends_each_ply_once_in_order_with_the_action_that_made_it(client: Client) -> None:
    # given: a finished Tute 2 match, and a spectator who saw it up to 5 plies before the end
    match = play_out(bot_match("tute2", person("ana")))
    after = match.ply - 5

    # when: the spectator's page connects
    response = client.get(f"/matches/{match.pk}/events/?after={after}&status=in_progress")

    # then: an event stream of the five moments, in order, each with its action, then goodbye
    assert response["Content-Type"] == "text/event-stream"
    events = sse_events(b"".join(response.streaming_content))  # type: ignore[attr-defined]
    moments = [e for e in events if e[0] == "moment"]
    assert [m[1]["ply"] for m in moments] == list(range(after + 1, match.ply + 1))
    assert [m[2] for m in moments] == [str(p) for p in range(after + 1, match.ply + 1)]
    actions = list(Action.objects.filter(match=match, ply__gte=after).order_by("ply"))
    assert [m[1]["action"]["code"] for m in moments] == [a.code for a in actions]
    assert [m[1]["action"]["seat"] for m in moments] == [a.seat for a in actions]
    assert moments[-1][1]["status"] == "finished"
    # and: a spectator is shown no hand, and no legal move
    assert all(m[1]["view"]["hand"] == [] and m[1]["legal"] is None for m in moments)
    assert events[-1][0] == "bye"


def test_the_last_event_id_resumes_the_stream(client: Client) -> None:
    match = play_out(bot_match("tute2", person("ana")))
    response = client.get(f"/matches/{match.pk}/events/?after=0", HTTP_LAST_EVENT_ID=str(match.ply - 2))
    events = sse_events(b"".join(response.streaming_content))  # type: ignore[attr-defined]
    assert [e[1]["ply"] for e in events if e[0] == "moment"] == [match.ply - 1, match.ply]


def test_the_fallback_answers_304_while_nothing_changed(client: Client) -> None:
    # given: a match in progress; the seated person reads the moments since the start
    ana = person("ana")
    match = bot_match("tute2", ana)
    client.force_login(ana.user)
    first = client.get(f"/matches/{match.pk}/moments/?after=0")
    assert first.status_code == 200 and first["ETag"]
    body = first.json()
    match.refresh_from_db()
    assert [m["ply"] for m in body["moments"]] == list(range(1, match.ply + 1))

    # when: asked again with the ETag and nothing moved
    again = client.get(f"/matches/{match.pk}/moments/?after=0", HTTP_IF_NONE_MATCH=first["ETag"])

    # then: 304 and no body
    assert again.status_code == 304 and again.content == b""
    # and: the newest moment carries the clock; when it is her turn, her hand and legal moves
    if body["moments"]:
        newest = body["moments"][-1]
        assert newest["clock"] is not None
        assert newest["view"]["hand"]


def test_the_clock_counts_the_person_s_seconds_and_timeouts(client: Client) -> None:
    ana = person("ana")
    match = bot_match("tute2", ana)
    match.refresh_from_db()
    seats = list(match.seats.select_related("player").order_by("index"))
    running = clock(match, seats)
    assert running is not None
    assert running["seat"] == match.turn_seat
    if running["seat"] == 0:  # a person: the match's seconds per move
        assert running["total"] == match.human_move_seconds and not running["house_bot"]
        assert 0 < running["left"] <= match.human_move_seconds
    assert running["timeouts"] == [0, 0] and running["max_timeouts"] == match.max_timeouts
    match.status = Match.Status.FINISHED
    assert clock(match, seats) is None


def test_house_bots_have_one_readable_name_each() -> None:
    assert house_bot_names(["rule", "", "rule", "random"]) == ["Rule bot 1", "", "Rule bot 2", "Random bot"]


def test_seats_sit_around_the_viewer_with_the_partner_opposite() -> None:
    # given: a Tute 4 table of a person (seat 1) and three rule bots
    ana = person("ana")
    match = bot_match("tute4", ana)
    seats = list(match.seats.select_related("player").order_by("index"))
    me = next(s.index for s in seats if s.player_id == ana.pk)
    labels = seat_labels(seats, game="tute4", viewer=me)
    by_seat = {row["index"]: row for row in labels}
    assert by_seat[me]["position"] == "bottom" and by_seat[me]["relation"] == "you"
    assert by_seat[(me + 2) % 4]["position"] == "top" and by_seat[(me + 2) % 4]["relation"] == "partner"
    assert {by_seat[(me + 1) % 4]["position"], by_seat[(me + 3) % 4]["position"]} == {"left", "right"}
    assert len({row["name"] for row in labels}) == 4
