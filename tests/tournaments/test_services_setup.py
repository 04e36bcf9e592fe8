"""Clubs, tournament settings, entries (open, invite, passcode), check-in and house bots."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.models import Player
from tests.tournaments.conftest import new_player
from tournaments.errors import (
    AlreadyRegistered,
    CheckInClosed,
    ClubSlugTaken,
    EntrantNameTaken,
    InvalidEntry,
    InvalidTournament,
    NotInvited,
    NotOrganiser,
    RegistrationClosed,
    TournamentFull,
    WrongPasscode,
    WrongStatus,
)
from tournaments.models import Club, Entrant, Membership, Tournament
from tournaments.services import (
    Settings,
    check_in,
    club_create,
    entrant_bot_fill,
    entrant_rename,
    invite,
    membership_add,
    partner_set,
    register,
    tournament_create,
    tournament_start,
    tournament_update,
    withdraw,
)

pytestmark = pytest.mark.django_db
Make = Callable[..., Tournament]


# -- clubs ----------------------------------------------------------------------------------------------


def test_the_creator_of_a_club_is_its_organiser(club: Club, organiser: Player) -> None:
    assert Membership.objects.get(club=club, player=organiser).role == Membership.Role.ORGANISER


def test_a_club_slug_is_taken_once(club: Club) -> None:
    with pytest.raises(ClubSlugTaken):
        club_create(name="Other", slug="lugo", by=new_player())


def test_only_organisers_add_members(club: Club, organiser: Player) -> None:
    # given: a member
    member = new_player()
    membership_add(club=club, by=organiser, handle=member.handle)

    # when: the member tries to add someone; then: refused
    with pytest.raises(NotOrganiser):
        membership_add(club=club, by=member, handle=new_player().handle)

    # and: the organiser promotes the member, who then may
    membership_add(club=club, by=organiser, handle=member.handle, role="organiser")
    membership_add(club=club, by=member, handle=new_player().handle)
    assert club.memberships.count() == 3


def test_a_player_is_a_member_of_a_club_once(club: Club, organiser: Player) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Membership.objects.create(club=club, player=organiser)


# -- tournament settings ---------------------------------------------------------------------------------------


def test_only_organisers_create_tournaments(club: Club) -> None:
    with pytest.raises(NotOrganiser):
        tournament_create(
            club=club, by=new_player(), settings=Settings(name="x", game="tute2", format="swiss")
        )


@pytest.mark.parametrize(
    ("fields", "problem"),
    [
        ({"format": "swiss"}, "swiss_rounds"),
        ({"game": "pocha", "format": "pocha_tables", "pocha_rounds": 2}, "table_size"),
        ({"game": "pocha", "format": "swiss", "swiss_rounds": 3}, "Pocha is played"),
        ({"format": "pocha_tables", "table_size": 4, "pocha_rounds": 2}, "Pocha is played"),
        ({"third_place": True, "format": "double_elim"}, "third_place"),
        ({"registration": "passcode"}, "passcode"),
        ({"tie_breaks": ("buchholz", "coin_toss")}, "coin_toss"),
        ({"tie_breaks": ("buchholz", "buchholz")}, "twice"),
        ({"options": {"stock_duty": "sometimes"}}, "options"),
        ({"match_format": "best_of", "match_target": 0}, "match_target"),
    ],
)
def test_settings_that_do_not_fit_are_refused_with_the_reason(
    make_tournament: Make, fields: dict, problem: str
) -> None:
    with pytest.raises(InvalidTournament) as refused:
        make_tournament(**fields)
    assert refused.value.code == "invalid_tournament"
    assert any(problem in p for p in refused.value.detail["problems"])
    assert not Tournament.objects.exists()


def test_the_database_refuses_a_swiss_tournament_without_rounds(club: Club, organiser: Player) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Tournament.objects.create(club=club, created_by=organiser, name="x", game="tute2", format="swiss")


def test_a_passcode_is_stored_hashed_and_checked(make_tournament: Make) -> None:
    # given: a passcode tournament
    t = make_tournament(registration="passcode", passcode="sota-de-oros")
    assert "sota-de-oros" not in t.passcode_hash and t.passcode_hash.startswith(("pbkdf2", "argon2", "md5"))

    # when / then: a wrong passcode is refused, the right one enters
    with pytest.raises(WrongPasscode):
        register(tournament_id=t.pk, player=new_player(), passcode="caballo")
    with pytest.raises(WrongPasscode):
        register(tournament_id=t.pk, player=new_player())
    assert register(tournament_id=t.pk, player=new_player(), passcode="sota-de-oros").status == "registered"


def test_settings_change_before_the_start_only(
    make_tournament: Make, organiser: Player, enter: Callable
) -> None:
    t = make_tournament()
    enter(t, 2)
    updated = tournament_update(
        tournament_id=t.pk,
        by=organiser,
        settings=Settings(name="Renamed", game="tute2", format="round_robin"),
    )
    assert (updated.name, updated.format) == ("Renamed", "round_robin")
    with pytest.raises(InvalidTournament):  # entrants are in: the game stays
        tournament_update(
            tournament_id=t.pk,
            by=organiser,
            settings=Settings(name="x", game="tute4", format="swiss", swiss_rounds=2),
        )
    with pytest.raises(NotOrganiser):
        tournament_update(
            tournament_id=t.pk,
            by=new_player(),
            settings=Settings(name="x", game="tute2", format="swiss", swiss_rounds=2),
        )


# -- entries -----------------------------------------------------------------------------------------------------------


def test_a_player_enters_once(make_tournament: Make) -> None:
    t = make_tournament()
    p = new_player()
    register(tournament_id=t.pk, player=p)
    with pytest.raises(AlreadyRegistered):
        register(tournament_id=t.pk, player=p)
    assert Entrant.objects.filter(tournament=t).count() == 1


def test_a_pair_partner_cannot_enter_twice(make_tournament: Make) -> None:
    # given: a Tute 4 pair a & b
    t = make_tournament(game="tute4")
    a, b, c = new_player(), new_player(), new_player()
    register(tournament_id=t.pk, player=a, partner=b.handle)

    # then: b can neither enter alone nor as c's partner
    with pytest.raises(AlreadyRegistered):
        register(tournament_id=t.pk, player=b, partner=c.handle)
    with pytest.raises(AlreadyRegistered):
        register(tournament_id=t.pk, player=c, partner=b.handle)


def test_partners_are_for_tute4_only(make_tournament: Make) -> None:
    t = make_tournament()
    with pytest.raises(InvalidEntry):
        register(tournament_id=t.pk, player=new_player(), partner=new_player().handle)


def test_a_full_tournament_takes_no_more_entries(make_tournament: Make, enter: Callable) -> None:
    t = make_tournament(max_entrants=2)
    enter(t, 2)
    with pytest.raises(TournamentFull) as refused:
        register(tournament_id=t.pk, player=new_player())
    assert refused.value.detail == {"max_entrants": 2, "entered": 2}


def test_a_withdrawal_before_the_start_frees_the_place(make_tournament: Make, enter: Callable) -> None:
    t = make_tournament(max_entrants=2)
    first, _ = enter(t, 2)
    assert first.player is not None
    withdraw(tournament_id=t.pk, by=first.player)
    assert register(tournament_id=t.pk, player=new_player()).status == "registered"


def test_by_invitation_only_invited_players_enter(make_tournament: Make, organiser: Player) -> None:
    t = make_tournament(registration="invite")
    guest = new_player()
    with pytest.raises(NotInvited):
        register(tournament_id=t.pk, player=guest)
    with pytest.raises(NotOrganiser):
        invite(tournament_id=t.pk, by=guest, handle=guest.handle)
    invitation = invite(tournament_id=t.pk, by=organiser, handle=guest.handle)
    assert invitation.status == "invited"
    entry = register(tournament_id=t.pk, player=guest)
    assert (entry.pk, entry.status) == (invitation.pk, "registered")


def test_the_represented_club_is_one_the_player_belongs_to(
    make_tournament: Make, club: Club, organiser: Player
) -> None:
    t = make_tournament()
    member, outsider = new_player(), new_player()
    membership_add(club=club, by=organiser, handle=member.handle)
    assert register(tournament_id=t.pk, player=member).club == club
    assert register(tournament_id=t.pk, player=outsider).club is None
    other = club_create(name="Ourense", slug="ourense", by=new_player())
    from tournaments.errors import NotMember

    with pytest.raises(NotMember):
        register(tournament_id=t.pk, player=new_player(), club=other.slug)


def test_entries_close_at_the_start(make_tournament: Make, organiser: Player, enter: Callable) -> None:
    t = make_tournament()
    enter(t, 2)
    tournament_start(tournament_id=t.pk, by=organiser)
    with pytest.raises(RegistrationClosed):
        register(tournament_id=t.pk, player=new_player())


# -- check-in --------------------------------------------------------------------------------------------------------


def test_check_in_is_accepted_inside_its_window_only(make_tournament: Make, enter: Callable) -> None:
    now = timezone.now()
    t = make_tournament(
        check_in_opens_at=now + timedelta(hours=1), check_in_closes_at=now + timedelta(hours=2)
    )
    (entrant,) = enter(t, 1)
    assert entrant.player is not None
    with pytest.raises(CheckInClosed):
        check_in(tournament_id=t.pk, player=entrant.player, now=now)
    done = check_in(tournament_id=t.pk, player=entrant.player, now=now + timedelta(minutes=90))
    assert done.status == "checked_in" and done.checked_in_at is not None
    with pytest.raises(CheckInClosed):
        check_in(tournament_id=t.pk, player=entrant.player, now=now + timedelta(hours=3))


def test_a_partner_checks_the_pair_in(make_tournament: Make) -> None:
    now = timezone.now()
    t = make_tournament(
        game="tute4", check_in_opens_at=now - timedelta(hours=1), check_in_closes_at=now + timedelta(hours=1)
    )
    a, b = new_player(), new_player()
    register(tournament_id=t.pk, player=a, partner=b.handle)
    assert check_in(tournament_id=t.pk, player=b).status == "checked_in"


def test_who_did_not_check_in_is_absent_at_the_start(
    make_tournament: Make, organiser: Player, enter: Callable
) -> None:
    # given: four entrants, three check in
    now = timezone.now()
    t = make_tournament(
        check_in_opens_at=now - timedelta(hours=1), check_in_closes_at=now + timedelta(hours=1)
    )
    entrants = enter(t, 4)
    for e in entrants[:3]:
        assert e.player is not None
        check_in(tournament_id=t.pk, player=e.player)

    # when
    tournament_start(tournament_id=t.pk, by=organiser)

    # then: the fourth is absent and unseeded; the others are seeded 1..3
    statuses = dict(Entrant.objects.filter(tournament=t).values_list("pk", "status"))
    assert statuses[entrants[3].pk] == "absent"
    assert sorted(
        Entrant.objects.filter(tournament=t, seed__isnull=False).values_list("seed", flat=True)
    ) == [1, 2, 3]
    assert len(Tournament.objects.get(pk=t.pk).seeds) == 3


# -- house bots ------------------------------------------------------------------------------------------------------------


def test_house_bots_fill_entrants_and_missing_partners(make_tournament: Make, organiser: Player) -> None:
    # given: a Tute 4 pair without a partner
    t = make_tournament(game="tute4")
    alone = register(tournament_id=t.pk, player=new_player())
    assert not alone.is_pair_complete

    # when: the organiser fills with "rule" bots, two more entrants
    changed = entrant_bot_fill(tournament_id=t.pk, by=organiser, level="rule", count=2)

    # then: the pair has a bot partner; two pairs of house bots joined
    alone.refresh_from_db()
    assert alone.partner_bot == "rule" and alone.is_pair_complete
    bots = [e for e in changed if e.pk != alone.pk]
    assert [(e.house_bot, e.partner_bot) for e in bots] == [("rule", "rule")] * 2
    with pytest.raises(NotOrganiser):
        entrant_bot_fill(tournament_id=t.pk, by=new_player(), level="rule", count=1)
    with pytest.raises(InvalidEntry):
        entrant_bot_fill(tournament_id=t.pk, by=organiser, level="grandmaster", count=1)


def test_a_pair_names_its_partner_later(make_tournament: Make) -> None:
    t = make_tournament(game="tute4")
    a, b = new_player(), new_player()
    entrant = register(tournament_id=t.pk, player=a)
    assert (
        partner_set(
            tournament_id=t.pk, by=a, entrant_id=entrant.pk, partner=b.handle, partner_bot=None
        ).partner
        == b
    )
    with pytest.raises(NotOrganiser):
        partner_set(
            tournament_id=t.pk, by=new_player(), entrant_id=entrant.pk, partner=None, partner_bot="rule"
        )


def test_the_database_keeps_an_entrant_a_player_or_a_house_bot(make_tournament: Make) -> None:
    t = make_tournament()
    with pytest.raises(IntegrityError), transaction.atomic():
        Entrant.objects.create(tournament=t)
    with pytest.raises(IntegrityError), transaction.atomic():
        Entrant.objects.create(tournament=t, player=new_player(), house_bot="rule")


def test_a_player_who_withdrew_before_the_start_may_enter_again(make_tournament: Make) -> None:
    t = make_tournament(registration="invite")
    p = new_player()
    invite(tournament_id=t.pk, by=t.created_by, handle=p.handle)
    first = register(tournament_id=t.pk, player=p)
    withdraw(tournament_id=t.pk, by=p)
    again = register(tournament_id=t.pk, player=p)
    assert (again.pk, again.status, again.withdrawn_at) == (first.pk, "registered", None)


def test_the_grand_final_reset_is_an_option_of_double_elimination(
    make_tournament: Callable[..., Tournament],
) -> None:
    # given / then: on by default; off only for double elimination
    assert make_tournament(format="double_elim").grand_final_reset is True
    assert make_tournament(format="double_elim", grand_final_reset=False).grand_final_reset is False
    with pytest.raises(InvalidTournament) as refused:
        make_tournament(format="swiss", swiss_rounds=3, grand_final_reset=False)
    assert "grand_final_reset" in refused.value.message


# -- entrants' names (issue 17) -------------------------------------------------------------------------


def test_house_bot_entrants_get_distinct_readable_names(
    make_tournament: Callable[..., Tournament], organiser: Player
) -> None:
    # given / when: house bots added in two goes, and a Tute 4 tournament's house pairs
    t = make_tournament()
    entrant_bot_fill(tournament_id=t.pk, by=organiser, level="rule", count=2)
    entrant_bot_fill(tournament_id=t.pk, by=organiser, level="random", count=1)
    entrant_bot_fill(tournament_id=t.pk, by=organiser, level="rule", count=2)
    pairs = make_tournament(game="tute4")
    entrant_bot_fill(tournament_id=pairs.pk, by=organiser, level="rule", count=2)

    # then: numbered per level, never the same
    names = [e.name for e in Entrant.objects.filter(tournament=t).order_by("id")]
    assert names == ["Rule bot 1", "Rule bot 2", "Random bot 1", "Rule bot 3", "Rule bot 4"]
    assert [e.name for e in Entrant.objects.filter(tournament=pairs).order_by("id")] == [
        "Rule pair 1",
        "Rule pair 2",
    ]


def test_the_organiser_renames_an_entrant_before_the_start(
    make_tournament: Callable[..., Tournament], organiser: Player
) -> None:
    # given: two house bots
    t = make_tournament()
    first, second = entrant_bot_fill(tournament_id=t.pk, by=organiser, level="rule", count=2)

    # when: renamed
    renamed = entrant_rename(tournament_id=t.pk, by=organiser, entrant_id=first.pk, name="  La  Máquina ")

    # then: its name, tidied; a name in use (any case) or an empty one is refused; only organisers rename
    assert renamed.name == "La Máquina"
    with pytest.raises(EntrantNameTaken):
        entrant_rename(tournament_id=t.pk, by=organiser, entrant_id=second.pk, name="la máquina")
    with pytest.raises(InvalidEntry):
        entrant_rename(tournament_id=t.pk, by=organiser, entrant_id=second.pk, name="   ")
    with pytest.raises(NotOrganiser):
        entrant_rename(tournament_id=t.pk, by=new_player(), entrant_id=second.pk, name="Mine")

    # when: the tournament has started, names are fixed
    entrant_bot_fill(tournament_id=t.pk, by=organiser, level="rule", count=1)
    tournament_start(tournament_id=t.pk, by=organiser)
    with pytest.raises(WrongStatus):
        entrant_rename(tournament_id=t.pk, by=organiser, entrant_id=second.pk, name="Late")
