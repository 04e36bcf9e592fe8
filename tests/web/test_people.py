"""The website's pages for people playing people, without a browser: /play/'s three ways to play, a table
for friends and its invite link, sitting at open tables, the lobby, quick pairing's wait, challenges from
a player's page and their answers, rematches, presence."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Match, Player
from games.services import SeatSpec, match_create, match_spec
from lobby.models import Seek
from tests.web.conftest import person, play_out

pytestmark = pytest.mark.django_db


def signed_in(client: Client, player: Player) -> Client:
    client.force_login(player.user)
    return client


def table_post(**fields: str) -> dict[str, str]:
    data = {
        "table-game": "tute2",
        "table-rated": "on",
        "table-human_move_seconds": "120",
        "table-private": "on",
        "table-seat_0": "me",
        "table-seat_1": "person",
    }
    data.update({f"table-{k}": v for k, v in fields.items()})
    return data


def test_play_offers_people_a_table_for_friends_and_the_house_bots(client: Client) -> None:
    signed_in(client, person("ana"))
    html = client.get("/play/").content.decode()
    for form in ("seek-form", "table-form", "play-form"):
        assert f'id="{form}"' in html
    assert 'name="seek-game"' in html and 'name="table-seat_3"' in html and 'name="game"' in html


def test_a_table_for_friends_gets_an_invite_link_that_seats_the_friend(client: Client) -> None:
    # given: ana opens a private Tute 2 table
    ana, ben = person("ana"), person("ben")
    response = signed_in(client, ana).post("/play/table/", table_post())
    match = Match.objects.get(created_by=ana.user)
    assert response.status_code == 302 and response["Location"] == f"/matches/{match.pk}/"
    assert match.private and match.status == Match.Status.OPEN
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert f"/join/{match.invite_code}/" in page and 'id="fill-bots"' in page

    # when: a visitor follows the link, they are asked to sign up or log in and come back
    visitor = Client()
    invite = visitor.get(f"/join/{match.invite_code}/").content.decode()
    assert f"/signup/?next=/join/{match.invite_code}/" in invite
    assert visitor.get("/join/not-the-code/").status_code == 404

    # when: ben, signed in, takes the free seat
    friend = signed_in(Client(), ben)
    choose = friend.get(f"/join/{match.invite_code}/").content.decode()
    assert "Sit here" in choose
    seated = friend.post(f"/join/{match.invite_code}/", {"seat": "1"})

    # then: the table starts, and the link now leads him to the match
    assert seated["Location"] == f"/matches/{match.pk}/"
    match.refresh_from_db()
    assert match.status == Match.Status.IN_PROGRESS
    assert friend.get(f"/join/{match.invite_code}/")["Location"] == f"/matches/{match.pk}/"


def test_signing_up_from_an_invite_link_comes_back_to_it(client: Client) -> None:
    ana = person("ana")
    match = match_create(spec=match_spec(created_by=ana, game="tute2", private=True))
    page = client.get(f"/signup/?next=/join/{match.invite_code}/").content.decode()
    assert f'name="next" value="/join/{match.invite_code}/"' in page
    response = client.post(
        "/signup/",
        {
            "username": "newcomer",
            "email": "n@example.com",
            "password1": "s3cret-Baraja-40",
            "password2": "s3cret-Baraja-40",
            "next": f"/join/{match.invite_code}/",
        },
    )
    assert response["Location"] == f"/join/{match.invite_code}/"
    # and an address elsewhere is not followed
    other = Client().post(
        "/signup/",
        {
            "username": "wanderer",
            "email": "w@example.com",
            "password1": "s3cret-Baraja-40",
            "password2": "s3cret-Baraja-40",
            "next": "https://evil.example/",
        },
    )
    assert other["Location"] == "/"


def test_a_table_needs_a_seat_for_you_and_one_for_a_person(client: Client) -> None:
    signed_in(client, person("ana"))
    page = client.post("/play/table/", table_post(seat_0="person", seat_1="person")).content.decode()
    assert "Choose one seat for yourself." in page
    page = client.post("/play/table/", table_post(seat_1="bot:rule")).content.decode()
    assert "Leave at least one seat for a person" in page
    assert not Match.objects.exists()


def test_the_lobby_shows_public_tables_and_seeks_and_one_click_sits(client: Client) -> None:
    ana, ben, cris = person("ana"), person("ben"), person("cris")
    public = match_create(spec=match_spec(created_by=ana, game="tute2"))
    private = match_create(spec=match_spec(created_by=ana, game="tute2", private=True))
    Seek.objects.create(player=cris, game="tute2", num_players=2, rating=1500, last_seen_at=timezone.now())
    html = signed_in(client, ben).get("/lobby/").content.decode()
    assert f'data-match="{public.pk}"' in html and f'data-match="{private.pk}"' not in html
    assert "cris (1500)" in html
    sat = client.post(f"/matches/{public.pk}/sit/", {"next": "/lobby/"})
    assert sat["Location"] == f"/matches/{public.pk}/"
    public.refresh_from_db()
    assert public.status == Match.Status.IN_PROGRESS


def test_quick_pairing_waits_on_its_page_and_can_be_cancelled(client: Client) -> None:
    ana = person("ana")
    signed_in(client, ana)
    made = client.post(
        "/play/seek/", {"seek-game": "tute2", "seek-rated": "on", "seek-human_move_seconds": "60"}
    )
    seek = Seek.objects.get(player=ana)
    assert made["Location"] == f"/play/seeks/{seek.pk}/" and seek.human_move_seconds == 60
    wait = client.get(f"/play/seeks/{seek.pk}/").content.decode()
    assert 'id="seek-cancel"' in wait and f"/api/v1/seeks/{seek.pk}/" in wait
    # a second search for the same game goes to the first one's wait
    again = client.post(
        "/play/seek/", {"seek-game": "tute2", "seek-rated": "on", "seek-human_move_seconds": "60"}
    )
    assert again["Location"] == f"/play/seeks/{seek.pk}/"
    client.post(f"/play/seeks/{seek.pk}/cancel/")
    seek.refresh_from_db()
    assert seek.status == Seek.Status.CANCELLED
    assert Client().get(f"/play/seeks/{seek.pk}/").status_code == 302  # signed in only


def test_a_challenge_from_a_player_page_waits_for_its_answer(client: Client) -> None:
    ana, ben = person("ana"), person("ben")
    page = signed_in(client, ana).get("/players/ben/").content.decode()
    assert 'id="challenge-form"' in page
    assert 'id="challenge-form"' not in client.get("/players/ana/").content.decode()  # not oneself
    response = client.post(
        "/players/ben/challenge/",
        {
            "challenge-game": "tute2",
            "challenge-rated": "on",
            "challenge-human_move_seconds": "120",
            "challenge-bot": "rule",
        },
    )
    match = Match.objects.get(created_by=ana.user)
    assert response["Location"] == f"/matches/{match.pk}/" and match.private
    # then: ben has it waiting (the banner's source), and declines it from the page he is on
    target = signed_in(Client(), ben)
    waiting = target.get("/api/v1/me/challenges/").json()
    assert [m["id"] for m in waiting["results"]] == [match.pk]
    declined = target.post(f"/matches/{match.pk}/answer/", {"answer": "decline", "next": "/lobby/"})
    assert declined["Location"] == "/lobby/"
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED
    # and: ana's next challenge to ben within the cooldown is refused with a message
    client.post(
        "/players/ben/challenge/",
        {"challenge-game": "tute2", "challenge-human_move_seconds": "120", "challenge-bot": "rule"},
    )
    assert Match.objects.filter(created_by=ana.user).count() == 1


def test_a_tute4_challenge_seats_the_target_opposite_with_house_bot_partners(client: Client) -> None:
    ana, ben = person("ana"), person("ben")
    signed_in(client, ana).post(
        "/players/ben/challenge/",
        {"challenge-game": "tute4", "challenge-human_move_seconds": "60", "challenge-bot": "random"},
    )
    match = Match.objects.get(created_by=ana.user)
    seats = list(match.seats.order_by("index"))
    assert [s.player_id for s in seats[:2]] == [ana.pk, ben.pk] and [s.bot_level for s in seats[2:]] == [
        "random"
    ] * 2
    assert not match.rated
    accepted = signed_in(Client(), ben).post(f"/matches/{match.pk}/answer/", {"answer": "accept"})
    assert accepted["Location"] == f"/matches/{match.pk}/"
    match.refresh_from_db()
    assert match.status == Match.Status.IN_PROGRESS


def test_a_finished_match_between_people_offers_a_rematch(client: Client) -> None:
    ana, ben = person("ana"), person("ben")
    first = match_create(
        spec=match_spec(
            created_by=ana,
            game="tute2",
            seats=[SeatSpec(player=ana.handle), SeatSpec(player=ben.handle)],
            challenge=False,
        )
    )
    play_out(first, seed=4)
    page = signed_in(client, ana).get(f"/matches/{first.pk}/").content.decode()
    assert "Offer a rematch" in page
    offered = client.post(f"/matches/{first.pk}/rematch/")
    rematch = Match.objects.get(rematch_of=first)
    assert offered["Location"] == f"/matches/{rematch.pk}/"
    other = signed_in(Client(), ben).get(f"/matches/{first.pk}/").content.decode()
    assert "Accept the rematch" in other


def test_player_pages_say_who_is_online(client: Client) -> None:
    ana, ben = person("ana"), person("ben")
    Player.objects.filter(pk=ana.pk).update(last_seen_at=timezone.now())
    Player.objects.filter(pk=ben.pk).update(last_seen_at=timezone.now() - timedelta(hours=2))
    assert "Online now" in client.get("/players/ana/").content.decode()
    page = client.get("/players/ben/").content.decode()
    assert "Online now" not in page and "Last seen" in page
    # a signed-in visit marks its person seen
    signed_in(Client(), ben).get("/lobby/")
    ben.refresh_from_db()
    assert ben.last_seen_at is not None and timezone.now() - ben.last_seen_at < timedelta(seconds=5)


def test_the_creator_seats_house_bots_from_the_table_page(client: Client) -> None:
    ana = person("ana")
    match = match_create(spec=match_spec(created_by=ana, game="tute2", private=True))
    signed_in(client, ana).post(f"/matches/{match.pk}/bots/", {"bot": "random"})
    match.refresh_from_db()
    assert match.status == Match.Status.IN_PROGRESS


def test_the_match_stream_tells_the_table_which_seats_are_away() -> None:
    from web.live import Presence, clock

    ana, ben = person("ana"), person("ben")
    match = match_create(
        spec=match_spec(
            created_by=ana,
            game="tute2",
            seats=[SeatSpec(player=ana.handle), SeatSpec(player=ben.handle)],
            challenge=False,
        )
    )
    Player.objects.filter(pk=ben.pk).update(last_seen_at=timezone.now() - timedelta(minutes=2))
    presence = Presence(match.pk, ana)
    presence.seen()  # ana watches: she is here
    event = presence.event()
    assert event == b'event: presence\ndata: {"away": [1]}\n\n'
    assert presence.event() is None  # said once, until it changes
    Player.objects.filter(pk=ben.pk).update(last_seen_at=timezone.now())
    assert presence.event() == b'event: presence\ndata: {"away": []}\n\n'
    match.refresh_from_db()
    seats = list(match.seats.select_related("player"))
    assert clock(match, seats)["away"] == []


def test_a_practice_game_offers_a_hint_button_and_a_rated_one_does_not(client: Client) -> None:
    from tests.web.conftest import bot_match

    ana = person("ana")
    practice = match_create(
        spec=match_spec(
            created_by=ana,
            game="tute2",
            seats=[SeatSpec(player=ana.handle), SeatSpec(bot="rule")],
            rated=False,
        )
    )
    rated = bot_match("tute2", ana)
    signed_in(client, ana)
    assert 'id="ask-hint"' in client.get(f"/matches/{practice.pk}/").content.decode()
    assert 'id="ask-hint"' not in client.get(f"/matches/{rated.pk}/").content.decode()
    Match.objects.filter(pk=practice.pk).update(hints_used=True)
    assert "Played with hints." in client.get(f"/matches/{practice.pk}/").content.decode()
