"""The ratings API: leaderboards per pool (pagination, filters, errors) and a player's ratings with history.

Both are public reads: the tests call them without credentials.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Match, Player
from ratings.models import Pool, Rating, RatingChange
from ratings.services import match_ratings_apply

pytestmark = pytest.mark.django_db


def leaderboard_url(pool: str) -> str:
    return f"/api/v1/ratings/{pool}/leaderboard/"


def ratings_url(handle: str) -> str:
    return f"/api/v1/players/{handle}/ratings/"


def when(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


@pytest.fixture
def client() -> APIClient:
    return APIClient()


@dataclass
class League:
    """Who played what: a person who won everything, a second person, a bot account, two more people."""

    ana: Player
    ben: Player
    bot: Player
    cid: Player
    dan: Player
    matches: list[Match]


@pytest.fixture
def league(
    make_player: Callable[..., Player],
    make_bot: Callable[..., Player],
    resigned_match: Callable[..., Match],
) -> League:
    """One rated match of each game, finished through the services and rated:

    - Tute 2: ana beats the bot account;
    - Tute 4: ana & cid (seats 0, 2) beat ben & dan (seats 1, 3): individual and pair ratings;
    - Pocha: ana, ben and the "rule" house bot; ben resigns (ana and the house bot tie, ben is last).
    """
    ana, ben, cid, dan = (make_player(handle=h, display_name=h.title()) for h in ("ana", "ben", "cid", "dan"))
    bot = make_bot(handle="robo", display_name="Robo")
    matches = [
        resigned_match("tute2", [ana, bot], loser=1),
        resigned_match("tute4", [ana, ben, cid, dan], loser=1),
        resigned_match("pocha", [ana, ben, "rule"], loser=1, options={"pocha_sequence": [1]}),
    ]
    for match in matches:
        match_ratings_apply(match_id=match.pk)
    return League(ana, ben, bot, cid, dan, matches)


# -- leaderboards ---------------------------------------------------------------------------------------


def test_tute2_leaderboard_best_first_with_everything_a_row_needs(client: APIClient, league: League) -> None:
    # when
    response = client.get(leaderboard_url("tute2"))

    # then
    assert response.status_code == 200
    body = response.json()
    assert body["count"] == 2
    first, second = body["results"]
    assert first == {
        "subject": f"player:{league.ana.pk}",
        "name": "Ana",
        "handle": "ana",
        "partner": None,
        "is_bot": False,
        "rating": 1520.0,
        "rated_matches": 1,
        "provisional": True,
        "last_played_at": first["last_played_at"],
    }
    assert when(first["last_played_at"]) == league.matches[0].finished_at
    assert (second["handle"], second["is_bot"], second["rating"]) == ("robo", True, 1480.0)


def test_tute4_leaderboard_ranks_individuals(client: APIClient, league: League) -> None:
    rows = client.get(leaderboard_url("tute4")).json()["results"]
    assert [r["rating"] for r in rows] == [1520.0, 1520.0, 1480.0, 1480.0]
    assert {r["handle"] for r in rows[:2]} == {"ana", "cid"}
    assert {r["handle"] for r in rows[2:]} == {"ben", "dan"}


def test_tute4_pairs_leaderboard_names_both_players(client: APIClient, league: League) -> None:
    # when
    body = client.get(leaderboard_url("tute4-pairs")).json()

    # then: a pair row names its two players, the lower id as handle, the other as partner
    assert body["count"] == 2
    winners, losers = body["results"]
    assert (winners["handle"], winners["partner"], winners["name"]) == ("ana", "cid", "Ana & Cid")
    assert winners["subject"] == f"pair:{league.ana.pk}-{league.cid.pk}"
    assert (winners["rating"], losers["rating"]) == (1520.0, 1480.0)
    assert {losers["handle"], losers["partner"]} == {"ben", "dan"}


def test_pocha_leaderboard_labels_the_house_bot(client: APIClient, league: League) -> None:
    # when
    body = client.get(leaderboard_url("pocha")).json()

    # then: ana and the house bot +10 each (K 40 / 2 x 0.5), ben -20, ratings rounded to 0.1
    rows = {r["subject"]: r for r in body["results"]}
    house = rows["house:rule"]
    assert (house["name"], house["handle"], house["is_bot"], house["rating"]) == (
        "House bot (rule)",
        None,
        True,
        1510.0,
    )
    assert rows[f"player:{league.ana.pk}"]["rating"] == 1510.0
    assert body["results"][-1]["handle"] == "ben" and body["results"][-1]["rating"] == 1480.0


def test_ratings_are_rounded_to_a_tenth(
    client: APIClient, make_player: Callable[..., Player], given_rating: Callable[..., Rating]
) -> None:
    given_rating(Pool.TUTE2, make_player(), 1530.389877, 3)
    (row,) = client.get(leaderboard_url("tute2")).json()["results"]
    assert row["rating"] == 1530.4


def test_an_unknown_pool_is_404_with_its_code(client: APIClient) -> None:
    # when
    response = client.get(leaderboard_url("chess"))

    # then
    assert response.status_code == 404
    body = response.json()
    assert body["code"] == "unknown_pool"
    assert set(body) == {"code", "message", "detail"}
    assert "tute2" in body["message"] and "tute4-pairs" in body["message"]


@pytest.mark.parametrize(
    ("bots", "expected"),
    [("include", {"ana", "robo"}), ("exclude", {"ana"}), ("only", {"robo"})],
)
def test_leaderboard_bots_filter_for_bot_accounts(
    bots: str, expected: set[str], client: APIClient, league: League
) -> None:
    body = client.get(leaderboard_url("tute2"), {"bots": bots}).json()
    assert {r["handle"] for r in body["results"]} == expected


@pytest.mark.parametrize(
    ("bots", "expected"),
    [
        ("include", {"player:ana", "player:ben", "house:rule"}),
        ("exclude", {"player:ana", "player:ben"}),
        ("only", {"house:rule"}),
    ],
)
def test_leaderboard_bots_filter_for_house_bots(
    bots: str, expected: set[str], client: APIClient, league: League
) -> None:
    body = client.get(leaderboard_url("pocha"), {"bots": bots}).json()
    got = {f"player:{r['handle']}" if r["handle"] else r["subject"] for r in body["results"]}
    assert got == expected


def test_leaderboard_min_matches(
    client: APIClient, make_player: Callable[..., Player], given_rating: Callable[..., Rating]
) -> None:
    # given: players with 0, 4, 5 and 30 rated matches
    for matches in (0, 4, 5, 30):
        given_rating(Pool.TUTE2, make_player(handle=f"p{matches}"), 1500.0 + matches, matches)

    # when
    body = client.get(leaderboard_url("tute2"), {"min_matches": 5}).json()

    # then
    assert [r["handle"] for r in body["results"]] == ["p30", "p5"]


def test_leaderboard_active_days(
    client: APIClient, make_player: Callable[..., Player], given_rating: Callable[..., Rating]
) -> None:
    # given: last played 1, 29 and 31 days ago, and never
    now = timezone.now()
    for days in (1, 29, 31, None):
        row = given_rating(Pool.TUTE2, make_player(handle=f"d{days}"), 1500.0, 3)
        row.last_played_at = None if days is None else now - timedelta(days=days)
        row.save(update_fields=["last_played_at"])

    # when
    body = client.get(leaderboard_url("tute2"), {"active_days": 30}).json()

    # then
    assert {r["handle"] for r in body["results"]} == {"d1", "d29"}
    assert client.get(leaderboard_url("tute2")).json()["count"] == 4, "without the filter: everyone"


def test_leaderboard_pages(
    client: APIClient, make_player: Callable[..., Player], given_rating: Callable[..., Rating]
) -> None:
    # given: 25 rated players, 1500 to 1524
    for i in range(25):
        given_rating(Pool.TUTE2, make_player(handle=f"r{i:02d}"), 1500.0 + i, 12)

    # when / then: 20 a page by default, best first, and a link to the next page
    first = client.get(leaderboard_url("tute2")).json()
    assert first["count"] == 25
    assert [r["handle"] for r in first["results"]] == [f"r{i:02d}" for i in range(24, 4, -1)]
    assert first["previous"] is None and "page=2" in first["next"]
    second = client.get(first["next"]).json()
    assert [r["handle"] for r in second["results"]] == ["r04", "r03", "r02", "r01", "r00"]
    assert second["next"] is None
    # and: a page size of the caller's choosing, up to 100
    assert len(client.get(leaderboard_url("tute2"), {"page_size": 7}).json()["results"]) == 7
    assert len(client.get(leaderboard_url("tute2"), {"page_size": 1000}).json()["results"]) == 25
    assert client.get(leaderboard_url("tute2"), {"page": 9}).status_code == 404


def test_leaderboard_orders_equal_ratings_by_subject(
    client: APIClient, make_player: Callable[..., Player], given_rating: Callable[..., Rating]
) -> None:
    players = [make_player() for _ in range(3)]
    for player in players:
        given_rating(Pool.TUTE2, player, 1500.0, 1)
    subjects = [r["subject"] for r in client.get(leaderboard_url("tute2")).json()["results"]]
    assert subjects == sorted(subjects)


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"min_matches": -1}, "min_matches"),
        ({"min_matches": "many"}, "min_matches"),
        ({"active_days": 0}, "active_days"),
        ({"active_days": "x"}, "active_days"),
        ({"bots": "maybe"}, "bots"),
    ],
)
def test_leaderboard_filters_are_validated(
    params: dict[str, Any], field: str, client: APIClient, league: League
) -> None:
    # when
    response = client.get(leaderboard_url("tute2"), params)

    # then: 400 in the one error shape, the field's messages in detail
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid"
    assert set(body["detail"]) == {field}


def test_an_empty_pool_has_an_empty_leaderboard(client: APIClient) -> None:
    body = client.get(leaderboard_url("pocha")).json()
    assert (body["count"], body["results"]) == (0, [])


# -- a player's ratings ---------------------------------------------------------------------------------


def test_player_ratings_in_every_pool_with_one_history_point_per_rated_match(
    client: APIClient, league: League, resigned_match: Callable[..., Match]
) -> None:
    # given: ana plays the bot account twice more at Tute 2 (loses, then wins)
    for loser in (0, 1):
        match_ratings_apply(match_id=resigned_match("tute2", [league.ana, league.bot], loser=loser).pk)

    # when
    response = client.get(ratings_url("ana"))

    # then: ana's own player, then one entry per pool (pairs: each pair ana belongs to)
    assert response.status_code == 200
    body = response.json()
    assert body["player"] == {"handle": "ana", "display_name": "Ana", "is_bot": False}
    by_pool = {r["pool"]: r for r in body["ratings"]}
    assert set(by_pool) == {"tute2", "tute4", "tute4-pairs", "pocha"}
    assert by_pool["tute4-pairs"]["name"] == "Ana & Cid"
    assert (by_pool["pocha"]["rating"], by_pool["pocha"]["rated_matches"]) == (1510.0, 1)

    # then: Tute 2 history, oldest first: one point per rated match with its date, rating, change, match
    tute2 = by_pool["tute2"]
    changes = list(RatingChange.objects.filter(pool=Pool.TUTE2, subject=f"player:{league.ana.pk}"))
    assert len(tute2["history"]) == 3 == tute2["rated_matches"]
    for point, change in zip(tute2["history"], changes, strict=True):
        assert set(point) == {"date", "rating", "change", "match"}
        assert when(point["date"]) == change.played_at
        assert point["rating"] == round(change.after, 1)
        assert point["change"] == round(change.delta, 1)
        assert point["match"] == change.match_id
    assert tute2["history"][0]["change"] == 20.0
    assert tute2["history"][-1]["rating"] == tute2["rating"]


def test_a_pair_rating_shows_for_both_partners(client: APIClient, league: League) -> None:
    for handle in ("ana", "cid"):
        pools = {r["pool"]: r for r in client.get(ratings_url(handle)).json()["ratings"]}
        assert pools["tute4-pairs"]["subject"] == f"pair:{league.ana.pk}-{league.cid.pk}"
        assert len(pools["tute4-pairs"]["history"]) == 1


def test_a_bot_accounts_ratings_say_it_is_a_bot(client: APIClient, league: League) -> None:
    body = client.get(ratings_url("robo")).json()
    assert body["player"]["is_bot"] is True
    (tute2,) = body["ratings"]
    assert (tute2["pool"], tute2["is_bot"], tute2["rating"]) == ("tute2", True, 1480.0)


def test_a_player_without_rated_matches_has_no_ratings(
    client: APIClient, make_player: Callable[..., Player]
) -> None:
    make_player(handle="newbie")
    body = client.get(ratings_url("newbie")).json()
    assert body["ratings"] == []


def test_provisional_until_the_set_number_of_rated_matches(
    client: APIClient,
    settings: Any,
    make_player: Callable[..., Player],
    given_rating: Callable[..., Rating],
) -> None:
    settings.RATINGS_PROVISIONAL_MATCHES = 10
    given_rating(Pool.TUTE2, make_player(handle="nine"), 1500.0, 9)
    given_rating(Pool.TUTE2, make_player(handle="ten"), 1500.0, 10)
    rows = {r["handle"]: r["provisional"] for r in client.get(leaderboard_url("tute2")).json()["results"]}
    assert rows == {"nine": True, "ten": False}
    assert client.get(ratings_url("ten")).json()["ratings"][0]["provisional"] is False


def test_an_unknown_handle_is_404_with_its_code(client: APIClient) -> None:
    response = client.get(ratings_url("nobody"))
    assert response.status_code == 404
    assert response.json()["code"] == "player_not_found"
