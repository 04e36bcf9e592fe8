"""The website for a club night over the board: the tournament form's choice, table numbers and result
links on the tournament page, the result form (games or a plain result, a refusal shown), the printed
pairings, score sheets with QR codes and standings, the standings screen, and the exports."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.test import Client

from games.models import Player
from tests.web.conftest import person
from tournaments.models import Club, Tournament, TournamentMatch
from tournaments.services import Settings, club_create, entrant_bot_fill, tournament_create, tournament_start

pytestmark = pytest.mark.django_db


@pytest.fixture
def night() -> tuple[Player, Club, Tournament]:
    """A running Swiss of four over the board, organised by ana."""
    ana = person("ana")
    club = club_create(name="Peña El As", slug="el-as", by=ana)
    t = tournament_create(
        club=club,
        by=ana,
        settings=Settings(
            name="Noche de Tute", game="tute2", format="swiss", swiss_rounds=2, play="table", seeding="manual"
        ),
    )
    entrant_bot_fill(tournament_id=t.pk, by=ana, level="random", count=4)
    tournament_start(tournament_id=t.pk, by=ana)
    return ana, club, t


def tables(t: Tournament) -> list[TournamentMatch]:
    t.refresh_from_db()
    return list(TournamentMatch.objects.filter(tournament=t, round__number=t.current_round).order_by("board"))


def test_the_tournament_form_offers_over_the_board(client: Client) -> None:
    ana = person("ana")
    club = club_create(name="Peña", slug="pena", by=ana)
    client.force_login(ana.user)
    assert 'name="play"' in client.get("/tournaments/new/").content.decode()
    client.post(
        "/tournaments/new/",
        {
            "club": club.pk,
            "name": "Viernes",
            "game": "tute2",
            "format": "round_robin",
            "play": "table",
            "match_format": "single",
            "match_target": "1",
            "registration": "open",
            "seeding": "rating",
        },
    )
    assert Tournament.objects.get(name="Viernes").play == Tournament.Play.TABLE


def test_an_organiser_enters_a_tables_games_and_a_plain_result(
    client: Client, night: tuple[Player, Club, Tournament]
) -> None:
    ana, _club, t = night
    client.force_login(ana.user)
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    first, second = tables(t)
    assert "Table 1" in page and f"/tournaments/{t.pk}/matches/{first.pk}/result/" in page
    form = client.get(f"/tournaments/{t.pk}/matches/{first.pk}/result/").content.decode()
    assert 'name="g0_points_0"' in form and 'name="winner"' in form
    # when: impossible points: the reason is shown, nothing is saved
    bad = {
        "mode": "games",
        "g0_points_0": "70",
        "g0_points_1": "60",
        "g0_cantes_0": "0",
        "g0_cantes_1": "0",
        "g0_last": "0",
    }
    shown = client.post(f"/tournaments/{t.pk}/matches/{first.pk}/result/", bad).content.decode()
    assert "add up to 120" in shown
    first.refresh_from_db()
    assert first.status == TournamentMatch.Status.PLAYING
    # when: the game as played, then the other table's plain result
    good = {**bad, "g0_points_1": "50", "g0_cantes_1": "40"}
    saved = client.post(f"/tournaments/{t.pk}/matches/{first.pk}/result/", good)
    assert saved.status_code == 302
    first.refresh_from_db()
    assert first.card_points == [70, 90] and first.winner is not None
    client.post(f"/tournaments/{t.pk}/matches/{second.pk}/result/", {"mode": "plain", "winner": "draw"})
    second.refresh_from_db()
    assert second.points == ["1/2", "1/2"]
    # then: the round is complete and the form for it is gone from the page
    t.refresh_from_db()
    assert "Enter the result" not in client.get(f"/tournaments/{t.pk}/").content.decode()


def test_someone_else_may_not_enter_results(client: Client, night: tuple[Player, Club, Tournament]) -> None:
    _ana, _club, t = night
    client.force_login(person("eve").user)
    first = tables(t)[0]
    client.post(f"/tournaments/{t.pk}/matches/{first.pk}/result/", {"mode": "plain", "winner": "0"})
    first.refresh_from_db()
    assert first.status == TournamentMatch.Status.PLAYING


def test_the_print_page_lists_tables_names_score_sheets_with_qr_codes_and_standings(
    client: Client, night: tuple[Player, Club, Tournament]
) -> None:
    _ana, _club, t = night
    html = client.get(f"/tournaments/{t.pk}/print/").content.decode()
    for part in ('id="by-table"', 'id="by-name"', 'id="print-standings"', "Pairings by name"):
        assert part in html
    assert html.count('class="print-section score-sheet"') == 2
    assert html.count('class="qr"') == 2 and "Table 1: the result form" in html


def test_the_screen_shows_the_round_and_the_standings(
    client: Client, night: tuple[Player, Club, Tournament]
) -> None:
    _ana, _club, t = night
    html = client.get(f"/tournaments/{t.pk}/screen/").content.decode()
    assert 'data-refresh="10"' in html and "Round 1" in html and "Standings" in html


def test_the_exports_write_standings_results_and_the_whole_tournament(
    client: Client, night: tuple[Player, Club, Tournament]
) -> None:
    ana, _club, t = night
    client.force_login(ana.user)
    for tm in tables(t):
        client.post(f"/tournaments/{t.pk}/matches/{tm.pk}/result/", {"mode": "plain", "winner": "0"})
    standings = list(
        csv.reader(io.StringIO(client.get(f"/tournaments/{t.pk}/export/standings.csv").content.decode()))
    )
    assert standings[0][:5] == ["rank", "seed", "entrant", "points", "played"] and len(standings) == 5
    results = list(
        csv.reader(io.StringIO(client.get(f"/tournaments/{t.pk}/export/results.csv").content.decode()))
    )
    assert results[0][0] == "round" and len(results) == 3 and results[1][6] == "1 | 0"
    document = json.loads(client.get(f"/tournaments/{t.pk}/export/tournament.json").content)
    assert document["format"] == "tute-arena-tournament/1" and document["settings"]["play"] == "table"
    assert len(document["entrants"]) == 4 and len(document["rounds"][0]["tables"]) == 2
    assert [e["entered"] for e in document["entered_results"]] == [{"winner": 0}, {"winner": 0}]
    assert client.get(f"/tournaments/{t.pk}/export/other.txt").status_code == 404


def test_players_report_and_confirm_a_result_from_the_tables_form(client: Client) -> None:
    from tournaments.services import register

    ana, ben, cris = person("ana"), person("ben"), person("cris")
    club = club_create(name="Peña", slug="pena", by=ana)
    t = tournament_create(
        club=club,
        by=ana,
        settings=Settings(
            name="Autoservicio", game="tute2", format="round_robin", play="table", self_report=True
        ),
    )
    register(tournament_id=t.pk, player=ben)
    register(tournament_id=t.pk, player=cris)
    tournament_start(tournament_id=t.pk, by=ana)
    (tm,) = tables(t)
    url = f"/tournaments/{t.pk}/matches/{tm.pk}/result/"
    first, second = (s.entrant.player for s in sorted(tm.slots.all(), key=lambda s: s.position))
    reporter, other = Client(), Client()
    reporter.force_login(first.user)
    other.force_login(second.user)
    # a player sees the link, reports through the form
    assert url in reporter.get(f"/tournaments/{t.pk}/").content.decode()
    reporter.post(url, {"mode": "plain", "winner": "0"})
    tm.refresh_from_db()
    assert tm.status == TournamentMatch.Status.PLAYING
    # the other side sees the report and confirms it
    page = other.get(url).content.decode()
    assert 'id="confirm-report"' in page and 'id="confirm-report"' not in reporter.get(url).content.decode()
    other.post(url, {"confirm": "yes"})
    tm.refresh_from_db()
    assert tm.status == TournamentMatch.Status.DONE
    # a stranger has no form
    client.force_login(person("eve").user)
    assert client.get(url).status_code == 302
