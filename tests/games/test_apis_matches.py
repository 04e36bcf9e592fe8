"""The matches API under /api/v1/matches/: create, list, detail, seats, view, actions, record."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.engine import IllegalAction, load_record, replay
from games.models import Action, Game, Match, Player, Seat
from games.services import SeatSpec, match_create, match_spec
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

ClientFor = Callable[[Player], APIClient]
ERROR_KEYS = {"code", "message", "detail"}


def assert_error(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) == ERROR_KEYS, body
    assert body["code"] == code, body
    assert isinstance(body["message"], str) and body["message"]
    return body


def unchanged(match: Match) -> tuple[int, int, str]:
    match.refresh_from_db()
    return match.ply, Action.objects.filter(match=match).count(), match.status


# -- create ---------------------------------------------------------------------------------------------


def test_create_a_match_seats_the_creator(player: Player, token_client: ClientFor) -> None:
    # when: a signed-in player creates a Tute 4 match
    response = token_client(player).post("/api/v1/matches/", {"game": "tute4"}, format="json")

    # then: 201 with the public state; the creator at seat 0, three empty seats
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["game"] == "tute4" and body["players"] == 4 and body["status"] == "open"
    assert body["format"] == "single" and body["games"] == 1 and body["ply"] == 0
    assert body["rules_version"] and body["options"]["last_trick_bonus"] is True
    assert body["seats"][0]["player"]["handle"] == player.handle
    assert [s["player"] for s in body["seats"][1:]] == [None, None, None]
    assert Match.objects.get(pk=body["id"]).created_by == player.user


def test_create_with_seats_and_a_format(player: Player, token_client: ClientFor) -> None:
    other = PlayerFactory()
    body = {
        "game": "pocha",
        "players": 3,
        "options": {"pocha_sequence": [1, 2]},
        "format": "best_of",
        "games": 3,
        "seats": [{"player": player.handle}, {"bot": "rule"}, {"player": other.handle}],
        "rated": False,
    }

    response = token_client(player).post("/api/v1/matches/", body, format="json")

    assert response.status_code == 201, response.content
    out = response.json()
    assert (out["format"], out["games"], out["rated"]) == ("best_of", 3, False)
    assert out["options"]["pocha_sequence"] == [1, 2]
    seats = out["seats"]
    assert seats[1] == seats[1] | {"player": None, "house_bot": "rule", "is_bot": True}
    assert seats[2]["player"]["handle"] == other.handle and seats[2]["accepted"] is False


def test_a_bot_account_is_labelled_as_a_bot(player: Player, token_client: ClientFor) -> None:
    bot = PlayerFactory(is_bot=True, owner=player.user, auto_accept=True)

    response = token_client(player).post(
        "/api/v1/matches/",
        {"game": "tute2", "seats": [{"player": player.handle}, {"player": bot.handle}]},
        format="json",
    )

    seats = response.json()["seats"]
    assert seats[0]["is_bot"] is False and seats[0]["player"]["is_bot"] is False
    assert seats[1]["is_bot"] is True and seats[1]["player"]["is_bot"] is True
    assert response.json()["status"] == "in_progress"


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({}, 400, "invalid"),
        ({"game": "chess"}, 400, "invalid"),
        ({"game": "tute2", "players": "two"}, 400, "invalid"),
        ({"game": "tute2", "players": 3}, 400, "invalid_rules"),
        ({"game": "tute2", "options": {"nope": 1}}, 400, "invalid_rules"),
        ({"game": "tute2", "options": ["stock_duty"]}, 400, "invalid"),
        ({"game": "tute2", "format": "best_of", "games": 0}, 400, "invalid"),
        ({"game": "tute2", "seats": [{"bot": "god"}, {}]}, 400, "invalid_seats"),
        ({"game": "tute2", "seats": [{"player": "ghost"}, {}]}, 404, "unknown_player"),
        ({"game": "tute2", "seats": [{}, {}, {}]}, 400, "invalid"),
        ({"game": "tute2", "seats": [{"bot": "rule"}]}, 400, "invalid"),  # never padded (issue 17)
        ({"game": "pocha", "players": 4, "seats": [{"bot": "rule"}] * 3}, 400, "invalid"),
        ({"game": "pocha", "seats": [{"bot": "rule"}] * 7}, 400, "invalid"),
        ({"game": "tute2", "seats": "all"}, 400, "invalid"),
    ],
)
def test_create_refuses_a_bad_request_and_creates_nothing(
    player: Player, token_client: ClientFor, body: dict[str, Any], status: int, code: str
) -> None:
    response = token_client(player).post("/api/v1/matches/", body, format="json")

    assert_error(response, status, code)
    assert not Match.objects.exists()


def test_create_needs_a_signed_in_caller(anon_client: APIClient) -> None:
    response = anon_client.post("/api/v1/matches/", {"game": "tute2"}, format="json")

    assert_error(response, 401, "not_authenticated")
    assert response["WWW-Authenticate"] == "Token"
    assert not Match.objects.exists()


# -- list and detail ------------------------------------------------------------------------------------


def test_list_filters_by_status_game_and_player(
    started_match: Callable[..., Match], anon_client: APIClient
) -> None:
    # given: an open Tute 2, a Tute 2 and a Pocha in progress, an aborted Tute 4
    alice = PlayerFactory(handle="alice")
    open_tute2 = match_create(spec=match_spec(created_by=alice, game="tute2"))
    busy_tute2 = started_match("tute2")
    busy_pocha = started_match("pocha", players=2, seats=[alice, PlayerFactory()])
    aborted = match_create(spec=match_spec(created_by=PlayerFactory(), game="tute4"))
    aborted.status = Match.Status.ABORTED
    aborted.save()

    def ids(query: str) -> list[int]:
        response = anon_client.get(f"/api/v1/matches/{query}")
        assert response.status_code == 200, response.content
        return [m["id"] for m in response.json()["results"]]

    # then: newest first, and each filter narrows the list
    assert ids("") == [aborted.pk, busy_pocha.pk, busy_tute2.pk, open_tute2.pk]
    assert ids("?status=in_progress") == [busy_pocha.pk, busy_tute2.pk]
    assert ids("?game=tute2") == [busy_tute2.pk, open_tute2.pk]
    assert ids("?player=alice") == [busy_pocha.pk, open_tute2.pk]
    assert ids("?player=alice&game=tute2&status=open") == [open_tute2.pk]
    assert ids("?status=aborted") == [aborted.pk]


@pytest.mark.parametrize("query", ["?status=playing", "?game=go", "?player=not%20a%20handle"])
def test_list_refuses_a_bad_filter(anon_client: APIClient, query: str) -> None:
    assert_error(anon_client.get(f"/api/v1/matches/{query}"), 400, "invalid")


def test_list_is_paginated(player: Player, anon_client: APIClient) -> None:
    for _ in range(25):
        match_create(spec=match_spec(created_by=player, game="tute2"))

    first = anon_client.get("/api/v1/matches/").json()
    small = anon_client.get("/api/v1/matches/?page_size=10&page=3").json()
    capped = anon_client.get("/api/v1/matches/?page_size=1000").json()

    assert (
        first["count"] == 25 and len(first["results"]) == 20 and first["next"] and first["previous"] is None
    )
    assert len(small["results"]) == 5 and small["next"] is None
    assert len(capped["results"]) == 25
    assert_error(anon_client.get("/api/v1/matches/?page=9"), 404, "not_found")


def test_detail_is_public(
    started_match: Callable[..., Match], anon_client: APIClient, url: Callable[..., str]
) -> None:
    match = started_match("tute2")

    response = anon_client.get(url(match.pk))

    assert response.status_code == 200
    body = response.json()
    assert body["id"] == match.pk and body["status"] == "in_progress" and body["result"] is None
    assert [s["index"] for s in body["seats"]] == [0, 1]


def test_an_unknown_match_is_a_404_everywhere(player: Player, token_client: ClientFor) -> None:
    client = token_client(player)
    for path in ("", "view/", "record/"):
        assert_error(client.get(f"/api/v1/matches/999999/{path}"), 404, "match_not_found")
    for path in ("join/", "leave/", "resign/", "abort/"):
        assert_error(client.post(f"/api/v1/matches/999999/{path}", {}, format="json"), 404, "match_not_found")
    response = client.post("/api/v1/matches/999999/actions/", {"action": "play:1O", "ply": 0}, format="json")
    assert_error(response, 404, "match_not_found")


# -- seats ----------------------------------------------------------------------------------------------


def test_join_fills_the_last_seat_and_starts_the_match(
    player: Player, token_client: ClientFor, url: Callable[..., str]
) -> None:
    match = match_create(spec=match_spec(created_by=PlayerFactory(), game="tute2"))

    response = token_client(player).post(url(match.pk, "join"), {}, format="json")

    assert response.status_code == 200, response.content
    body = response.json()
    assert body["status"] == "in_progress"
    assert body["seats"][1]["player"]["handle"] == player.handle
    # and: the public state shows no deck and no seed: only the commitment to the server seed
    game = Game.objects.get(match=match.pk)
    text = str(body)
    assert game.seed not in text and game.server_seed not in text and "decks" not in text
    assert body["seed_sha256"] == hashlib.sha256(game.server_seed.encode()).hexdigest()


@pytest.mark.parametrize("game", ["tute2", "tute4", "pocha"])
def test_create_and_join_answer_what_the_detail_then_reads(
    game: str, player: Player, token_client: ClientFor, url: Callable[..., str]
) -> None:
    # The answers are built from what the services wrote, without reading the match again: they must
    # still be what the database holds.
    bot = {"bot": "random"}
    seats = [{"player": player.handle}, bot, {}] if game == "pocha" else [{"player": player.handle}, {}]
    if game == "tute4":
        seats = [{"player": player.handle}, bot, {}, bot]
    body = {"game": game, "seats": seats, "options": {}, "format": "best_of", "games": 3}
    if game == "pocha":
        body["players"] = 3
    created = token_client(player).post("/api/v1/matches/", body, format="json")
    assert created.status_code == 201, created.content
    match_id = created.json()["id"]
    detail = token_client(player).get(url(match_id))
    assert created.json() == detail.json()

    joined = token_client(PlayerFactory()).post(url(match_id, "join"), {}, format="json")

    assert joined.status_code == 200, joined.content
    assert joined.json()["status"] == "in_progress"
    assert joined.json() == token_client(player).get(url(match_id)).json()


def test_join_a_chosen_seat_and_the_conflicts(token_client: ClientFor, url: Callable[..., str]) -> None:
    creator, a, b = PlayerFactory(), PlayerFactory(), PlayerFactory()
    match = match_create(spec=match_spec(created_by=creator, game="pocha", players=4))

    assert token_client(a).post(url(match.pk, "join"), {"seat": 2}, format="json").status_code == 200
    assert_error(token_client(b).post(url(match.pk, "join"), {"seat": 2}, format="json"), 409, "seat_taken")
    assert_error(token_client(a).post(url(match.pk, "join"), {}, format="json"), 409, "already_seated")
    assert_error(token_client(b).post(url(match.pk, "join"), {"seat": "x"}, format="json"), 400, "invalid")
    assert_error(token_client(b).post(url(match.pk, "join"), {"seat": 9}, format="json"), 400, "invalid")
    assert list(Seat.objects.filter(match=match, player__isnull=False).values_list("index", flat=True)) == [
        0,
        2,
    ]


def test_join_needs_a_signed_in_caller(
    anon_client: APIClient, url: Callable[..., str], player: Player
) -> None:
    match = match_create(spec=match_spec(created_by=player, game="tute2"))

    assert_error(anon_client.post(url(match.pk, "join"), {}, format="json"), 401, "not_authenticated")
    assert Seat.objects.get(match=match, index=1).is_empty


def test_leave_resign_and_abort(
    started_match: Callable[..., Match], token_client: ClientFor, url: Callable[..., str], players_of: Any
) -> None:
    # given: an open match with a joiner; and a match in progress
    creator, joiner = PlayerFactory(), PlayerFactory()
    waiting = match_create(spec=match_spec(created_by=creator, game="pocha", players=3))
    token_client(joiner).post(url(waiting.pk, "join"), {}, format="json")
    playing = started_match("tute2")
    p1 = players_of(playing)[1]

    # then: the joiner leaves; only the creator aborts; a seat resigns
    assert token_client(joiner).post(url(waiting.pk, "leave")).json()["seats"][1]["player"] is None
    assert_error(token_client(joiner).post(url(waiting.pk, "abort")), 403, "not_allowed")
    assert token_client(creator).post(url(waiting.pk, "abort")).json()["status"] == "aborted"
    assert_error(token_client(p1).post(url(playing.pk, "leave")), 409, "match_not_open")
    resigned = token_client(p1).post(url(playing.pk, "resign")).json()
    assert resigned["status"] == "finished"
    assert resigned["result"]["winners"] == [0]
    assert resigned["finish_reason"] == "resigned"


# -- view -----------------------------------------------------------------------------------------------


def test_view_for_the_seat_to_act_another_seat_and_a_spectator(
    started_match: Callable[..., Match],
    token_client: ClientFor,
    anon_client: APIClient,
    url: Callable[..., str],
    turn: Callable[..., Any],
) -> None:
    match = started_match("tute2")
    now = turn(match.pk)
    other = 1 - now.seat
    other_player = Seat.objects.get(match=match, index=other).player
    assert other_player is not None

    seat_view = token_client(now.player).get(url(match.pk, "view")).json()
    other_view = token_client(other_player).get(url(match.pk, "view")).json()
    spectator = token_client(PlayerFactory()).get(url(match.pk, "view")).json()
    anonymous = anon_client.get(url(match.pk, "view")).json()

    # then: the seat to act sees its hand and its legal codes
    assert seat_view["seat"] == now.seat and seat_view["to_act"] == now.seat and seat_view["ply"] == 0
    assert seat_view["legal"] == list(now.legal)
    assert seat_view["view"]["hand"] == list(now.state.view(now.seat).hand)
    # and: the other seat sees its own hand, no legal codes
    assert other_view["seat"] == other and other_view["legal"] is None
    assert other_view["view"]["hand"] == list(now.state.view(other).hand)
    # and: a spectator, signed in or not, sees no hand at all
    for view in (spectator, anonymous):
        assert view["seat"] is None and view["legal"] is None and view["to_act"] == now.seat
        assert view["view"]["hand"] == []
        assert view["view"]["hand_sizes"] == [8, 8]


def test_view_of_an_open_match_has_no_game(
    player: Player, anon_client: APIClient, url: Callable[..., str]
) -> None:
    match = match_create(spec=match_spec(created_by=player, game="tute2"))

    body = anon_client.get(url(match.pk, "view")).json()

    assert body["status"] == "open" and body["view"] is None and body["game_number"] is None


# -- actions --------------------------------------------------------------------------------------------


def act(client: APIClient, match_id: int, action: Any, ply: Any, **extra: Any) -> Any:
    return client.post(
        f"/api/v1/matches/{match_id}/actions/", {"action": action, "ply": ply}, format="json", **extra
    )


def test_a_legal_action_answers_with_the_new_view(
    started_match: Callable[..., Match], token_client: ClientFor, turn: Callable[..., Any]
) -> None:
    match = started_match("tute2")
    now = turn(match.pk)

    lead = next(code for code in now.legal if code.startswith("play:"))  # not a swap of the 7

    response = act(token_client(now.player), match.pk, lead, 0)

    assert response.status_code == 200, response.content
    body = response.json()
    assert body["ply"] == 1 and body["seat"] == now.seat
    assert body["view"]["trick"] == [[now.seat, lead.split(":")[1]]]
    assert unchanged(match)[:2] == (1, 1)


def test_an_illegal_action_is_a_422_with_the_engines_reason(
    started_match: Callable[..., Match], token_client: ClientFor, turn: Callable[..., Any]
) -> None:
    match = started_match("tute2")
    now = turn(match.pk)
    card = next(c for c in now.game.decks[0][:16] if f"play:{c}" not in now.legal)  # the other hand's
    with pytest.raises(IllegalAction) as engine:
        now.state.apply(f"play:{card}")
    reason = engine.value.reason
    before = unchanged(match)

    body = assert_error(act(token_client(now.player), match.pk, f"play:{card}", 0), 422, "illegal_action")

    assert body["detail"]["reason"] == reason
    assert body["detail"]["legal"] == list(now.legal)
    assert unchanged(match) == before


def test_not_your_turn_stale_ply_and_not_seated(
    started_match: Callable[..., Match], token_client: ClientFor, turn: Callable[..., Any], players_of: Any
) -> None:
    match = started_match("tute2")
    now = turn(match.pk)
    waiting = players_of(match)[1 - now.seat]
    before = unchanged(match)

    assert_error(act(token_client(waiting), match.pk, now.legal[0], 0), 409, "not_your_turn")
    stale = assert_error(act(token_client(now.player), match.pk, now.legal[0], 5), 409, "stale_ply")
    assert stale["detail"] == {"ply": 0}
    assert_error(act(token_client(PlayerFactory()), match.pk, now.legal[0], 0), 403, "not_seated")
    assert unchanged(match) == before


def test_an_anonymous_action_is_a_401(
    started_match: Callable[..., Match], anon_client: APIClient, turn: Callable[..., Any]
) -> None:
    match = started_match("tute2")
    before = unchanged(match)

    assert_error(act(anon_client, match.pk, turn(match.pk).legal[0], 0), 401, "not_authenticated")
    assert unchanged(match) == before


def test_a_stale_ply_after_a_move_gives_the_current_ply(
    started_match: Callable[..., Match], token_client: ClientFor, play_moves: Callable[..., Any]
) -> None:
    match = started_match("tute4")
    now = play_moves(match, 6)

    body = assert_error(act(token_client(now.player), match.pk, now.legal[0], 5), 409, "stale_ply")

    assert body["detail"]["ply"] == 6


def test_the_same_idempotency_key_gets_the_same_answer_and_applies_nothing(
    started_match: Callable[..., Match], token_client: ClientFor, turn: Callable[..., Any]
) -> None:
    match = started_match("tute2")
    now = turn(match.pk)
    client = token_client(now.player)

    first = act(client, match.pk, now.legal[0], 0, HTTP_IDEMPOTENCY_KEY="abc-1")
    after_first = unchanged(match)
    again = act(client, match.pk, now.legal[0], 0, HTTP_IDEMPOTENCY_KEY="abc-1")

    assert first.status_code == again.status_code == 200
    assert again.json() == first.json()
    assert unchanged(match) == after_first
    other = act(client, match.pk, now.legal[-1], 0, HTTP_IDEMPOTENCY_KEY="abc-1")
    assert_error(other, 422, "idempotency_key_reused")
    assert unchanged(match) == after_first


def test_an_idempotency_key_over_64_characters_is_refused(
    started_match: Callable[..., Match], token_client: ClientFor, turn: Callable[..., Any]
) -> None:
    match = started_match("tute2")
    now = turn(match.pk)

    response = act(token_client(now.player), match.pk, now.legal[0], 0, HTTP_IDEMPOTENCY_KEY="k" * 65)

    assert_error(response, 400, "invalid")
    assert unchanged(match)[:2] == (0, 0)


def test_a_session_signed_in_player_plays_too(
    started_match: Callable[..., Match], session_client: ClientFor, turn: Callable[..., Any]
) -> None:
    match = started_match("tute2")
    now = turn(match.pk)

    assert act(session_client(now.player), match.pk, now.legal[0], 0).status_code == 200


def test_actions_on_a_finished_match_are_refused(
    started_match: Callable[..., Match],
    token_client: ClientFor,
    players_of: Any,
    play_random: Callable[..., Match],
) -> None:
    match = play_random(started_match("tute2"), seed=2)
    p0 = players_of(match)[0]

    assert_error(act(token_client(p0), match.pk, "play:1O", match.ply), 409, "match_not_in_progress")


# -- record ---------------------------------------------------------------------------------------------


def test_the_record_is_refused_before_the_end_and_given_after_with_the_seed(
    started_match: Callable[..., Match],
    token_client: ClientFor,
    anon_client: APIClient,
    url: Callable[..., str],
    play_random: Callable[..., Match],
    players_of: Any,
) -> None:
    # given: a best-of-3 Tute 2 in progress
    match = started_match("tute2", format="best_of", games=3)

    # then: no one gets its record yet, not even a seat
    assert_error(anon_client.get(url(match.pk, "record")), 403, "match_not_finished")
    assert_error(token_client(players_of(match)[0]).get(url(match.pk, "record")), 403, "match_not_finished")

    # when: it is played out
    play_random(match, seed=9)
    response = anon_client.get(url(match.pk, "record"))

    # then: each game's record, with its seed, replays to its result
    assert response.status_code == 200
    body = response.json()
    games = list(Game.objects.filter(match=match).order_by("number"))
    assert body["match"] == match.pk and len(body["games"]) == len(games) >= 2
    for stored, out in zip(games, body["games"], strict=True):
        assert out["number"] == stored.number and out["result"] == stored.result
        record = out["record"]
        assert record["seed"] == stored.seed and record["dealer"] == stored.dealer
        state = replay(load_record(record))
        result = state.result()
        assert result is not None and result.to_dict() == stored.result


def test_an_aborted_match_has_no_record(
    player: Player, token_client: ClientFor, url: Callable[..., str]
) -> None:
    match = match_create(
        spec=match_spec(
            created_by=player, game="tute2", seats=[SeatSpec(player=player.handle), SeatSpec(bot="random")]
        )
    )
    token_client(player).post(url(match.pk, "abort"))

    assert_error(token_client(player).get(url(match.pk, "record")), 403, "match_not_finished")


def test_seats_without_players_set_the_player_count(player: Player, token_client: ClientFor) -> None:
    # given: a Pocha match given three seats and no player count
    client = token_client(player)
    seats = [{"player": player.handle}, {"bot": "rule"}, {"bot": "random"}]

    # when
    response = client.post("/api/v1/matches/", {"game": "pocha", "seats": seats}, format="json")

    # then: a three-player match with exactly those seats, under way at once
    body = response.json()
    assert response.status_code == 201, body
    assert body["players"] == 3 and len(body["seats"]) == 3 and body["status"] == "in_progress"
    assert [s["house_bot"] for s in body["seats"]] == ["", "rule", "random"]
    # and: the same with an agreeing count
    agreeing = client.post("/api/v1/matches/", {"game": "pocha", "players": 3, "seats": seats}, format="json")
    assert agreeing.status_code == 201 and agreeing.json()["players"] == 3


def test_the_list_filters_by_rated_and_reads_in_finishing_order(
    player: Player, token_client: ClientFor
) -> None:
    # given: three finished matches (one unrated), finished in an order other than their creation's,
    # and one still open
    from datetime import timedelta

    from django.utils import timezone

    made = [
        match_create(
            spec=match_spec(
                created_by=player,
                game="tute2",
                rated=rated,
                seats=[SeatSpec(bot="rule"), SeatSpec(bot="rule")],
            )
        )
        for rated in (True, False, True)
    ]
    now = timezone.now()
    for match, minutes in zip(made, (3, 2, 1), strict=True):
        Match.objects.filter(pk=match.pk).update(
            status="finished", finished_at=now - timedelta(minutes=minutes)
        )
    Match.objects.filter(pk=made[2].pk).update(finished_at=now - timedelta(minutes=5))
    open_one = match_create(spec=match_spec(created_by=player, game="tute2"))
    client = token_client(player)

    # when / then: ?rated= filters; ?ordering=finished_at lists by finishing time (then id), open last
    rated = client.get("/api/v1/matches/?rated=true&status=finished&ordering=finished_at").json()
    assert [m["id"] for m in rated["results"]] == [made[2].pk, made[0].pk]
    unrated = client.get("/api/v1/matches/?rated=false").json()
    assert [m["id"] for m in unrated["results"]] == [made[1].pk]
    everything = client.get("/api/v1/matches/?ordering=finished_at").json()
    assert [m["id"] for m in everything["results"]] == [made[2].pk, made[0].pk, made[1].pk, open_one.pk]
    assert client.get("/api/v1/matches/?ordering=-finished_at").json()["results"][0]["id"] == made[1].pk
    assert client.get("/api/v1/matches/").json()["results"][0]["id"] == open_one.pk  # newest first
    assert client.get("/api/v1/matches/?ordering=ply").status_code == 400
    assert client.get("/api/v1/matches/?rated=maybe").status_code == 400


def test_the_envelope_ply_counts_the_match_and_the_views_game_ply_the_game(
    player: Player, token_client: ClientFor
) -> None:
    # given: a best of 3 between two house bots, played through its first game into the second
    from games.services import bot_turn_play

    match = match_create(
        spec=match_spec(
            created_by=player,
            game="tute2",
            format="best_of",
            format_target=3,
            rated=False,
            seats=[SeatSpec(bot="rule"), SeatSpec(bot="random")],
        )
    )
    while not Game.objects.filter(match=match, number=1).exists():
        fresh = Match.objects.get(pk=match.pk)
        assert bot_turn_play(match_id=match.pk, ply=fresh.ply) is not None
    fresh = Match.objects.get(pk=match.pk)
    bot_turn_play(match_id=match.pk, ply=fresh.ply)

    # when
    body = token_client(player).get(f"/api/v1/matches/{match.pk}/view/").json()

    # then: ply is the match's count (the one actions take); game_ply restarted with game 1
    second = Game.objects.get(match=match, number=1)
    assert body["game_number"] == 1 and body["ply"] == Match.objects.get(pk=match.pk).ply
    assert body["view"]["game_ply"] == body["ply"] - second.first_ply == 1
    assert "ply" not in body["view"]
    assert body["legal"] is None, "always sent, null when not the caller's turn"


def test_the_schema_says_what_legal_and_the_record_send(player: Player, token_client: ClientFor) -> None:
    import json

    schema = json.loads(token_client(player).get("/api/v1/schema/?format=json").content)
    envelope = schema["components"]["schemas"]["SeatViewEnvelope"]["properties"]
    assert "null" in envelope["legal"]["description"] and envelope["legal"]["nullable"] is True
    assert "game_ply" in envelope["ply"]["description"]
    record = schema["paths"]["/api/v1/matches/{match_id}/record/"]["get"]
    assert "403" in record["responses"] and "match_not_finished" in record["responses"]["403"]["description"]


def test_the_api_refuses_a_match_past_the_open_match_cap(settings: Any) -> None:
    # given: an account at its cap of open matches
    settings.TUTE_MAX_OPEN_MATCHES = 3
    person = PlayerFactory()
    client = APIClient()
    client.force_authenticate(user=person.user)
    made = [
        client.post("/api/v1/matches/", {"game": "pocha", "seats": [{"bot": "rule"}] * 3}, format="json")
        for _ in range(3)
    ]

    # when: it asks for one more bot-only match
    refused = client.post(
        "/api/v1/matches/", {"game": "pocha", "seats": [{"bot": "rule"}] * 3}, format="json"
    )

    # then: 429 in the error shape, and no match made
    assert [r.status_code for r in made] == [201, 201, 201]
    assert (refused.status_code, refused.json()["code"]) == (429, "too_many_open_matches")
    assert Match.objects.filter(created_by=person.user).count() == 3
