"""A duplicate tournament's boards on the website: listed on the tournament page, each with its travelling
score sheet (every table's result on the same cards, matchpoints) and every table's play of it side by side,
in English and Spanish."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games.models import Game
from tests.tournaments.conftest import run_to_end
from tests.web.conftest import person
from tests.web.test_pages import script_json
from tests.web.test_spanish import english_left
from tournaments.models import Tournament, TournamentBoard
from tournaments.services import Settings, club_create, entrant_bot_fill, tournament_create, tournament_start
from web.selectors import seat_labels

pytestmark = pytest.mark.django_db


def duplicate_tournament() -> Tournament:
    ana = person("ana")
    club = club_create(name="Peña", slug="pena", by=ana)
    t = tournament_create(
        club=club,
        by=ana,
        settings=Settings(
            name="Duplicado", game="tute2", format="round_robin", match_format="duplicate", match_target=1
        ),
    )
    entrant_bot_fill(tournament_id=t.pk, by=ana, level="rule", count=2)
    entrant_bot_fill(tournament_id=t.pk, by=ana, level="random", count=2)
    return tournament_start(tournament_id=t.pk, by=ana)


def test_the_score_sheet_of_a_board_is_shown_once_every_table_has_played_it(client: Client) -> None:
    t = duplicate_tournament()
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert 'id="boards"' in page and f"/tournaments/{t.pk}/boards/1/" in page and "matchpoints" in page
    sealed = client.get(f"/tournaments/{t.pk}/boards/1/").content.decode()
    assert "0 plays finished so far" in sealed and "score-sheet" not in sealed
    assert TournamentBoard.objects.get(tournament=t, number=1).board.seed_sha256 in sealed

    run_to_end(t, lambda tm: None)
    sheet = client.get(f"/tournaments/{t.pk}/boards/1/").content.decode()
    assert 'class="list score-sheet"' in sheet
    assert sheet.count('<td class="code">R1.B') == 4  # two tables, each playing the board twice
    assert "MP)" in sheet and "Board 2" in sheet  # the next board's link
    spanish = client.get(f"/tournaments/{t.pk}/boards/1/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Mano 1" in spanish and "puntos de match" in spanish
    assert english_left(spanish) == []
    assert english_left(client.get(f"/tournaments/{t.pk}/", HTTP_ACCEPT_LANGUAGE="es").content.decode()) == []
    assert client.get(f"/tournaments/{t.pk}/boards/9/").status_code == 404
    # the organiser is offered no hand correction: the points come from the cards
    client.force_login(t.created_by.user)
    assert "correct-form" not in client.get(f"/tournaments/{t.pk}/").content.decode()


def test_an_organiser_creates_a_duplicate_tournament_from_the_form(client: Client) -> None:
    from django.urls import reverse

    from tournaments.models import Club

    ana = person("ana")
    club_create(name="Peña", slug="pena", by=ana)
    client.force_login(ana.user)
    form = client.get(reverse("web:tournament-new"), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Duplicado: todas las mesas juegan las mismas N manos" in form and "Puntos totales" in form
    response = client.post(
        reverse("web:tournament-new"),
        {
            "club": Club.objects.get().pk,
            "name": "Duplicado de otoño",
            "game": "tute4",
            "format": "swiss",
            "swiss_rounds": "3",
            "match_format": "duplicate",
            "match_target": "4",
            "duplicate_scoring": "total_points",
            "registration": "open",
            "seeding": "rating",
        },
    )
    tournament = Tournament.objects.get()
    assert response.status_code == 302
    assert (tournament.match_format, tournament.match_target, tournament.duplicate_scoring) == (
        "duplicate",
        4,
        "total_points",
    )


def test_every_tables_play_of_a_board_is_shown_side_by_side_once_revealed(
    client: Client, django_assert_max_num_queries: Any
) -> None:
    # given: a duplicate tournament whose first board is still being played
    t = duplicate_tournament()
    url = f"/tournaments/{t.pk}/boards/1/"
    sealed = client.get(url).content.decode()
    assert 'class="play"' not in sealed and "replayer" not in sealed

    # when: every table has played it
    t = run_to_end(t, lambda tm: None)
    board = TournamentBoard.objects.get(tournament=t, number=1)
    plays = Game.objects.filter(dealt_from_id=board.board_id).order_by("match_id", "number")
    with django_assert_max_num_queries(10):  # the sheet (7) + games and matches, seats, actions
        page = client.get(url).content.decode()

    # then: one section a play (two tables, the board twice at each), each with its replay of the same deal
    assert page.count('class="play"') == plays.count() == 4
    replays = [script_json(page, f"play-{n}-data") for n in range(1, 5)]
    assert all(r["first"][0]["hands"] == replays[0]["first"][0]["hands"] for r in replays)
    # and: each replay names the game seats by who held them (seat_map), the table linked to its match
    for n, game in enumerate(plays, start=1):
        assert game.seat_map is not None
        labels = seat_labels(game.match)
        names = replays[n - 1]["games"][0]["names"]
        assert names == [labels[game.seat_map[i]]["name"] for i in range(2)]
        assert f'<a href="/matches/{game.match_id}/">' in page
    # and: at each table the second play gave each hand to the other player
    assert replays[1]["games"][0]["names"] == replays[0]["games"][0]["names"][::-1]
    # and: the same page is bounded however the replays are read (now cached)
    with django_assert_max_num_queries(9):
        client.get(url)
    # and: in Spanish
    spanish = client.get(url, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Cómo jugó las cartas cada mesa" in spanish and "Mesa R1.B" in spanish
    assert english_left(spanish) == []
