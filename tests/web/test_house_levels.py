"""The house levels on the website: /play/ offers each as one radio choice with what it plays like and
its measured rating per game with the date; the lobby lists them with their ratings; in both languages."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games.bots import BOT_LEVELS
from games.models import Match
from tests.factories import LevelRatingFactory
from tests.web.conftest import person

pytestmark = pytest.mark.django_db

MEASURED = datetime(2026, 12, 7, 10, 0, tzinfo=UTC)


def _measured() -> None:
    for pool, ratings in {
        "tute2": (1332, 1381, 1453, 1500, 1528),
        "pocha": (900, 1300, 1420, 1500, 1700),
    }.items():
        for level, rating in zip(BOT_LEVELS, ratings, strict=True):
            LevelRatingFactory(level=level, pool=pool, rating=rating, measured_at=MEASURED)


def test_play_offers_every_level_in_one_click_with_its_description_and_rating(client: Client) -> None:
    _measured()
    client.force_login(person("ana").user)
    html = client.get("/play/").content.decode()
    for number, level in enumerate(BOT_LEVELS):
        assert f'type="radio" name="bot" value="{level}"' in html and f'id="id_bot_{number}"' in html
    assert "Beginner bot" in html and "Casual bot" in html and "forgets a cante or the swap" in html
    assert '<span class="level-rating" data-game="tute2">Tute 2: 1381</span>' in html
    assert '<span class="level-rating" data-game="pocha">Pocha: 1300</span>' in html
    assert "(measured Dec. 7, 2026)" in html
    assert 'value="rule" required id="id_bot_3" checked' in html  # the default
    # the lobby's Play link beside a level chooses it
    assert 'value="casual" required id="id_bot_2" checked' in client.get("/play/?bot=casual").content.decode()


def test_a_level_not_measured_yet_says_so(client: Client) -> None:
    client.force_login(person("ana").user)
    assert "not measured yet" in client.get("/play/").content.decode()


def test_playing_the_beginner_seats_beginner_bots(client: Client) -> None:
    client.force_login(person("ana").user)
    response = client.post("/play/", {"game": "tute4", "bot": "beginner"})
    assert response.status_code == 302
    match = Match.objects.latest("pk")
    assert [s.bot_level for s in match.seats.order_by("index")] == ["", "beginner", "beginner", "beginner"]


def test_the_lobby_lists_the_house_levels_with_their_ratings(client: Client) -> None:
    _measured()
    html = client.get("/lobby/").content.decode()
    assert 'id="lobby-levels"' in html
    row = html[html.index('data-level="beginner"') :]
    row = row[: row.index("</tr>")]
    assert "Beginner bot" in row and '<td class="num">1381</td>' in row and '<td class="num">1300</td>' in row
    assert '<td class="num">—</td>' in row  # no Tute 4 measure
    assert "Dec. 7, 2026" in row and "/play/?bot=beginner#play-bots" in row
    levels = APIClient().get("/api/v1/lobby/").json()["house_levels"]
    assert [item["level"] for item in levels] == list(BOT_LEVELS)
    assert levels[1]["measured"]["tute2"] == {
        "rating": 1381.0,
        "deals": 200,
        "against": None,
        "share": None,
        "measured_at": "2026-12-07T10:00:00Z",
    }


def test_the_levels_read_in_spanish(client: Client) -> None:
    _measured()
    client.force_login(person("ana").user)
    html = client.get("/play/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Bot principiante" in html and "Bot aficionado" in html
    lobby = client.get("/lobby/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Bots de la casa" in lobby and "Bot principiante" in lobby
