"""Seating people: private tables and their invite codes, house bots for the free seats, challenges'
cooldown, rematches, presence, and the sweep of open tables nobody completes."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.utils import timezone

from games.errors import (
    ChallengeCooldown,
    InviteRequired,
    ManagedMatch,
    MatchNotOpen,
    NotAllowed,
    NotSeated,
    RematchUnavailable,
    SeatTaken,
)
from games.models import Match, Player, Seat
from games.selectors import away_seats, incoming_challenges, is_online, matches_list
from games.services import (
    SeatSpec,
    challenge_accept,
    challenge_decline,
    match_create,
    match_rematch,
    match_spec,
    open_tables_sweep,
    player_seen,
    seat_join,
    seats_fill_with_bots,
)
from tests.games.conftest import play_to_end

pytestmark = pytest.mark.django_db


def table(
    creator: Player, game: str = "tute2", *, private: bool = False, seats: list[SeatSpec] | None = None
) -> Match:
    return match_create(
        spec=match_spec(created_by=creator, game=game, seats=seats, private=private, capped=True)
    )


def test_a_private_table_seats_only_who_brings_its_code_and_is_not_listed(
    make_player: Callable[..., Player],
) -> None:
    # given: a private Tute 2 table
    ana, ben, eve = make_player(), make_player(), make_player()
    match = table(ana, private=True)
    assert match.invite_code and len(match.invite_code) >= 16

    # then: nobody sits without the code or with a wrong one (the same refusal), and it is not listed
    with pytest.raises(InviteRequired):
        seat_join(match_id=match.pk, player=eve)
    with pytest.raises(InviteRequired):
        seat_join(match_id=match.pk, player=eve, invite_code=match.invite_code[:-1] + "x")
    assert match.pk not in [m.pk for m in matches_list(status="open")]

    # when: a friend brings the code
    seat_join(match_id=match.pk, player=ben, invite_code=match.invite_code)

    # then: the table starts, and once started it is listed like any match
    match.refresh_from_db()
    assert match.status == Match.Status.IN_PROGRESS
    assert match.pk in [m.pk for m in matches_list()]


def test_two_private_tables_never_share_a_code(make_player: Callable[..., Player]) -> None:
    ana = make_player()
    codes = {table(ana, private=True).invite_code for _ in range(8)}
    assert len(codes) == 8


def test_the_creator_fills_free_seats_with_house_bots_and_the_table_starts(
    make_player: Callable[..., Player],
) -> None:
    # given: a Tute 4 table with the creator, a friend's seat (1) and two free seats
    ana, ben = make_player(), make_player()
    match = table(ana, "tute4", seats=[SeatSpec(player=ana.handle), SeatSpec(), SeatSpec(), SeatSpec()])

    # then: only the creator seats bots, only in free seats, and an unknown level is refused
    with pytest.raises(NotAllowed):
        seats_fill_with_bots(match_id=match.pk, by=ben, bot="rule")
    with pytest.raises(SeatTaken):
        seats_fill_with_bots(match_id=match.pk, by=ana, bot="rule", seats=[0])

    # when: the partner's seat (2) gets a bot; the table is still open for a person in seat 1 or 3
    seats_fill_with_bots(match_id=match.pk, by=ana, bot="rule", seats=[2])
    match.refresh_from_db()
    assert match.status == Match.Status.OPEN
    seat_join(match_id=match.pk, player=ben, seat=1)

    # and: the last free seat is filled
    seats_fill_with_bots(match_id=match.pk, by=ana, bot="random")
    match.refresh_from_db()
    assert match.status == Match.Status.IN_PROGRESS
    assert [s.bot_level or s.player.handle for s in match.seats.order_by("index")] == [
        ana.handle,
        ben.handle,
        "rule",
        "random",
    ]
    with pytest.raises(MatchNotOpen):
        seats_fill_with_bots(match_id=match.pk, by=ana, bot="rule")


def test_a_tournament_match_gets_no_bots_through_the_table_service(
    make_player: Callable[..., Player],
) -> None:
    ana = make_player()
    match = match_create(spec=match_spec(created_by=ana, game="tute2", managed=True, challenge=False))
    with pytest.raises(ManagedMatch):
        seats_fill_with_bots(match_id=match.pk, by=ana, bot="rule")


def test_a_declined_challenger_waits_before_challenging_the_same_person_again(
    make_player: Callable[..., Player], settings: object
) -> None:
    # given: ana challenges ben (a private challenge, as the website makes them)
    ana, ben, cris = make_player(), make_player(), make_player()
    seats = [SeatSpec(player=ana.handle), SeatSpec(player=ben.handle)]
    challenge = table(ana, seats=seats, private=True)
    assert [m.pk for m in incoming_challenges(player=ben)] == [challenge.pk]

    # when: ben declines
    challenge_decline(match_id=challenge.pk, player=ben, reason="not now")

    # then: the challenge is called off, and ana may not challenge ben again for a while (429, when)
    challenge.refresh_from_db()
    assert challenge.status == Match.Status.ABORTED and challenge.finish_reason == "declined"
    with pytest.raises(ChallengeCooldown) as refused:
        table(ana, seats=seats, private=True)
    assert 0 < refused.value.retry_after <= 900
    # but others may, and ana may challenge someone else
    table(cris, seats=[SeatSpec(player=cris.handle), SeatSpec(player=ben.handle)], private=True)
    table(ana, seats=[SeatSpec(player=ana.handle), SeatSpec(player=cris.handle)], private=True)

    # and: once the cooldown is over, ana may again
    Seat.objects.filter(declined_by=ben).update(declined_at=timezone.now() - timedelta(seconds=901))
    table(ana, seats=seats, private=True)


def test_the_sweep_calls_off_expired_tables_and_frees_the_seats_of_people_who_left(
    make_player: Callable[..., Player],
) -> None:
    # given: an open table past its time, and one where a person joined and went away
    ana, ben, cris = make_player(), make_player(), make_player()
    stale = table(ana)
    Match.objects.filter(pk=stale.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    pocha = table(ana, "pocha", seats=[SeatSpec(player=ana.handle), SeatSpec(), SeatSpec()])
    seat_join(match_id=pocha.pk, player=ben)
    seat_join(match_id=pocha.pk, player=cris)
    pocha.refresh_from_db()
    assert pocha.status == Match.Status.IN_PROGRESS  # cris's seat was the last: it started

    lobby = table(ana, "pocha", seats=[SeatSpec(player=ana.handle), SeatSpec(), SeatSpec()])
    seat_join(match_id=lobby.pk, player=ben)
    long_ago = timezone.now() - timedelta(minutes=5)
    Player.objects.filter(pk__in=[ana.pk, ben.pk]).update(last_seen_at=long_ago)

    # when: the sweep runs
    swept = open_tables_sweep()

    # then: the stale table expired; ben's seat at the open table is free again, the creator's is kept
    assert swept.expired == 1 and swept.seats_freed == 1
    stale.refresh_from_db()
    assert stale.status == Match.Status.ABORTED and stale.finish_reason == "expired"
    seats = list(lobby.seats.order_by("index"))
    assert seats[0].player_id == ana.pk and seats[1].player_id is None
    # and: a started match is never touched
    assert {s.player_id for s in pocha.seats.all()} == {ana.pk, ben.pk, cris.pk}
    assert open_tables_sweep().expired == 0


def test_an_open_tables_expiry_is_a_challenges_answer_time_or_a_tables_wait(
    make_player: Callable[..., Player], settings: object
) -> None:
    ana, ben = make_player(), make_player()
    before = timezone.now()
    open_table = table(ana)
    challenge = table(ana, seats=[SeatSpec(player=ana.handle), SeatSpec(player=ben.handle)])
    assert open_table.expires_at is not None and challenge.expires_at is not None
    assert timedelta(seconds=1799) <= open_table.expires_at - before <= timedelta(seconds=1801)
    assert timedelta(seconds=599) <= challenge.expires_at - before <= timedelta(seconds=601)


def test_presence_marks_a_person_seen_and_away_after_a_while(make_player: Callable[..., Player]) -> None:
    ana, ben = make_player(), make_player()
    match = match_create(
        spec=match_spec(
            created_by=ana,
            game="tute2",
            seats=[SeatSpec(player=ana.handle), SeatSpec(player=ben.handle)],
            challenge=False,
        )
    )
    seats = list(match.seats.select_related("player").order_by("index"))
    assert away_seats(seats) == []  # never seen: not away (seated by a service, not by a page)

    player_seen(user_id=ana.user_id)
    player_seen(user_id=ben.user_id)
    ana.refresh_from_db()
    assert ana.last_seen_at is not None and is_online(ana)

    Player.objects.filter(pk=ben.pk).update(last_seen_at=timezone.now() - timedelta(seconds=46))
    seats = list(match.seats.select_related("player").order_by("index"))
    assert away_seats(seats) == [1]


def test_a_rematch_is_offered_to_the_others_and_starts_when_they_accept(
    make_player: Callable[..., Player],
) -> None:
    # given: a finished match between two people
    ana, ben, eve = make_player(), make_player(), make_player()
    first = match_create(
        spec=match_spec(
            created_by=ana,
            game="tute2",
            seats=[SeatSpec(player=ana.handle), SeatSpec(player=ben.handle)],
            challenge=False,
        )
    )
    with pytest.raises(RematchUnavailable):
        match_rematch(match_id=first.pk, player=ana)  # not over yet
    play_to_end(first.pk, random.Random(3))

    # when: ben offers a rematch
    with pytest.raises(NotSeated):
        match_rematch(match_id=first.pk, player=eve)
    offer, created = match_rematch(match_id=first.pk, player=ben)

    # then: a private table of the same kind where ana is challenged
    assert created and offer.rematch_of_id == first.pk and offer.private
    assert offer.status == Match.Status.OPEN
    assert [m.pk for m in incoming_challenges(player=ana)] == [offer.pk]
    again, created = match_rematch(match_id=first.pk, player=ben)
    assert again.pk == offer.pk and not created  # asking twice offers once

    # when: ana takes it up (asking for a rematch too)
    taken, created = match_rematch(match_id=first.pk, player=ana)

    # then: it is the same match, now started
    assert taken.pk == offer.pk and not created
    offer.refresh_from_db()
    assert offer.status == Match.Status.IN_PROGRESS


def test_accepting_a_challenge_starts_the_table(make_player: Callable[..., Player]) -> None:
    ana, ben = make_player(), make_player()
    match = table(ana, seats=[SeatSpec(player=ana.handle), SeatSpec(player=ben.handle)], private=True)
    challenge_accept(match_id=match.pk, player=ben)
    match.refresh_from_db()
    assert match.status == Match.Status.IN_PROGRESS
