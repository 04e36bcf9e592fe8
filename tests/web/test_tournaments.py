"""Clubs and tournaments on the website: organisers create and run them, people enter, everyone watches."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Player
from ratings.models import Rating
from tests.web.conftest import new_player, person, rate
from tournaments.models import Club, Entrant, Membership, Tournament
from tournaments.services import Settings, club_create, entrant_bot_fill, tournament_create, tournament_start

pytestmark = pytest.mark.django_db


def club_of(organiser: Player, slug: str = "casino") -> Club:
    return club_create(name=slug.title(), slug=slug, by=organiser)


def a_tournament(organiser: Player, club: Club, **settings: Any) -> Tournament:
    fields: dict[str, Any] = {"name": "Open de Otoño", "game": "tute2", "format": "single_elim", **settings}
    return tournament_create(club=club, by=organiser, settings=Settings(**fields))


def started(organiser: Player, tournament: Tournament, bots: int) -> Tournament:
    entrant_bot_fill(tournament_id=tournament.pk, by=organiser, level="random", count=bots)
    return tournament_start(tournament_id=tournament.pk, by=organiser)


# -- clubs ------------------------------------------------------------------------------------------------


def test_a_person_starts_a_club_and_adds_a_member(client: Client) -> None:
    ana = person("ana")
    person("ben")
    client.force_login(ana.user)

    created = client.post(reverse("web:club-new"), {"name": "Casino de Madrid", "slug": "casino"})
    assert created.status_code == 302 and created["Location"] == reverse("web:club", args=["casino"])
    added = client.post(reverse("web:club-member-add", args=["casino"]), {"handle": "ben", "role": "member"})

    assert added.status_code == 302
    roles = dict(Membership.objects.filter(club__slug="casino").values_list("player__handle", "role"))
    assert roles == {"ana": "organiser", "ben": "member"}
    html = client.get(reverse("web:club", args=["casino"])).content.decode()
    assert "Casino de Madrid" in html and 'href="/players/ben/"' in html and 'id="member-form"' in html


def test_only_organisers_add_members(client: Client) -> None:
    club_of(person("ana"))
    client.force_login(person("eve").user)
    html = client.get(reverse("web:club", args=["casino"])).content.decode()
    assert 'id="member-form"' not in html

    refused = client.post(
        reverse("web:club-member-add", args=["casino"]), {"handle": "eve", "role": "organiser"}
    )

    assert refused.status_code == 400 and 'class="errorlist' in refused.content.decode()
    assert not Membership.objects.filter(player__handle="eve").exists()


def test_a_taken_club_slug_is_a_form_error(client: Client) -> None:
    club_of(person("ana"))
    client.force_login(person("ben").user)

    response = client.post(reverse("web:club-new"), {"name": "Otro", "slug": "casino"})

    assert response.status_code == 200 and 'class="errorlist' in response.content.decode()


def test_club_pages_read_a_fixed_number_of_queries(client: Client, django_assert_num_queries: Any) -> None:
    ana = person("ana")
    club = club_of(ana)
    for i in range(3):
        a_tournament(ana, club, name=f"T{i}")
    with django_assert_num_queries(3):  # club, members with players, tournaments with counts
        client.get(reverse("web:club", args=["casino"]))
    with django_assert_num_queries(1):  # clubs with member counts
        client.get(reverse("web:clubs"))

    for i in range(3):
        club_of(person(f"o{i}"), slug=f"club-{i}")
        a_tournament(ana, club, name=f"U{i}")
    with django_assert_num_queries(3):
        client.get(reverse("web:club", args=["casino"]))
    with django_assert_num_queries(1):
        html = client.get(reverse("web:clubs")).content.decode()
    assert html.count('href="/clubs/') >= 4


# -- creating and running a tournament ---------------------------------------------------------------------


def test_an_organiser_creates_a_tournament_from_the_form(client: Client) -> None:
    ana = person("ana")
    club_of(ana)
    client.force_login(ana.user)
    form = client.get(reverse("web:tournament-new")).content.decode()
    assert 'id="tournament-form"' in form

    response = client.post(
        reverse("web:tournament-new"),
        {
            "club": Club.objects.get().pk,
            "name": "Copa del Rey de Oros",
            "game": "tute2",
            "format": "double_elim",
            "match_format": "best_of",
            "match_target": "3",
            "registration": "open",
            "seeding": "rating",
            "rated": "on",
        },
    )

    tournament = Tournament.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse(
        "web:tournament", args=[tournament.pk]
    )
    assert (tournament.format, tournament.match_format, tournament.match_target) == (
        "double_elim",
        "best_of",
        3,
    )
    assert tournament.created_by == ana


def test_settings_that_do_not_fit_are_shown(client: Client) -> None:
    ana = person("ana")
    club_of(ana)
    client.force_login(ana.user)

    response = client.post(
        reverse("web:tournament-new"),
        {
            "club": Club.objects.get().pk,
            "name": "Suizo",
            "game": "tute2",
            "format": "swiss",
            "match_format": "single",
            "match_target": "1",
            "registration": "open",
            "seeding": "rating",
        },
    )

    assert response.status_code == 200 and "swiss_rounds" in response.content.decode()
    assert not Tournament.objects.exists()


def test_a_person_without_a_club_to_organise_cannot_create(client: Client) -> None:
    club_of(person("ana"))
    client.force_login(person("eve").user)

    html = client.get(reverse("web:tournament-new")).content.decode()

    assert 'id="tournament-form"' not in html and "organisers" in html


def test_people_enter_and_withdraw(client: Client) -> None:
    ana = person("ana")
    tournament = a_tournament(ana, club_of(ana))
    ben = person("ben")
    client.force_login(ben.user)

    client.post(reverse("web:tournament-register", args=[tournament.pk]))
    assert Entrant.objects.filter(tournament=tournament, player=ben).exists()
    assert "You are entered." in client.get(reverse("web:tournament", args=[tournament.pk])).content.decode()

    client.post(reverse("web:tournament-withdraw", args=[tournament.pk]))
    entry = Entrant.objects.get(tournament=tournament, player=ben)
    assert entry.status == Entrant.Status.WITHDRAWN or not Entrant.objects.filter(pk=entry.pk).exists()


def test_a_wrong_passcode_is_refused_on_the_page(client: Client) -> None:
    ana = person("ana")
    tournament = a_tournament(ana, club_of(ana), registration="passcode", passcode="sota")
    client.force_login(person("ben").user)

    response = client.post(reverse("web:tournament-register", args=[tournament.pk]), {"passcode": "rey"})

    assert response.status_code == 400 and 'class="errorlist' in response.content.decode()
    assert not Entrant.objects.exists()


def test_the_organiser_adds_house_bots_and_starts_the_bracket(client: Client) -> None:
    ana = person("ana")
    tournament = a_tournament(ana, club_of(ana))
    client.force_login(ana.user)

    client.post(reverse("web:tournament-bots", args=[tournament.pk]), {"level": "random", "count": "5"})
    client.post(reverse("web:tournament-start", args=[tournament.pk]))

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    html = client.get(reverse("web:tournament", args=[tournament.pk])).content.decode()
    # then: an 8-slot bracket of three rounds; round 1 has one real match (5 entrants: the top three
    # seeds have byes), then two semi-finals and the final
    assert 'id="bracket"' in html and html.count('class="bracket-round"') == 3
    codes = re.findall(r'class="bracket-match[^"]*" data-code="([^"]+)"', html)
    assert len([c for c in codes if c.startswith("W1.")]) == 1 and "W3.1" in codes and len(codes) == 4
    assert html.count('href="/matches/') >= 1
    assert 'class="byes"' in html


def test_someone_else_cannot_start_it(client: Client) -> None:
    ana = person("ana")
    tournament = a_tournament(ana, club_of(ana))
    entrant_bot_fill(tournament_id=tournament.pk, by=ana, level="random", count=4)
    client.force_login(person("eve").user)

    response = client.post(reverse("web:tournament-start", args=[tournament.pk]), follow=True)

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.REGISTRATION
    assert 'class="error"' in response.content.decode()


def test_a_round_robin_shows_standings_and_rounds(client: Client) -> None:
    ana = person("ana")
    tournament = started(ana, a_tournament(ana, club_of(ana), format="round_robin"), bots=4)

    html = client.get(reverse("web:tournament", args=[tournament.pk])).content.decode()

    assert 'id="standings"' in html and html.count("<tr>\n    <td>") == 4
    assert 'id="rounds"' in html and 'id="bracket"' not in html


def test_the_tournament_page_reads_the_same_queries_for_a_bigger_field(
    client: Client, django_assert_num_queries: Any
) -> None:
    ana = person("ana")
    club = club_of(ana)
    small = started(ana, a_tournament(ana, club, name="small"), bots=4)
    big = started(ana, a_tournament(ana, club, name="big"), bots=16)

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as few:
        client.get(reverse("web:tournament", args=[small.pk]))
    with django_assert_num_queries(len(few.captured_queries)):
        html = client.get(reverse("web:tournament", args=[big.pk])).content.decode()
    assert html.count('class="bracket-match') == 15  # 8 + 4 + 2 + 1


def test_the_tournament_list_reads_one_query_whatever_its_length(
    client: Client, django_assert_num_queries: Any
) -> None:
    ana = person("ana")
    club = club_of(ana)
    for i in range(2):
        a_tournament(ana, club, name=f"A{i}")
    with django_assert_num_queries(1):
        client.get(reverse("web:tournaments"))
    for i in range(6):
        a_tournament(
            ana, club, name=f"B{i}", game="pocha", format="pocha_tables", table_size=4, pocha_rounds=2
        )
    with django_assert_num_queries(1):
        html = client.get(reverse("web:tournaments"), {"game": "pocha"}).content.decode()
    assert len(re.findall(r'href="/tournaments/\d+/"', html)) == 6


def test_home_lists_upcoming_tournaments(client: Client) -> None:
    ana = person("ana")
    a_tournament(ana, club_of(ana), name="Gran Premio de Bastos")

    assert "Gran Premio de Bastos" in client.get("/").content.decode()


def test_the_leaderboard_filters_by_club(client: Client) -> None:
    ana = person("ana")
    club = club_of(ana)
    member, outsider = new_player(display_name="Socio"), new_player(display_name="Forastero")
    Membership.objects.create(club=club, player=member)
    rate("tute2", member, 1600)
    rate("tute2", outsider, 1700)
    rate("tute2", ana, 1500)
    Rating.objects.create(pool="tute2", subject="house:rule", house_bot="rule", is_bot=True, rating=1550)

    html = client.get(reverse("web:leaderboard", args=["tute2"]), {"club": "casino"}).content.decode()

    assert "Socio" in html and "ana" in html
    assert "Forastero" not in html and "house bot" not in html


def test_invitations_and_check_in(client: Client) -> None:
    from datetime import timedelta

    from django.utils import timezone

    # given: an invitation-only tournament whose check-in window is open
    ana = person("ana")
    now = timezone.now()
    tournament = a_tournament(
        ana,
        club_of(ana),
        registration="invite",
        check_in_opens_at=now - timedelta(minutes=5),
        check_in_closes_at=now + timedelta(hours=1),
    )
    ben = person("ben")
    organiser = Client()
    organiser.force_login(ana.user)

    # when: the organiser invites ben from the page
    organiser.post(reverse("web:tournament-invite", args=[tournament.pk]), {"handle": "ben"})
    # then: ben is invited and the page asks him to enter
    client.force_login(ben.user)
    assert "You are invited" in client.get(reverse("web:tournament", args=[tournament.pk])).content.decode()

    # when: he enters and checks in
    client.post(reverse("web:tournament-register", args=[tournament.pk]))
    page = client.get(reverse("web:tournament", args=[tournament.pk])).content.decode()
    assert 'id="check-in-form"' in page
    client.post(reverse("web:tournament-check-in", args=[tournament.pk]))

    # then
    assert Entrant.objects.get(tournament=tournament, player=ben).status == Entrant.Status.CHECKED_IN
    assert "checked in" in client.get(reverse("web:tournament", args=[tournament.pk])).content.decode()


def test_inviting_an_unknown_handle_is_shown(client: Client) -> None:
    ana = person("ana")
    tournament = a_tournament(ana, club_of(ana), registration="invite")
    client.force_login(ana.user)

    response = client.post(reverse("web:tournament-invite", args=[tournament.pk]), {"handle": "nadie"})

    assert response.status_code == 400 and 'class="errorlist' in response.content.decode()


def test_the_form_sets_tie_breaks_and_a_check_in_window(client: Client) -> None:
    ana = person("ana")
    club_of(ana)
    client.force_login(ana.user)

    client.post(
        reverse("web:tournament-new"),
        {
            "club": Club.objects.get().pk,
            "name": "Suizo de Espadas",
            "game": "tute2",
            "format": "swiss",
            "swiss_rounds": "5",
            "match_format": "single",
            "match_target": "1",
            "registration": "open",
            "seeding": "random",
            "tie_breaks": ["buchholz", "games_won"],
            "check_in_opens_at": "2026-12-20T18:00",
            "check_in_closes_at": "2026-12-20T18:45",
            "time_zone": "Europe/Madrid",
        },
    )

    tournament = Tournament.objects.get()
    assert tournament.swiss_rounds == 5 and tournament.tie_breaks == ["buchholz", "games_won"]
    # the times typed are the organiser's (Madrid, UTC+1 in December)
    assert tournament.check_in_opens_at == datetime(2026, 12, 20, 17, 0, tzinfo=UTC)
    assert tournament.check_in_closes_at == datetime(2026, 12, 20, 17, 45, tzinfo=UTC)
    # and: the page shows them as <time> for the reader's zone
    html = client.get(reverse("web:tournament", args=[tournament.pk])).content.decode()
    assert '<time datetime="2026-12-20T17:00:00+00:00" class="local-time">' in html


def test_an_unknown_time_zone_is_a_form_error(client: Client) -> None:
    ana = person("ana")
    club_of(ana)
    client.force_login(ana.user)
    response = client.post(
        reverse("web:tournament-new"),
        {
            "club": Club.objects.get().pk,
            "name": "X",
            "game": "tute2",
            "format": "single_elim",
            "match_format": "single",
            "match_target": "1",
            "registration": "open",
            "seeding": "random",
            "starts_at": "2026-12-20T18:00",
            "time_zone": "Mars/Olympus",
        },
    )
    assert response.status_code == 200 and not Tournament.objects.exists()


def test_elimination_rounds_are_named_and_destructive_actions_ask_first(client: Client) -> None:
    ana = person("ana")
    tournament = started(ana, a_tournament(ana, club_of(ana)), bots=8)
    client.force_login(ana.user)
    html = client.get(reverse("web:tournament", args=[tournament.pk])).content.decode()
    assert ">Quarter-finals<" in html and ">Semi-finals<" in html and ">Final<" in html
    assert re.search(r'id="cancel-form" data-confirm="[^"]+"', html)
    assert 'data-refresh="20"' in html


def test_a_tournament_match_links_back_to_its_tournament(client: Client) -> None:
    ana = person("ana")
    tournament = started(ana, a_tournament(ana, club_of(ana)), bots=2)
    match_id = tournament.matches.get().match_id

    html = client.get(reverse("web:match", args=[match_id])).content.decode()

    assert f'href="/tournaments/{tournament.pk}/"' in html and "W1.1" in html


def test_an_organiser_corrects_a_result(client: Client) -> None:
    from games.models import Match
    from tests.web.conftest import play_out
    from tournaments.models import Correction, TournamentMatch
    from tournaments.services import match_result_record

    # given: a two-bot final, played and recorded
    ana = person("ana")
    tournament = started(ana, a_tournament(ana, club_of(ana), format="round_robin"), bots=2)
    tm = TournamentMatch.objects.get(tournament=tournament)
    assert tm.match is not None
    play_out(Match.objects.get(pk=tm.match_id))
    match_result_record(match_id=tm.match_id)
    tm.refresh_from_db()
    loser = next(s.entrant_id for s in tm.slots.all() if s.entrant_id != tm.winner_id)
    client.force_login(ana.user)
    assert (
        'class="inline-form correct-form"'
        in client.get(reverse("web:tournament", args=[tournament.pk])).content.decode()
    )

    # when: the organiser gives the match to the other side
    client.post(
        reverse("web:tournament-correct", args=[tournament.pk, tm.pk]), {"winner": loser, "reason": "misdeal"}
    )

    # then: the result changed, the correction is logged and shown
    tm.refresh_from_db()
    assert tm.winner_id == loser
    assert Correction.objects.get(tournament_match=tm).reason == "misdeal"
    html = client.get(reverse("web:tournament", args=[tournament.pk])).content.decode()
    assert 'id="corrections"' in html and "misdeal" in html


def test_only_organisers_see_and_send_corrections(client: Client) -> None:
    from tournaments.models import TournamentMatch

    ana = person("ana")
    tournament = started(ana, a_tournament(ana, club_of(ana), format="round_robin"), bots=2)
    tm = TournamentMatch.objects.get(tournament=tournament)
    client.force_login(person("eve").user)

    html = client.get(reverse("web:tournament", args=[tournament.pk])).content.decode()
    response = client.post(
        reverse("web:tournament-correct", args=[tournament.pk, tm.pk]), {"winner": 1}, follow=True
    )

    assert "correct-form" not in html
    assert 'class="error"' in response.content.decode()
    assert not tm.corrections.exists()


def test_a_double_elimination_shows_both_brackets_and_the_grand_final(client: Client) -> None:
    ana = person("ana")
    tournament = started(ana, a_tournament(ana, club_of(ana), format="double_elim"), bots=4)

    html = client.get(reverse("web:tournament", args=[tournament.pk])).content.decode()

    assert "Winners&#x27; bracket" in html and "Losers&#x27; bracket" in html and "Grand final" in html
    assert 'data-code="GF1"' in html


def test_pocha_tables_show_standings_and_tables(client: Client) -> None:
    ana = person("ana")
    tournament = started(
        ana,
        a_tournament(ana, club_of(ana), game="pocha", format="pocha_tables", table_size=3, pocha_rounds=2),
        bots=6,
    )

    html = client.get(reverse("web:tournament", args=[tournament.pk])).content.decode()

    assert 'id="bracket"' not in html and 'id="standings"' in html
    assert html.count('<td class="code">') == 2  # two tables of three in round 1
    assert html.count('href="/matches/') == 2


def test_an_organiser_records_a_no_show(client: Client) -> None:
    from tournaments.models import TournamentMatch

    # given: a person and a house bot in a final still in play
    ana = person("ana")
    tournament = a_tournament(ana, club_of(ana))
    ben = person("ben")
    from tournaments.services import register

    register(tournament_id=tournament.pk, player=ben)
    tournament = started(ana, tournament, bots=1)
    tm = TournamentMatch.objects.get(tournament=tournament)
    bens = Entrant.objects.get(tournament=tournament, player=ben)
    client.force_login(ana.user)
    assert "no-show-form" in client.get(reverse("web:tournament", args=[tournament.pk])).content.decode()

    # when: the organiser records that ben did not turn up
    client.post(reverse("web:tournament-no-show", args=[tournament.pk, tm.pk]), {"entrant": bens.pk})

    # then: the bot wins by walkover
    tm.refresh_from_db()
    assert tm.status == TournamentMatch.Status.DONE and tm.forfeit and tm.winner_id != bens.pk
