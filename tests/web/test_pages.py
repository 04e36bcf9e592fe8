"""The website's pages: what they show, and a fixed number of queries for every list (no N+1)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Match
from ratings.models import Rating, RatingChange
from tests.web.conftest import bot_match, long_bot_pocha, new_player, person, play_out, rate

pytestmark = pytest.mark.django_db


def script_json(html: str, element_id: str) -> Any:
    found = re.search(rf'<script id="{element_id}" type="application/json">(.*?)</script>', html, re.S)
    assert found, f"no #{element_id} in the page"
    return json.loads(found.group(1))


# -- home ------------------------------------------------------------------------------------------------


def home_queries(client: Client, django_assert_num_queries: Any, count: int) -> str:
    with django_assert_num_queries(count):
        response = client.get(reverse("web:home"))
    assert response.status_code == 200
    return response.content.decode()


def test_home_lists_live_and_finished_matches_and_top_players_in_fixed_queries(
    client: Client, django_assert_num_queries: Any
) -> None:
    # given: one live match, one finished match and a rated player
    alice = person("alice")
    live = bot_match("tute2", alice)
    done = play_out(bot_match("tute2", person("bruno")))
    rate("tute2", new_player(display_name="Carmen"), 1640)

    # when / then: live (2), finished (2), upcoming and running tournaments (2) and the four pools' top
    # players (4): ten queries
    html = home_queries(client, django_assert_num_queries, 10)
    assert f'href="/matches/{live.pk}/"' in html
    assert f'href="/matches/{done.pk}/"' in html
    assert "Carmen" in html and "1640" in html

    # given: many more of each
    for i in range(6):
        bot_match("tute4", person(f"p{i}"))
        rate("pocha", new_player(), 1500 + i)
    # then: still ten queries
    home_queries(client, django_assert_num_queries, 10)


# -- leaderboards ----------------------------------------------------------------------------------------


def test_leaderboard_ranks_best_first_and_filters_bots_in_three_queries(
    client: Client, django_assert_num_queries: Any
) -> None:
    # given: two people and a bot account rated in Tute 2, and a house bot
    rate("tute2", new_player(display_name="Ana"), 1710)
    rate("tute2", new_player(display_name="Berta"), 1480)
    rate("tute2", new_player(display_name="Robo", is_bot=True, owner=person("owner").user), 1600)
    Rating.objects.create(
        pool="tute2", subject="house:rule", house_bot="rule", is_bot=True, rating=1550, rated_matches=40
    )

    # when: everyone is listed
    with django_assert_num_queries(3):  # the clubs for the filter, the count and the page, players joined
        html = client.get(reverse("web:leaderboard", args=["tute2"])).content.decode()
    # then: best first
    assert html.index("Ana") < html.index("Robo") < html.index("Rule bot") < html.index("Berta")

    # when: people only / bots only
    people = client.get(reverse("web:leaderboard", args=["tute2"]), {"bots": "exclude"}).content.decode()
    bots = client.get(reverse("web:leaderboard", args=["tute2"]), {"bots": "only"}).content.decode()
    # then
    assert "Ana" in people and "Berta" in people and "Robo" not in people and "house bot" not in people
    assert "Robo" in bots and "Rule bot" in bots and "Ana" not in bots


def test_leaderboard_query_count_does_not_grow_with_its_rows(
    client: Client, django_assert_num_queries: Any
) -> None:
    for i in range(60):
        rate("pocha", new_player(), 1400 + i)
    with django_assert_num_queries(3):
        first = client.get(reverse("web:leaderboard", args=["pocha"]))
    with django_assert_num_queries(3):
        second = client.get(reverse("web:leaderboard", args=["pocha"]), {"page": 2})
    assert first.content.decode().count("<tr>\n  <td>") == 50
    assert second.content.decode().count("<tr>\n  <td>") == 10
    assert "<td>51</td>" in second.content.decode()


def test_an_unknown_pool_is_not_found(client: Client) -> None:
    assert client.get("/leaderboards/chess/").status_code == 404


# -- players ---------------------------------------------------------------------------------------------


def test_player_page_draws_the_rating_history_and_lists_matches_in_fixed_queries(
    client: Client, django_assert_num_queries: Any
) -> None:
    # given: a player with three rated Tute 2 matches
    alice = person("alice")
    rating = rate("tute2", alice, 1530, matches=3)
    for i, after in enumerate((1520.0, 1545.0, 1530.0)):
        match = play_out(bot_match("tute2", alice), seed=i)
        RatingChange.objects.create(
            match=match,
            rating=rating,
            pool="tute2",
            subject=rating.subject,
            before=after - 10,
            after=after,
            delta=10,
            k=40,
            played_at=match.finished_at,
        )

    # and: a club
    from tournaments.services import club_create

    club_create(name="Peña El Rey", slug="pena", by=alice)

    # when: the page is read (player, ratings, changes, matches and their seats, the matches' rating
    # changes, the won/lost record, clubs, the games with a luck figure for the skill section and the
    # reviews for the progress section: none here)
    with django_assert_num_queries(10):
        html = client.get(reverse("web:player", args=["alice"])).content.decode()

    # then: an inline SVG line through the start and the three ratings, and the matches listed
    svg = re.search(r'<svg class="chart".*?</svg>', html, re.S)
    assert svg is not None
    points = re.search(r'<polyline points="([^"]+)"', svg.group(0))
    assert points is not None and len(points.group(1).split()) == 4
    assert "1545" in svg.group(0)
    assert html.count('href="/matches/') >= 3
    assert 'class="rating-value">1530<' in html
    assert 'href="/clubs/pena/"' in html
    # and: the won/lost record, each match's result and rating change for her
    record = re.search(r'<p class="record" id="record">(.*?)</p>', html, re.S)
    assert record is not None and "Tute 2" in record.group(1)
    won = html.count('class="result-won"')
    lost = html.count('class="result-lost"')
    assert won + lost + html.count('class="result-shared"') == 3
    assert f"{won} won, {lost} lost" in record.group(1)
    assert html.count('<span class="delta up">+10.0</span>') == 3


def test_an_unknown_player_is_not_found(client: Client) -> None:
    assert client.get("/players/nobody/").status_code == 404


# -- matches: live view and replay -----------------------------------------------------------------------


def test_a_seated_person_gets_their_seat_view_and_the_play_controls(client: Client) -> None:
    alice = person("alice")
    match = bot_match("tute2", alice)
    client.force_login(alice.user)

    html = client.get(reverse("web:match", args=[match.pk])).content.decode()

    view = script_json(html, "view-data")
    assert view["seat"] == 0 and len(view["view"]["hand"]) == 8
    assert 'id="hand"' in html and 'id="live"' in html
    assert f'data-action-url="/api/v1/matches/{match.pk}/actions/"' in html


def test_a_spectator_sees_no_hand(client: Client) -> None:
    match = bot_match("tute2", person("alice"))

    html = client.get(reverse("web:match", args=[match.pk])).content.decode()

    view = script_json(html, "view-data")
    assert view["seat"] is None and view["view"]["hand"] == []
    assert 'id="hand"' not in html and 'id="live"' in html
    assert "replay-data" not in html  # the deal stays secret while the match runs


def test_a_finished_match_shows_the_result_and_replays_every_hand_step_by_step(
    client: Client, django_assert_max_num_queries: Any
) -> None:
    # given: a finished Tute 2 match
    match = play_out(bot_match("tute2", person("alice")))

    with django_assert_max_num_queries(9):  # 8, and the verify panel's games (seeds and decks)
        html = client.get(reverse("web:match", args=[match.pk])).content.decode()

    # then: the result and a replay from the deal (8 cards each) to the end, trick ends marked
    assert 'id="result"' in html and "Winner" in html
    replay = script_json(html, "replay-data")
    steps = replay["first"]  # a Tute 2 fits in the first page
    assert replay["games"][0]["steps"] == len(steps)
    assert [len(h) for h in steps[0]["hands"]] == [8, 8]
    assert steps[0]["action"] is None
    assert len(steps) == Match.objects.get(pk=match.pk).ply + 1
    assert sum(1 for s in steps if s["trick_end"]) == 20  # Tute 2: 20 tricks
    assert steps[-1]["hands"] == [[], []] or steps[-1]["result"]["tute"] is not None
    assert steps[-1]["result"] is not None


def test_a_tute4_replay_has_ten_tricks_of_four_cards() -> None:
    from web.selectors import match_page, match_replay

    match = play_out(bot_match("tute4", person("alice"), level="random"))
    loaded = match_page(match_id=match.pk)
    assert loaded is not None

    steps = match_replay(match=loaded)[0].steps

    assert [len(h) for h in steps[0]["hands"]] == [10, 10, 10, 10]
    ends = [s for s in steps if s["trick_end"]]
    assert len(ends) == 10 or steps[-1]["result"]["tute"] is not None
    assert all(len(s["last_trick"]["cards"]) == 4 for s in ends)


def test_a_pocha_replay_shows_each_hand_and_its_bids() -> None:
    from web.selectors import match_page, match_replay

    # given: a short Pocha (hands of 1, 2, 1 card) of three seats
    alice = person("alice")
    from tests.factories import MatchFactory

    match = MatchFactory(
        created_by=alice,
        game="pocha",
        players=3,
        options={"pocha_sequence": "up_down", "pocha_max_cards": 2},
        seats=[alice, "rule", "random"],
    )
    play_out(match)
    loaded = match_page(match_id=match.pk)
    assert loaded is not None

    steps = match_replay(match=loaded)[0].steps

    # then: three hands; the first deals one card each; bids appear before the play
    assert [len(h) for h in steps[0]["hands"]] == [1, 1, 1]
    assert {s["hand_number"] for s in steps} == {0, 1, 2}
    assert any(s["action"] and s["action"]["code"].startswith("bid:") for s in steps)
    assert sum(1 for s in steps if s["trick_end"]) == 1 + 2 + 1


def test_a_very_long_finished_match_page_stays_small_and_its_replay_comes_a_page_at_a_time(
    client: Client, django_assert_max_num_queries: Any
) -> None:
    # given: a finished bot-only Pocha of 40 hands of ten cards (1,760 plies; every step inline: ~1.2 MB)
    match = long_bot_pocha(hands=40)

    # when: its page is read
    with django_assert_max_num_queries(10):
        response = client.get(reverse("web:match", args=[match.pk]))

    # then: the page carries each game's index and the first page of steps, not every step
    html = response.content.decode()
    assert len(response.content) < 100_000
    replay = script_json(html, "replay-data")
    [game] = replay["games"]
    assert game["steps"] == match.ply + 1
    assert len(replay["first"]) == replay["page"] == 100
    assert [hand for hand, _ in game["hands"]] == list(range(40)) and game["hands_total"] == 40
    assert len(game["trick_ends"]) == 40 * 10
    assert script_json(html, "view-data") is None  # no live view: its every hand's tricks weigh as much

    # and: the viewer's pages, asked in turn, give every step once, in order, in a bounded few queries
    steps: list[dict[str, Any]] = []
    for start in range(0, game["steps"], replay["page"]):
        with django_assert_max_num_queries(2):
            page = client.get(replay["url"], {"game": 0, "start": start})
        assert page.status_code == 200 and "public" in page["Cache-Control"]
        assert page.json()["start"] == start
        steps += page.json()["steps"]
    assert steps[: replay["page"]] == replay["first"]
    assert len(steps) == game["steps"]
    assert steps[0]["action"] is None and steps[-1]["result"] is not None
    assert [i for i, step in enumerate(steps) if step["trick_end"]] == game["trick_ends"]
    assert [step for _, step in game["hands"]] == [
        i for i, step in enumerate(steps) if i == 0 or step["hand_number"] != steps[i - 1]["hand_number"]
    ]


def test_a_replay_page_is_asked_for_by_game_and_first_step(client: Client) -> None:
    # given: a finished Tute 2 (one game, fewer steps than a page) and a match still in play
    finished = play_out(bot_match("tute2", person("alice")))
    running = bot_match("tute2", person("bob"))
    url = reverse("web:match-replay", args=[finished.pk])

    # then: a page that is not there is a 400 with a reason; an unfinished or unknown match has none
    for query in ({"game": 1}, {"start": 50}, {"start": 100}, {"game": "x"}, {"start": -100}):
        response = client.get(url, query)
        assert response.status_code == 400 and response.json()["code"] == "bad_page", query
    assert client.get(reverse("web:match-replay", args=[running.pk])).status_code == 404
    assert client.get(reverse("web:match-replay", args=[999999])).status_code == 404
    assert len(client.get(url).json()["steps"]) == finished.ply + 1


def test_an_unknown_match_is_not_found(client: Client) -> None:
    assert client.get("/matches/999999/").status_code == 404


def test_the_pages_that_show_a_token_are_never_stored(client: Client) -> None:
    # given: a signed-in person
    owner = person("keeper")
    client.force_login(owner.user)

    # when: they make a bot and a personal token, each shown once on the page
    bot = client.post(reverse("web:bots"), {"handle": "kept", "display_name": ""})
    token = client.post(reverse("web:tokens"))

    # then: no browser or proxy cache may keep either page
    for response in (bot, token):
        assert response.status_code == 200
        assert "no-store" in response["Cache-Control"]


@pytest.mark.django_db(transaction=True)  # committed moves: each starts from the state cached on commit
def test_a_finished_pocha_shows_its_scoresheet(client: Client) -> None:
    # given: a finished Pocha of a person and two house bots
    from tests.web.conftest import bot_match, play_out

    ana = person("ana")
    match = play_out(bot_match("pocha", ana, players=3))
    client.force_login(ana.user)
    # when: its page is read
    html = client.get(f"/matches/{match.pk}/").content.decode()
    # then: one row a hand, and the person's outcome
    sheet = re.search(r'<table class="list scoresheet" id="final-scoresheet">(.*?)</table>', html, re.S)
    assert sheet is not None
    hands = len(match.games.get().result.get("hands", [])) or sheet.group(1).count("<tr>") - 1
    assert sheet.group(1).count("<tr>") - 1 == hands >= 1
    assert 'id="my-outcome"' in html
